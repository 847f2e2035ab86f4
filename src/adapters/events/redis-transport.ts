import type { Redis } from 'ioredis';
import { backoffMs, type BroadcastTransport, type TransportState } from './broadcast-transport.js';

/**
 * Redis pub/sub: one connection subscribed to the app's channel (a subscribed connection can do
 * nothing else) and one to publish. ioredis reconnects both with backoff (100 ms doubling to
 * 5 s) and subscribes again once back; what was published meanwhile is not replayed.
 */
export class RedisTransport implements BroadcastTransport {
  readonly name = 'redis';
  private subscriber?: Redis;
  private publisher?: Redis;
  private current: TransportState = { up: false, reason: 'not started' };

  /** `subscriberName` names the subscribed connection (`CLIENT LIST`). */
  constructor(
    private readonly url: string,
    private readonly channel = 'portico:events',
    readonly subscriberName = 'portico-events',
  ) {}

  async start(receive: (text: string) => void): Promise<void> {
    const { Redis: Client } = await import('ioredis');
    const options = { retryStrategy: (times: number) => backoffMs(times - 1), maxRetriesPerRequest: 1, connectTimeout: 3_000, lazyConnect: true };
    const subscriber = new Client(this.url, { ...options, connectionName: this.subscriberName });
    const publisher = new Client(this.url, options);
    this.subscriber = subscriber;
    this.publisher = publisher;
    for (const client of [subscriber, publisher]) client.on('error', () => undefined);
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.channel) receive(text);
    });
    subscriber.on('close', () => void (this.current = { up: false, reason: 'listener disconnected' }));
    // Ready again after a reconnect: subscribe (again; ioredis only resubscribes a channel it once subscribed).
    subscriber.on('ready', () => void this.subscribe(subscriber));
    const [connected] = await Promise.allSettled([subscriber.connect(), publisher.connect()]);
    // Not fatal: ioredis keeps retrying and /ready says so until the listener is subscribed.
    if (connected.status === 'rejected') this.current = { up: false, reason: 'listener cannot connect' };
    else await this.subscribe(subscriber);
  }

  private async subscribe(subscriber: Redis): Promise<void> {
    try {
      await subscriber.subscribe(this.channel);
      this.current = { up: true };
    } catch {
      this.current = { up: false, reason: 'listener cannot subscribe' };
    }
  }

  state(): TransportState {
    return this.current;
  }

  async send(text: string): Promise<void> {
    if (!this.publisher) throw new Error('the event publisher is not connected');
    await this.publisher.publish(this.channel, text);
  }

  async close(): Promise<void> {
    this.current = { up: false, reason: 'closed' };
    this.subscriber?.removeAllListeners('close');
    for (const client of [this.subscriber, this.publisher]) client?.disconnect();
  }
}
