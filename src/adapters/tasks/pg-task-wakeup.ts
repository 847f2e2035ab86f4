import type { Knex } from '@mikro-orm/knex';
import type { Client } from 'pg';

/** The NOTIFY channel of the task queue (one per schema, as the event bus's). */
export function tasksChannel(schema?: string): string {
  return schema ? `portico_tasks_${schema}`.slice(0, 63) : 'portico_tasks';
}

/**
 * Wakes the workers of every process on a PostgreSQL database when a job is enqueued: `notify`
 * sends a NOTIFY on the pool (the caller does it after the enqueue's commit), and a dedicated
 * connection LISTENs and calls `onWake`. A lost listener reconnects after a second; meanwhile the
 * workers' fallback poll finds new jobs anyway, so a wake-up is an optimisation, never needed
 * for correctness.
 */
export class PgTaskWakeup {
  private client?: Client;
  private closed = false;
  private timer?: ReturnType<typeof setTimeout>;
  private readonly channel: string;

  constructor(
    private readonly url: string,
    private readonly knex: Knex,
    private readonly onWake: () => void,
    private readonly schema?: string,
  ) {
    this.channel = tasksChannel(schema);
  }

  /** Connects the listener (a failure is retried in the background). */
  async start(): Promise<void> {
    await this.connect().catch(() => this.reconnect());
  }

  /** Tells every listening process that `queue` has a new job. */
  async notify(queue: string): Promise<void> {
    await this.knex.raw('select pg_notify(?, ?)', [this.channel, queue]);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    client?.removeAllListeners();
    client?.on('error', () => undefined);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 3_000,
      application_name: 'portico-tasks',
      ...(this.schema ? { options: `-c search_path=${this.schema}` } : {}),
    });
    client.on('notification', (n) => {
      if (n.channel === this.channel) this.onWake();
    });
    const lost = (): void => {
      if (client !== this.client) return;
      this.client = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      this.reconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void (await client.end());
    this.client = client;
    // Jobs enqueued while the listener was down are found now rather than at the next poll.
    this.onWake();
  }

  private reconnect(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => void this.connect().catch(() => this.reconnect()), 1_000);
    this.timer.unref();
  }
}
