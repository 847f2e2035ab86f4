import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { TaskClient } from './tasks.js';

/** A periodic task: its name and the slots of its cron expression. */
export interface PeriodicTask {
  readonly name: string;
  readonly previous: (now: Date) => Date;
  readonly next: (now: Date) => Date;
}

/** A slot this much in the past is still enqueued (a process that was busy or just started). */
const LATE_MS = 60_000;

/**
 * Enqueues each periodic task once per cron slot, whichever processes run this scheduler: the
 * job's unique key is `cron:<name>:<slot ISO>`, unique among every stored job (finished ones
 * too), so the first process to reach a slot enqueues it and the others find it taken. A slot
 * missed by more than a minute (no process was up) is skipped, not caught up.
 */
export class PeriodicTasks {
  private timer?: ReturnType<typeof setTimeout>;
  private readonly last = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly tasks: readonly PeriodicTask[],
    private readonly client: TaskClient,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.tasks.length > 0) void this.tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async tick(): Promise<void> {
    const now = this.clock.now();
    for (const task of this.tasks) {
      const slot = task.previous(now);
      if (now.getTime() - slot.getTime() > LATE_MS || (this.last.get(task.name) ?? -1) >= slot.getTime()) continue;
      try {
        await this.client.enqueue(task.name, {}, { uniqueKey: `cron:${task.name}:${slot.toISOString()}`, uniqueEver: true });
        this.last.set(task.name, slot.getTime());
      } catch (err) {
        this.logger.error({ err, task: task.name }, 'tasks: enqueuing a periodic task failed; retrying');
      }
    }
    if (this.stopped) return;
    const after = this.clock.now();
    const wait = Math.min(...this.tasks.map((t) => t.next(after).getTime() - after.getTime()), 30_000);
    this.timer = setTimeout(() => void this.tick(), Math.max(10, wait + 5));
    this.timer.unref();
  }
}
