import type { Client } from 'pg';
import { MAX_HELD_MESSAGES, type BroadcastTransport, type TransportState } from './broadcast-transport.js';
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

/** At most this many messages, and about this many bytes, go in one NOTIFY statement. */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 512 * 1024;
/**
 * One statement for a batch of messages, prepared once per connection: the notifications of a
 * statement are delivered at its commit, in the order they were sent (the array's order).
 */
const NOTIFY_BATCH = {
  name: 'portico_notify_batch',
  text: 'select pg_notify($1, u.payload) from unnest($2::text[]) with ordinality as u(payload, n) order by u.n',
};

interface Outgoing {
  readonly text: string;
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * LISTEN/NOTIFY on one dedicated connection (not from the pool: a pooled connection would stop
 * listening when it is released). Messages are sent in the order `send` was called: those that
 * queue while a statement is out go together in the next one (one round trip and one commit for
 * many writes' events; PostgreSQL folds identical payloads of one transaction into one, so a
 * batch never holds the same text twice). A message over NOTIFY's limit is stored in
 * `portico_event_payload` (migration portico_0003_event_payloads) and announced by its id; every
 * listener reads it back. The connection is a {@link PgListener}: retried with backoff when lost;
 * what others sent meanwhile is not replayed to it, and what this process sends meanwhile waits
 * for it (a batch cut by the loss goes again, so it may arrive twice).
 */
export class PostgresTransport implements BroadcastTransport {
  readonly name = 'postgresql';
  private receive: (text: string) => void = () => undefined;
  private changed: (up: boolean) => void = () => undefined;
  private closing = false;
  private reading: Promise<void> = Promise.resolve();
  /** Notifications waiting on `reading` (behind a stored payload's read). */
  private readsPending = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly outgoing: Outgoing[] = [];
  private pumping = false;
  private pumped: Promise<void> = Promise.resolve();
  private sent = 0;
  private readonly channel: string;
  private readonly listener: PgListener;

  /** `applicationName` names the listening connection in `pg_stat_activity`. */
  constructor(url: string, schema?: string, applicationName = schema ? `portico-events ${schema}`.slice(0, 63) : 'portico-events') {
    this.channel = eventsChannel(schema);
    this.listener = new PgListener({
      url,
      ...(schema ? { schema } : {}),
      channel: this.channel,
      applicationName,
      onNotification: (payload, client) => this.arrived(client, payload),
      onUp: () => this.changed(true),
      onDown: () => this.changed(false),
    });
  }

  /** Not fatal when the server cannot be reached: the app serves without cross-process events and /ready says so until it connects. */
  start(receive: (text: string) => void, changed: (up: boolean) => void): Promise<void> {
    this.receive = receive;
    this.changed = changed;
    return this.listener.start();
  }

  state(): TransportState {
    return this.listener.state();
  }

  send(text: string): Promise<void> {
    if (this.closing) return Promise.reject(new Error('the event transport is closed'));
    if (!this.listener.state().up && this.outgoing.length >= MAX_HELD_MESSAGES) {
      return Promise.reject(new Error(`the event listener is down and ${MAX_HELD_MESSAGES} messages wait for it; this one is dropped`));
    }
    return new Promise<void>((resolve, reject) => {
      this.outgoing.push({ text, bytes: Buffer.byteLength(text), resolve, reject });
      if (!this.pumping) this.pumped = this.pump();
    });
  }

  /** Sends what waits while connected; while down, closes the connection first, so what waits is refused. */
  async close(): Promise<void> {
    this.closing = true;
    if (!this.listener.state().up) await this.listener.close();
    await this.reading;
    await this.pumped;
    await this.listener.close();
  }

  /** Sends what is queued, a batch (or one large message) per statement, until nothing is left. */
  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.outgoing.length > 0) {
        const batch = this.nextBatch();
        for (;;) {
          try {
            await this.serially(() => this.sendNow(batch));
            for (const m of batch) m.resolve();
            break;
          } catch (error) {
            // Refused by the server, or closing: the batch fails. Cut by a lost connection: it waits for the next.
            if (this.closing || !connectionLost(error)) {
              for (const m of batch) m.reject(error);
              break;
            }
            // A turn of the event loop first: the connection's own end is noticed there.
            await new Promise((resolve) => setTimeout(resolve, 25));
            await this.listener.whenUp();
          }
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** The next messages in order: a large one alone, or small ones up to the batch's limits, no text twice. */
  private nextBatch(): Outgoing[] {
    const first = this.outgoing.shift() as Outgoing;
    const batch = [first];
    if (first.bytes > MAX_NOTIFY_BYTES) return batch;
    const texts = new Set([first.text]);
    let bytes = first.bytes;
    for (let next = this.outgoing[0]; next && next.bytes <= MAX_NOTIFY_BYTES && batch.length < BATCH_MESSAGES && bytes + next.bytes <= BATCH_BYTES && !texts.has(next.text); next = this.outgoing[0]) {
      batch.push(this.outgoing.shift() as Outgoing);
      texts.add(next.text);
      bytes += next.bytes;
    }
    return batch;
  }

  /** One statement at a time on the connection (pg does not queue concurrent queries for much longer). */
  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Notifies a batch: small messages in one statement, or one large message stored and announced by reference. */
  private async sendNow(batch: readonly Outgoing[]): Promise<void> {
    const client = this.listener.client;
    if (!client) throw new Error(`the event listener is not connected (${this.state().reason ?? 'down'})`);
    const [first] = batch;
    if (!first) return;
    if (first.bytes <= MAX_NOTIFY_BYTES) {
      await client.query({ ...NOTIFY_BATCH, values: [this.channel, batch.map((m) => m.text)] });
      return;
    }
    const { rows } = await client.query<{ id: string }>('insert into portico_event_payload (body) values ($1) returning id', [first.text]);
    await client.query('select pg_notify($1, $2)', [this.channel, `{"ref":${rows[0]?.id ?? '0'}}`]);
    if (++this.sent % 100 === 1) await client.query(`delete from portico_event_payload where created_at < now() - interval '${PAYLOAD_TTL}'`);
  }

  /**
   * Hands a notification on, reading a stored payload first; order is kept across reads (a
   * message behind a read waits for it, and is handed on at once when none is pending).
   */
  private arrived(client: Client, text: string): void {
    const ref = REFERENCE.exec(text)?.[1];
    if (!ref && this.readsPending === 0) return this.receive(text);
    this.readsPending++;
    this.reading = this.reading.then(async () => {
      try {
        if (!ref) return this.receive(text);
        const read = () => client.query<{ body: string }>('select body from portico_event_payload where id = $1', [ref]);
        const { rows } = await this.serially(read).catch(() => ({ rows: [] as { body: string }[] }));
        if (rows[0]) this.receive(rows[0].body);
      } finally {
        this.readsPending--;
      }
    });
  }
}

/**
 * Whether a failed statement failed for want of a connection: no connection at all (no code), a
 * connection exception (SQLSTATE class 08), the server ending the session (57P01-57P03), or a
 * socket error (Node's errno codes). Anything else is the server's refusal of the statement.
 */
function connectionLost(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return true;
  return /^08|^57P0[123]$|^E[A-Z]+$/.test(code);
}
