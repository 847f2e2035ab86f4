import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';

/**
 * The database's time, read through the process's clock: `now()` is the local time plus the
 * offset measured at the last `sync` (the database's reading minus the local midpoint of the
 * round trip). Leases, delays and cron slots of every worker are then on one clock, so a worker
 * whose own clock runs ahead can neither take over a running job nor run a delayed one early.
 * Exact to half a round trip, and to the drift between syncs.
 */
export class DatabaseClock implements Clock {
  private offset = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly read: () => Promise<Date>,
    private readonly local: Clock,
    private readonly logger: Logger,
    /** How often the offset is measured again (default 10 s). */
    private readonly everyMs = 10_000,
  ) {}

  now(): Date {
    return new Date(this.local.now().getTime() + this.offset);
  }

  /** The offset in milliseconds the last sync measured (database minus local). */
  get skewMs(): number {
    return this.offset;
  }

  /** Measures the offset now. */
  async sync(): Promise<void> {
    const before = this.local.now().getTime();
    const database = (await this.read()).getTime();
    const after = this.local.now().getTime();
    if (!Number.isFinite(database)) throw new Error('tasks: the database answered no time');
    this.offset = database - (before + after) / 2;
  }

  /** Measures at once, then every `everyMs`; a failed measure keeps the last offset and is logged. */
  async start(): Promise<void> {
    await this.sync();
    if (Math.abs(this.offset) > 1000) this.logger.warn({ skewMs: Math.round(this.offset) }, "tasks: this process's clock is off the database's; leases and delays follow the database");
    this.timer = setInterval(() => void this.sync().catch((err: unknown) => this.logger.warn({ err }, 'tasks: could not read the database time; keeping the last offset')), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
