import { randomUUID } from 'node:crypto';
import type { BusGap, SignalContext, SignalEvent } from '../../ports/event-bus.js';
import type { BroadcastTransport, TransportState } from './broadcast-transport.js';
import { decodeMessage, encodeMessage, type BroadcastMessage } from './event-codec.js';
import { MemoryEventBus, type DeliveryErrorHandler } from './memory-event-bus.js';

/** The signals that cross processes: what a write did, once it has committed. */
const RELAYED = new Set(['post_save', 'post_delete']);
/** Senders whose last sequence number is kept (the least recently heard is forgotten first). */
const MAX_SENDERS = 10_000;

/** Where the bus says that events may have been missed (a warning in the app's log). */
export type GapNotice = (fields: Record<string, unknown>, message: string) => void;

/**
 * The event bus of an app running on several processes: everything the in-memory bus does, and
 * committed `post_save`/`post_delete` signals and topic payloads also reach the `onCommitted`
 * handlers and topic subscribers of every other process through a {@link BroadcastTransport}.
 *
 * - Local handlers hear an event at once (after the commit), as on the in-memory bus; other
 *   processes hear it when the transport delivers it, in the order this process committed or
 *   published. Nothing is sent for a rolled-back transaction.
 * - `on` handlers (inside the transaction) stay local to the writing process.
 * - Sending never delays or fails the write: messages queue in order behind one another; while
 *   the transport is down they wait for it (up to its bound), and one it cannot send is reported.
 * - Nothing is missed silently: every message carries its sender's sequence number, so a hole
 *   (a message dropped on the way) is seen at the next one; a message that arrives again after a
 *   lost connection is dropped. A hole, and the listening connection going down and coming back,
 *   are reported to the `onGap` handlers (the realtime hub tells its streams) and logged.
 */
export class DistributedEventBus extends MemoryEventBus {
  private readonly origin = randomUUID();
  /** How this process's own messages begin: `send` gives every message its origin as the first key. */
  private readonly ownPrefix = `{"origin":${JSON.stringify(this.origin)},`;
  private sending: Promise<void> = Promise.resolve();
  private receiving: Promise<void> = Promise.resolve();
  private seq = 0;
  /** The last sequence number heard from each other process. */
  private readonly heard = new Map<string, number>();
  /** True from a lost (or never made) listening connection until it listens again. */
  private down = false;

  constructor(
    private readonly transport: BroadcastTransport,
    onDeliveryError?: DeliveryErrorHandler,
    private readonly notice: GapNotice = () => undefined,
  ) {
    super(onDeliveryError);
  }

  /** Connects the transport and starts delivering what other processes send. */
  start(): Promise<void> {
    return this.transport.start(
      (text) => this.receive(text),
      (up) => this.changed(up),
    );
  }

  /** The transport's listening state, for `/ready`. */
  state(): TransportState {
    return this.transport.state();
  }

  get transportName(): string {
    return this.transport.name;
  }

  /** Closes the transport, which sends what it holds while connected and refuses it otherwise, then waits for the last send. */
  async close(): Promise<void> {
    await this.transport.close();
    await this.sending;
  }

  override async emit(event: SignalEvent, ctx?: SignalContext): Promise<void> {
    await super.emit(event, ctx);
    if (!RELAYED.has(event.signal)) return;
    await this.afterCommit(`relay of ${event.signal} on ${event.table}`, async () => this.send({ origin: this.origin, seq: ++this.seq, kind: 'signal', event }));
  }

  override async publish(topic: string, payload: unknown): Promise<void> {
    await super.publish(topic, payload);
    await this.afterCommit(`relay of topic ${topic}`, async () => this.send({ origin: this.origin, seq: ++this.seq, kind: 'topic', topic, payload }));
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
    const missed = this.missedBefore(message.origin, message.seq);
    // Sent again after a lost connection: already delivered.
    if (missed < 0) return;
    this.receiving = this.receiving.then(async () => {
      if (missed > 0) {
        this.notice({ transport: this.transport.name, missed }, 'event bus: messages of another process were lost on the way; streams are told of the gap');
        this.gap({ ongoing: false, reason: 'events of another process were lost on the way' });
      }
      try {
        if (message.kind === 'signal') await this.deliverCommitted(message.event as SignalEvent);
        else await this.deliverTopic(message.topic, message.payload, `topic ${message.topic} from another process`);
      } catch (error) {
        this.onDeliveryError(error, message.kind === 'topic' ? `topic ${message.topic} from another process` : 'a signal from another process');
      }
    });
  }

  /** How many messages of `origin` were missed before `seq` (-1: `seq` was heard already); 0 without a sequence (an older sender). */
  private missedBefore(origin: string, seq: number | undefined): number {
    if (seq === undefined) return 0;
    const last = this.heard.get(origin);
    if (last !== undefined && seq <= last) return -1;
    this.heard.delete(origin);
    this.heard.set(origin, seq);
    if (this.heard.size > MAX_SENDERS) this.heard.delete(this.heard.keys().next().value as string);
    return last === undefined ? 0 : seq - last - 1;
  }

  /** The listening connection went down or listens again: a gap opens, or closes (once, however often the transport says so). */
  private changed(up: boolean): void {
    if (up === !this.down) return;
    this.down = !up;
    if (!up) {
      this.notice({ transport: this.transport.name }, 'event bus: the connection is down; events of other processes are missed until it is back');
      this.gap({ ongoing: true, reason: 'the event bus connection is down' });
      return;
    }
    this.notice({ transport: this.transport.name }, 'event bus: listening again; events of other processes sent meanwhile were missed, and streams are told of the gap');
    this.gap({ ongoing: false, reason: 'the event bus reconnected: events of other processes sent meanwhile were missed' });
  }

  private gap(gap: BusGap): void {
    for (const handler of [...this.gapHandlers]) {
      try {
        handler(gap);
      } catch (error) {
        this.onDeliveryError(error, 'a gap handler');
      }
    }
  }
}
