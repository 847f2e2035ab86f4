import type { Client, Notification } from 'pg';
import { backoffMs, type BroadcastTransport, type TransportState } from './broadcast-transport.js';

/** The NOTIFY channel every process of an app listens on (channels are per database: an app in its own schema gets its own). */
export function eventsChannel(schema?: string): string {
  return schema ? `portico_events_${schema}`.slice(0, 63) : 'portico_events';
}
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; larger messages travel by reference. */
const MAX_NOTIFY_BYTES = 7_900;
/** A stored payload older than this has been read by every listener that will ever read it. */
const PAYLOAD_TTL = '5 minutes';
const REFERENCE = /^\{"ref":(\d+)\}$/;

/**
 * LISTEN/NOTIFY on one dedicated connection (not from the pool: a pooled connection would stop
 * listening when it is released). A message over NOTIFY's limit is stored in
 * `portico_event_payload` (migration portico_0003_event_payloads) and announced by its id; every
 * listener reads it back. A lost connection is retried with backoff (100 ms doubling to 5 s) and
 * LISTENs again once back; what was sent meanwhile is not replayed.
 */
export class PostgresTransport implements BroadcastTransport {
  readonly name = 'postgresql';
  private client?: Client;
  private current: TransportState = { up: false, reason: 'not started' };
  private closed = false;
  private attempt = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private receive: (text: string) => void = () => undefined;
  private reading: Promise<void> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();
  private sent = 0;
  private readonly channel: string;

  /** `applicationName` names the listening connection in `pg_stat_activity`. */
  constructor(
    private readonly url: string,
    private readonly schema?: string,
    private readonly applicationName = 'portico-events',
  ) {
    this.channel = eventsChannel(schema);
  }

  async start(receive: (text: string) => void): Promise<void> {
    this.receive = receive;
    try {
      await this.connect();
    } catch {
      // Not fatal: the app can serve without cross-process events; /ready says so until it connects.
      this.current = { up: false, reason: 'listener cannot connect' };
      this.reconnect();
    }
  }

  state(): TransportState {
    return this.current;
  }

  send(text: string): Promise<void> {
    return this.serially(() => this.sendNow(text));
  }

  /** One statement at a time on the connection (pg does not queue concurrent queries for much longer). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sendNow(text: string): Promise<void> {
    const client = this.client;
    if (!client) throw new Error(`the event listener is not connected (${this.current.reason ?? 'down'})`);
    if (Buffer.byteLength(text) <= MAX_NOTIFY_BYTES) {
      await client.query('select pg_notify($1, $2)', [this.channel, text]);
      return;
    }
    const { rows } = await client.query<{ id: string }>('insert into portico_event_payload (body) values ($1) returning id', [text]);
    await client.query('select pg_notify($1, $2)', [this.channel, `{"ref":${rows[0]?.id ?? '0'}}`]);
    if (++this.sent % 100 === 1) await client.query(`delete from portico_event_payload where created_at < now() - interval '${PAYLOAD_TTL}'`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.current = { up: false, reason: 'closed' };
    await this.reading;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 3_000,
      application_name: this.applicationName,
      ...(this.schema ? { options: `-c search_path=${this.schema}` } : {}),
    });
    client.on('notification', (n: Notification) => {
      if (n.channel === this.channel && n.payload !== undefined) this.arrived(client, n.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen "${this.channel}"`);
    } catch (error) {
      client.removeAllListeners();
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void (await client.end());
    this.client = client;
    this.attempt = 0;
    this.current = { up: true };
  }

  /** Hands a notification on, reading a stored payload first; order is kept across reads. */
  private arrived(client: Client, text: string): void {
    const ref = REFERENCE.exec(text)?.[1];
    this.reading = this.reading.then(async () => {
      if (!ref) return this.receive(text);
      const read = () => client.query<{ body: string }>('select body from portico_event_payload where id = $1', [ref]);
      const { rows } = await this.serially(read).catch(() => ({ rows: [] as { body: string }[] }));
      if (rows[0]) this.receive(rows[0].body);
    });
  }

  private lost(client: Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.current = { up: false, reason: 'listener disconnected' };
    client.removeAllListeners();
    client.on('error', () => undefined);
    void client.end().catch(() => undefined);
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.connect().catch(() => {
        this.current = { up: false, reason: 'listener cannot connect' };
        this.reconnect();
      });
    }, backoffMs(this.attempt++));
    this.timer.unref();
  }
}
