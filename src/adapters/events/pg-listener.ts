import type { Client, Notification } from 'pg';
import { backoffMs, type TransportState } from './broadcast-transport.js';

/** What a listening connection is for. */
export interface PgListenerOptions {
  readonly url: string;
  readonly schema?: string;
  /** The NOTIFY channel to LISTEN on. */
  readonly channel: string;
  /** Names the connection in `pg_stat_activity`. */
  readonly applicationName: string;
  /** A notification on the channel (its payload, and the connection it came on). */
  onNotification(payload: string, client: Client): void;
  /** The connection is listening (at start, and again after every reconnection). */
  onUp?(): void;
  /** The connection was lost, or a first connection failed. */
  onDown?(): void;
}

/**
 * One dedicated PostgreSQL connection that LISTENs on a channel (not from the pool: a pooled
 * connection stops listening when it is released). A connection that fails or is lost is
 * retried with backoff (100 ms doubling to 5 s) and LISTENs again once back; a first connection
 * that fails is not an error (the state says so and retries go on). Used by the PostgreSQL event
 * transport and the task queue's wake-ups.
 */
export class PgListener {
  private current?: Client;
  private status: TransportState = { up: false, reason: 'not started' };
  private closed = false;
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private waiting: (() => void)[] = [];

  constructor(private readonly options: PgListenerOptions) {}

  /** The listening connection, while it is up (statements may run on it too). */
  get client(): Client | undefined {
    return this.current;
  }

  state(): TransportState {
    return this.status;
  }

  /** Resolves once the connection listens (at once if it does), or at close. */
  whenUp(): Promise<void> {
    if (this.status.up || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  async start(): Promise<void> {
    try {
      await this.connect();
    } catch {
      this.status = { up: false, reason: 'listener cannot connect' };
      this.options.onDown?.();
      this.reconnect();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.current;
    this.current = undefined;
    this.status = { up: false, reason: 'closed' };
    this.wake();
    client?.removeAllListeners();
    client?.on('error', () => undefined);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { default: pg } = await import('pg');
    const { url, schema, channel, applicationName } = this.options;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000, application_name: applicationName, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
    client.on('notification', (n: Notification) => {
      if (n.channel === channel && n.payload !== undefined) this.options.onNotification(n.payload, client);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen "${channel}"`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void (await client.end());
    this.current = client;
    this.attempt = 0;
    this.status = { up: true };
    this.wake();
    this.options.onUp?.();
  }

  private lost(client: Client): void {
    if (client !== this.current) return;
    this.current = undefined;
    this.status = { up: false, reason: 'listener disconnected' };
    this.options.onDown?.();
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.connect().catch(() => {
        this.status = { up: false, reason: 'listener cannot connect' };
        this.reconnect();
      });
    }, backoffMs(this.attempt++));
    this.timer.unref();
  }
}
