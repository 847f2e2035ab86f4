import type { Client } from 'pg';
import type { BroadcastTransport, TransportState } from './broadcast-transport.js';
import { PgListener } from './pg-listener.js';

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
 * listener reads it back. The connection is a {@link PgListener}: retried with backoff when lost;
 * what was sent meanwhile is not replayed.
 */
export class PostgresTransport implements BroadcastTransport {
  readonly name = 'postgresql';
  private receive: (text: string) => void = () => undefined;
  private reading: Promise<void> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();
  private sent = 0;
  private readonly channel: string;
  private readonly listener: PgListener;

  /** `applicationName` names the listening connection in `pg_stat_activity`. */
  constructor(url: string, schema?: string, applicationName = 'portico-events') {
    this.channel = eventsChannel(schema);
    this.listener = new PgListener({ url, ...(schema ? { schema } : {}), channel: this.channel, applicationName, onNotification: (payload, client) => this.arrived(client, payload) });
  }

  /** Not fatal when the server cannot be reached: the app serves without cross-process events and /ready says so until it connects. */
  start(receive: (text: string) => void): Promise<void> {
    this.receive = receive;
    return this.listener.start();
  }

  state(): TransportState {
    return this.listener.state();
  }

  send(text: string): Promise<void> {
    return this.serially(() => this.sendNow(text));
  }

  async close(): Promise<void> {
    await this.reading;
    await this.listener.close();
  }

  /** One statement at a time on the connection (pg does not queue concurrent queries for much longer). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async sendNow(text: string): Promise<void> {
    const client = this.listener.client;
    if (!client) throw new Error(`the event listener is not connected (${this.state().reason ?? 'down'})`);
    if (Buffer.byteLength(text) <= MAX_NOTIFY_BYTES) {
      await client.query('select pg_notify($1, $2)', [this.channel, text]);
      return;
    }
    const { rows } = await client.query<{ id: string }>('insert into portico_event_payload (body) values ($1) returning id', [text]);
    await client.query('select pg_notify($1, $2)', [this.channel, `{"ref":${rows[0]?.id ?? '0'}}`]);
    if (++this.sent % 100 === 1) await client.query(`delete from portico_event_payload where created_at < now() - interval '${PAYLOAD_TTL}'`);
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
}
