import type { Knex } from '@mikro-orm/knex';
import { PgListener } from './pg-listener.js';

/** The NOTIFY channel of the task queue (one per schema, as the event bus's). */
export function tasksChannel(schema?: string): string {
  return schema ? `portico_tasks_${schema}`.slice(0, 63) : 'portico_tasks';
}

/**
 * Wakes the workers of every process on a PostgreSQL database when a job is enqueued: `notify`
 * sends a NOTIFY on the pool (the caller does it after the enqueue's commit), and a
 * {@link PgListener} calls `onWake` for each one, and once more whenever it (re)connects (jobs
 * enqueued while it was down are found then rather than at the next poll). The workers'
 * fallback poll finds new jobs anyway: a wake-up is an optimisation, never needed for correctness.
 */
export class PgTaskWakeup {
  private readonly channel: string;
  private readonly listener: PgListener;

  constructor(
    url: string,
    private readonly knex: Knex,
    onWake: () => void,
    schema?: string,
  ) {
    this.channel = tasksChannel(schema);
    this.listener = new PgListener({ url, ...(schema ? { schema } : {}), channel: this.channel, applicationName: 'portico-tasks', onNotification: () => onWake(), onUp: onWake });
  }

  /** Connects the listener (a failure is retried in the background). */
  start(): Promise<void> {
    return this.listener.start();
  }

  /** Tells every listening process that `queue` has a new job. */
  async notify(queue: string): Promise<void> {
    await this.knex.raw('select pg_notify(?, ?)', [this.channel, queue]);
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
