import type { Redis } from 'ioredis';
import { backoffMs, MAX_HELD_MESSAGES, type BroadcastTransport, type TransportState } from './broadcast-transport.js';

/**
 * Redis pub/sub: one connection subscribed to the app's channel (a subscribed connection can do
 * nothing else) and one to publish. ioredis reconnects both with backoff (100 ms doubling to
 * 5 s) and subscribes again once back; what others published meanwhile is not replayed to it.
 * What this process publishes while its publisher is down waits in ioredis's offline queue, in
 * order (at most `MAX_HELD_MESSAGES`), and a publish cut by the loss is sent again.
 */
export class RedisTransport implements BroadcastTransport {
  readonly name = 'redis';
  private subscriber?: Redis;
  private publisher?: Redis;
  private current: TransportState = { up: false, reason: 'not started' };
  private changed: (up: boolean) => void = () => undefined;
  /** The publishes not yet answered, by the way to refuse each (at close). */
  private readonly inFlight = new Set<(error: Error) => void>();
  private lastSend: Promise<unknown> = Promise.resolve();
  private closing = false;

  /**
   * `clientName` (the channel by default: one per database) names both connections in `CLIENT LIST`:
   * `<name>:listen` and `<name>:publish`, so an operator can tell which app's connection dropped.
   */
  constructor(
    private readonly url: string,
    private readonly channel = 'portico:events',
    private readonly clientName = channel,
  ) {}

  /** The subscribed connection's client name. */
  get subscriberName(): string {
    return `${this.clientName}:listen`;
  }

  /** The publishing connection's client name. */
  get publisherName(): string {
    return `${this.clientName}:publish`;
  }

  async start(receive: (text: string) => void, changed: (up: boolean) => void): Promise<void> {
    this.changed = changed;
    const { Redis: Client } = await import('ioredis');
    const options = { retryStrategy: (times: number) => backoffMs(times - 1), maxRetriesPerRequest: 1, connectTimeout: 3_000, lazyConnect: true };
    const subscriber = new Client(this.url, { ...options, connectionName: this.subscriberName });
    // A publish waits while the publisher reconnects, however long (bounded by `MAX_HELD_MESSAGES` here).
    const publisher = new Client(this.url, { ...options, connectionName: this.publisherName, maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    this.publisher = publisher;
    for (const client of [subscriber, publisher]) client.on('error', () => undefined);
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) receive(text);
    });
    subscriber.on('close', () => {
      this.current = { up: false, reason: 'listener disconnected' };
      this.changed(false);
    });
    // Ready again after a reconnect: subscribe (again; ioredis only resubscribes a channel it once subscribed).
    subscriber.on('ready', () => void this.subscribe(subscriber));
    const [connected] = await Promise.allSettled([subscriber.connect(), publisher.connect()]);
    // Not fatal: ioredis keeps retrying and /ready says so until the listener is subscribed.
    if (connected.status === 'rejected') {
      this.current = { up: false, reason: 'listener cannot connect' };
      this.changed(false);
    } else await this.subscribe(subscriber);
  }

  private async subscribe(subscriber: Redis): Promise<void> {
    try {
      await subscriber.subscribe(this.channel);
      this.current = { up: true };
      this.changed(true);
    } catch {
      this.current = { up: false, reason: 'listener cannot subscribe' };
      this.changed(false);
    }
  }

  state(): TransportState {
    return this.current;
  }

  async send(text: string): Promise<void> {
    if (!this.publisher || this.closing) throw new Error('the event publisher is not connected');
    if (this.inFlight.size >= MAX_HELD_MESSAGES) throw new Error(`the event publisher is down and ${MAX_HELD_MESSAGES} messages wait for it; this one is dropped`);
    const publisher = this.publisher;
    const sent = new Promise<void>((resolve, reject) => {
      const refuse = (error: unknown): void => {
        this.inFlight.delete(refuse);
        reject(error);
      };
      this.inFlight.add(refuse);
      publisher.publish(this.channel, text).then(() => {
        this.inFlight.delete(refuse);
        resolve();
      }, refuse);
    });
    this.lastSend = sent.catch(() => undefined);
    await sent;
  }

  /** Waits for the publishes in flight while the publisher is connected; refuses them otherwise. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.publisher?.status === 'ready') await this.lastSend;
    this.current = { up: false, reason: 'closed' };
    for (const refuse of [...this.inFlight]) refuse(new Error('the event bus closed before this message could be sent'));
    this.subscriber?.removeAllListeners('close');
    for (const client of [this.subscriber, this.publisher]) client?.disconnect();
  }
}
