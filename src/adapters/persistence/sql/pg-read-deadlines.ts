import { discard, type PgConnection } from './pool-connections.js';

/** How often the statements waiting for their reply are checked against their deadline. */
const DEADLINE_TICK_MS = 100;

export interface Watch {
  readonly pg: PgConnection;
  readonly deadline: number;
  expired: boolean;
}

/**
 * The client's read deadline of the store's statements: one timer for every statement in flight,
 * instead of node-pg's `query_timeout`, which arms and clears a timer of its own around every
 * statement (about 1.5 µs each on the hot path). A statement still waiting past its deadline
 * (checked every 100 ms) has its connection's socket destroyed, which fails the statement at once
 * and makes the pool discard the connection; the caller sees node-pg's read-timeout error, as
 * before.
 */
export class ReadDeadlines {
  private readonly waiting = new Set<Watch>();
  private timer: NodeJS.Timeout | undefined;

  watch(pg: PgConnection, deadline: number): Watch {
    const watch: Watch = { pg, deadline, expired: false };
    this.waiting.add(watch);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), DEADLINE_TICK_MS);
      this.timer.unref();
    }
    return watch;
  }

  done(watch: Watch): void {
    this.waiting.delete(watch);
  }

  private sweep(): void {
    const now = Date.now();
    for (const watch of this.waiting) {
      if (watch.deadline > now) continue;
      this.waiting.delete(watch);
      watch.expired = true;
      discard(watch.pg);
    }
    if (this.waiting.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** The deadlines of every store statement in flight in this process. */
export const readDeadlines = new ReadDeadlines();
