/** A message of a channel as the hub sends it: an event, or the notice that a resume missed events. */
export type ChannelMessage =
  | { readonly kind: 'event'; readonly channel: string; readonly id: string; readonly data: unknown }
  | { readonly kind: 'gap'; readonly channel: string; readonly lastEventId: string; readonly reason: string };

/**
 * One encoding per message for every connection of a transport: a fan-out to 10 000 listeners
 * serialises the event once, not 10 000 times.
 */
export function encodedOnce(encode: (message: ChannelMessage) => string): (message: ChannelMessage) => string {
  const cache = new WeakMap<ChannelMessage, string>();
  return (message) => {
    let text = cache.get(message);
    if (text === undefined) {
      text = encode(message);
      cache.set(message, text);
    }
    return text;
  };
}

/** Why the server ends a connection. */
export type DisconnectReason = 'slow consumer' | 'server shutting down' | 'heartbeat timeout' | 'credential revoked';

/** How the hub writes to one client, whatever the transport (SSE response, WebSocket). */
export interface ConnectionSink {
  /** The transport's text for a channel message. */
  encode(message: ChannelMessage): string;
  /**
   * Writes `text`, with no completion callback: the socket calls the completions of a burst's
   * writes only after the burst's loop, and would hold every write's bookkeeping until then.
   */
  write(text: string): void;
  /** What was written and is still held in this process (not yet handed to the kernel). */
  queuedBytes(): number;
  /** What writing `text` adds to `queuedBytes` (its payload, leaving out any framing). */
  size(text: string): number;
  /** Keeps the connection alive: returns the text to write (an SSE comment), or pings by itself and returns undefined. */
  heartbeat(): string | undefined;
  /** Ends the connection, telling the client `reason` where the transport can. */
  close(reason: DisconnectReason): void;
}

/** The bound of a connection's queue: what was written but has not left the process yet. */
export interface QueueBound {
  /** Messages written since the queue was last seen empty. */
  readonly maxQueue: number;
  /** Bytes held in the process for the connection. */
  readonly maxQueueBytes: number;
  /** Milliseconds a queue may stay over `maxQueue` or `maxQueueBytes` without draining before the connection is cut. */
  readonly slowConsumerGraceMs: number;
  /** Bytes beyond which the connection is cut at once: the most one connection holds. */
  readonly maxQueueBytesHard: number;
}

/**
 * One client connection: the channels it listens to and a bounded queue, measured in bytes the
 * process holds for it (the transport's own count) and in messages written since the queue was
 * last empty. A burst may take the queue over its bound: the connection is cut as a `slow
 * consumer` only when it stays over for a whole grace period in which nothing drained (what left
 * the queue: what was written less what is still held), or at once past the hard byte bound. A
 * fast reader rides out any burst; a stalled one never grows the server's memory past the hard
 * bound.
 */
export class RealtimeConnection {
  readonly channels = new Set<string>();
  private pending = 0;
  private ended = false;
  /** What was ever written (the sink's sizes): less what is held, it is what has left the queue. */
  private written = 0;
  /** What had left the queue when the grace period started: a queue that drains is not stalled. */
  private leftAtGrace = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** Who opened it (`user:<id>` or `ip:<address>`), for the per-caller cap. */
    readonly caller: string,
    private readonly sink: ConnectionSink,
    private readonly bound: QueueBound,
    private readonly onEnd: (connection: RealtimeConnection) => void,
  ) {}

  get closed(): boolean {
    return this.ended;
  }

  /** Messages written since the queue was last seen empty, and bytes the process holds for the connection. */
  queued(): { messages: number; bytes: number } {
    const bytes = this.sink.queuedBytes();
    if (bytes === 0) this.pending = 0;
    return { messages: this.pending, bytes };
  }

  /** Sends a channel message; false when the connection is closed (or has just been closed as a slow consumer). */
  send(message: ChannelMessage): boolean {
    return this.push(this.sink.encode(message));
  }

  /** Writes transport text (counted against the bound like a message). */
  push(text: string): boolean {
    if (this.ended) return false;
    this.sink.write(text);
    this.written += this.sink.size(text);
    // One reading of the bytes held per write: a burst writes to every connection in one loop.
    const bytes = this.sink.queuedBytes();
    this.pending = bytes === 0 ? 0 : this.pending + 1;
    if (bytes > this.bound.maxQueueBytesHard) {
      this.close('slow consumer');
      return false;
    }
    if (this.graceTimer === undefined && (this.pending > this.bound.maxQueue || bytes > this.bound.maxQueueBytes)) this.startGrace(bytes);
    return true;
  }

  /** A heartbeat: the sink's text is queued like any write. */
  heartbeat(): void {
    if (this.ended) return;
    const text = this.sink.heartbeat();
    if (text !== undefined) this.push(text);
  }

  /** The server ends the connection with `reason`. */
  close(reason: DisconnectReason): void {
    if (this.ended) return;
    this.end();
    this.sink.close(reason);
  }

  /** The transport ended (the client left): forget the connection without writing to it. */
  released(): void {
    if (!this.ended) this.end();
  }

  private end(): void {
    this.ended = true;
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.onEnd(this);
  }

  private startGrace(bytes: number): void {
    this.leftAtGrace = this.written - bytes;
    this.graceTimer = setTimeout(() => this.checkGrace(), this.bound.slowConsumerGraceMs);
    this.graceTimer.unref?.();
  }

  /** At the end of a grace period: back under the bound, or still draining, it stays; stalled over the bound, it is cut. */
  private checkGrace(): void {
    this.graceTimer = undefined;
    if (this.ended) return;
    const { messages, bytes } = this.queued();
    if (messages <= this.bound.maxQueue && bytes <= this.bound.maxQueueBytes) return;
    if (this.written - bytes <= this.leftAtGrace) this.close('slow consumer');
    else this.startGrace(bytes);
  }
}
