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
  /** Keeps the connection alive: returns the text to write (an SSE comment), or pings by itself and returns undefined. */
  heartbeat(): string | undefined;
  /** Ends the connection, telling the client `reason` where the transport can. */
  close(reason: DisconnectReason): void;
}

/** The bound of a connection's queue: what was written but has not left the process yet. */
export interface QueueBound {
  readonly maxQueue: number;
  readonly maxQueueBytes: number;
}

/**
 * One client connection: the channels it listens to and a bounded queue. Every write counts
 * against the bound until the transport has flushed it; a client too slow to keep it under
 * the bound is disconnected with the reason `slow consumer`, so a stalled reader never grows
 * the server's memory.
 */
export class RealtimeConnection {
  readonly channels = new Set<string>();
  private pending = 0;
  private pendingBytes = 0;
  private ended = false;

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

  /** Messages and bytes written and not yet flushed. */
  queued(): { messages: number; bytes: number } {
    return { messages: this.pending, bytes: this.pendingBytes };
  }

  /** Sends a channel message; false when the connection is closed (or has just been closed as a slow consumer). */
  send(message: ChannelMessage): boolean {
    return this.push(this.sink.encode(message));
  }

  /** Writes transport text (counted against the bound like a message). */
  push(text: string): boolean {
    if (this.ended) return false;
    const bytes = Buffer.byteLength(text);
    if (this.pending + 1 > this.bound.maxQueue || this.pendingBytes + bytes > this.bound.maxQueueBytes) {
      this.close('slow consumer');
      return false;
    }
    this.pending++;
    this.pendingBytes += bytes;
    this.sink.write(text, () => {
      this.pending--;
      this.pendingBytes -= bytes;
    });
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
    this.ended = true;
    this.onEnd(this);
    this.sink.close(reason);
  }

  /** The transport ended (the client left): forget the connection without writing to it. */
  released(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
  }
}
