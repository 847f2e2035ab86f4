import { randomUUID } from 'node:crypto';
import type { SignalContext, SignalEvent } from '../../ports/event-bus.js';
import type { BroadcastTransport, TransportState } from './broadcast-transport.js';
import { decodeMessage, encodeMessage, type BroadcastMessage } from './event-codec.js';
import { MemoryEventBus, type DeliveryErrorHandler } from './memory-event-bus.js';

/** The signals that cross processes: what a write did, once it has committed. */
const RELAYED = new Set(['post_save', 'post_delete']);

/**
 * The event bus of an app running on several processes: everything the in-memory bus does, and
 * committed `post_save`/`post_delete` signals and topic payloads also reach the `onCommitted`
 * handlers and topic subscribers of every other process through a {@link BroadcastTransport}.
 *
 * - Local handlers hear an event at once (after the commit), as on the in-memory bus; other
 *   processes hear it when the transport delivers it, in the order this process committed or
 *   published. Nothing is sent for a rolled-back transaction.
 * - `on` handlers (inside the transaction) stay local to the writing process.
 * - Sending never delays or fails the write: messages queue in order behind one another, and a
 *   message that cannot be sent (the transport is down) is reported and dropped.
 */
export class DistributedEventBus extends MemoryEventBus {
  private readonly origin = randomUUID();
  /** How this process's own messages begin: `send` gives every message its origin as the first key. */
  private readonly ownPrefix = `{"origin":${JSON.stringify(this.origin)},`;
  private sending: Promise<void> = Promise.resolve();
  private receiving: Promise<void> = Promise.resolve();

  constructor(
    private readonly transport: BroadcastTransport,
    onDeliveryError?: DeliveryErrorHandler,
  ) {
    super(onDeliveryError);
  }

  /** Connects the transport and starts delivering what other processes send. */
  start(): Promise<void> {
    return this.transport.start((text) => this.receive(text));
  }

  /** The transport's listening state, for `/ready`. */
  state(): TransportState {
    return this.transport.state();
  }

  get transportName(): string {
    return this.transport.name;
  }

  async close(): Promise<void> {
    await this.sending;
    await this.transport.close();
  }

  override async emit(event: SignalEvent, ctx?: SignalContext): Promise<void> {
    await super.emit(event, ctx);
    if (!RELAYED.has(event.signal)) return;
    await this.afterCommit(`relay of ${event.signal} on ${event.table}`, async () => this.send({ origin: this.origin, kind: 'signal', event }));
  }

  override async publish(topic: string, payload: unknown): Promise<void> {
    await super.publish(topic, payload);
    await this.afterCommit(`relay of topic ${topic}`, async () => this.send({ origin: this.origin, kind: 'topic', topic, payload }));
  }

  /**
   * Hands a message to the transport, which sends in call order (so it queues behind the ones
   * before it); a failure is reported, never thrown at the writer. The last send settles after
   * every earlier one, which is what `close` waits for.
   */
  private send(message: BroadcastMessage): void {
    const text = encodeMessage(message);
    const what = message.kind === 'topic' ? `sending topic ${message.topic}` : 'sending a committed signal';
    this.sending = this.transport.send(text).catch((error: unknown) => this.onDeliveryError(error, `${what} over ${this.transport.name}`));
  }

  /**
   * Delivers another process's message to the local handlers, one message at a time, in arrival
   * order. This process's own messages come back too (every listener hears every message): they
   * are known by their first characters, which `encodeMessage` writes from the message's first
   * key, and dropped without being parsed.
   */
  private receive(text: string): void {
    if (text.startsWith(this.ownPrefix)) return;
    const message = decodeMessage(text);
    if (!message || message.origin === this.origin) return;
    this.receiving = this.receiving.then(async () => {
      try {
        if (message.kind === 'signal') await this.deliverCommitted(message.event as SignalEvent);
        else await this.deliverTopic(message.topic, message.payload, `topic ${message.topic} from another process`);
      } catch (error) {
        this.onDeliveryError(error, message.kind === 'topic' ? `topic ${message.topic} from another process` : 'a signal from another process');
      }
    });
  }
}
