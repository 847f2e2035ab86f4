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
  /** Writes `text`; `flushed` runs once the transport has handed it to the network. */
  write(text: string, flushed: () => void): void;
  /** Bytes written and still held in this process (not yet handed to the kernel). */
  queuedBytes(): number;
  /** Keeps the connection alive: returns the text to write (an SSE comment), or pings by itself and returns undefined. */
  heartbeat(): string | undefined;
  /** Ends the connection, telling the client `reason` where the transport can. */
  close(reason: DisconnectReason): void;
}

/** The bound of a connection's queue: what was written but has not left the process yet. */
export interface QueueBound {
  /** Messages whose write has not completed. */
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
 * process holds for it (the transport's own count) and in writes not yet completed. A burst may
 * take the queue over its bound: the connection is cut as a `slow consumer` only when it stays
 * over for a whole grace period in which nothing drained, or at once past the hard byte bound.
 * A fast reader rides out any burst; a stalled one never grows the server's memory past the
 * hard bound.
 */
export class RealtimeConnection {
  readonly channels = new Set<string>();
  private pending = 0;
  private ended = false;
  /** Completed writes since the last grace check: a queue that drains is not stalled. */
  private drained = 0;
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly flushed = (): void => {
    this.pending--;
    this.drained++;
  };

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

  /** Writes not yet completed, and bytes the process holds for the connection. */
  queued(): { messages: number; bytes: number } {
    return { messages: this.pending, bytes: this.sink.queuedBytes() };
  }

  /** Sends a channel message; false when the connection is closed (or has just been closed as a slow consumer). */
  send(message: ChannelMessage): boolean {
    return this.push(this.sink.encode(message));
  }

  /** Writes transport text (counted against the bound like a message). */
  push(text: string): boolean {
    if (this.ended) return false;
    this.pending++;
    this.sink.write(text, this.flushed);
    // One reading of the bytes held per write: a burst writes to every connection in one loop.
    const bytes = this.sink.queuedBytes();
    if (bytes > this.bound.maxQueueBytesHard) {
      this.close('slow consumer');
      return false;
    }
    if (this.graceTimer === undefined && (this.pending > this.bound.maxQueue || bytes > this.bound.maxQueueBytes)) this.startGrace();
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

  private over(): boolean {
    return this.pending > this.bound.maxQueue || this.sink.queuedBytes() > this.bound.maxQueueBytes;
  }

  private startGrace(): void {
    this.drained = 0;
    this.graceTimer = setTimeout(() => this.checkGrace(), this.bound.slowConsumerGraceMs);
    this.graceTimer.unref?.();
  }

  /** At the end of a grace period: back under the bound, or still draining, it stays; stalled over the bound, it is cut. */
  private checkGrace(): void {
    this.graceTimer = undefined;
    if (this.ended || !this.over()) return;
    if (this.drained === 0) this.close('slow consumer');
    else this.startGrace();
  }
}
