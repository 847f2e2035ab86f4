import type { RealtimeListeners } from '../../application/realtime/relay-realtime-events.js';
import type { BusGap } from '../../ports/event-bus.js';
import type { RealtimeEvent } from '../../domain/realtime/realtime-event.js';
import { ChannelBuffer } from './channel-buffer.js';
import { RealtimeConnection, type ChannelMessage, type ConnectionSink, type DisconnectReason } from './realtime-connection.js';

/** The hub's bounds; every one is per process. */
export interface RealtimeLimits {
  /** Milliseconds between heartbeats (SSE comment line, WebSocket ping). */
  readonly heartbeatMs: number;
  /** Events kept per channel for resuming clients. */
  readonly bufferSize: number;
  /** Channels whose events are kept (the least recently published is forgotten first). */
  readonly maxBufferedChannels: number;
  /** Writes a connection may have uncompleted; over it (or over `maxQueueBytes`) without draining for `slowConsumerGraceMs`, it is disconnected as a slow consumer. */
  readonly maxQueue: number;
  /** Bytes the process may hold for a connection before its grace period starts. */
  readonly maxQueueBytes: number;
  /** Milliseconds a connection may stay over its bound without draining (a burst is not a slow consumer). */
  readonly slowConsumerGraceMs: number;
  /** Bytes beyond which a connection is disconnected at once: the memory bound of one connection. */
  readonly maxQueueBytesHard: number;
  /** Open connections per caller (identity id, or IP address for anonymous callers). */
  readonly maxConnectionsPerCaller: number;
  /** Channels one WebSocket connection may listen to at once. */
  readonly maxChannelsPerConnection: number;
}

export const DEFAULT_REALTIME_LIMITS: RealtimeLimits = {
  heartbeatMs: 15_000,
  bufferSize: 100,
  maxBufferedChannels: 10_000,
  maxQueue: 256,
  maxQueueBytes: 1024 * 1024,
  slowConsumerGraceMs: 2_000,
  maxQueueBytesHard: 16 * 1024 * 1024,
  maxConnectionsPerCaller: 10,
  maxChannelsPerConnection: 100,
};

/** What a client is told when its `Last-Event-ID` is no longer buffered. */
export const GAP_REASON = 'the missed events are no longer buffered';

/**
 * The channels of one process: each channel's recent events and the local connections
 * listening to each. Every process receives every published event (through the event bus,
 * `RelayRealtimeEvents`) and hands it to `deliver`, which buffers it and writes it to the local
 * listeners: cheap and synchronous (a write per listener), never waiting on a client. Which
 * channels exist and who may listen is decided before, by `AuthorizeChannel`.
 */
export class RealtimeHub implements RealtimeListeners {
  private readonly listeners = new Map<string, Set<RealtimeConnection>>();
  private readonly buffers = new Map<string, ChannelBuffer>();
  private readonly perCaller = new Map<string, number>();
  private readonly open = new Set<RealtimeConnection>();
  private heartbeats: ReturnType<typeof setInterval> | undefined;

  constructor(readonly limits: RealtimeLimits = DEFAULT_REALTIME_LIMITS) {}

  /** Opens a connection for `caller`; undefined when the caller already has the most connections allowed. */
  connect(caller: string, sink: ConnectionSink): RealtimeConnection | undefined {
    const count = this.perCaller.get(caller) ?? 0;
    if (count >= this.limits.maxConnectionsPerCaller) return undefined;
    this.perCaller.set(caller, count + 1);
    const connection = new RealtimeConnection(caller, sink, this.limits, (c) => this.forget(c));
    this.open.add(connection);
    this.heartbeats ??= setInterval(() => this.beat(), this.limits.heartbeatMs).unref();
    return connection;
  }

  /** Open connections of `caller`, or of everyone. */
  connections(caller?: string): number {
    return caller === undefined ? this.open.size : (this.perCaller.get(caller) ?? 0);
  }

  /**
   * Starts `connection` listening to `channel`. With `lastEventId`, the events after it are sent
   * first, or a `gap` message when it is no longer buffered. (Synchronous: no event can slip in
   * between the replay and the live ones.)
   */
  subscribe(connection: RealtimeConnection, channel: string, lastEventId?: string): void {
    if (connection.closed) return;
    if (lastEventId !== undefined) {
      const missed = this.buffers.get(channel)?.after(lastEventId);
      if (missed === undefined) connection.send({ kind: 'gap', channel, lastEventId, reason: GAP_REASON });
      else for (const e of missed) connection.send({ kind: 'event', channel, id: e.id, data: e.data });
    }
    if (connection.closed) return;
    connection.channels.add(channel);
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(connection);
  }

  /** Stops `connection` listening to `channel`. */
  unsubscribe(connection: RealtimeConnection, channel: string): void {
    connection.channels.delete(channel);
    const set = this.listeners.get(channel);
    set?.delete(connection);
    if (set?.size === 0) this.listeners.delete(channel);
  }

  /** An event published on any process: buffered for resuming clients and written to this process's listeners. */
  deliver(event: RealtimeEvent): void {
    this.buffer(event.channel).append({ id: event.id, data: event.data });
    const set = this.listeners.get(event.channel);
    if (!set) return;
    const message: ChannelMessage = { kind: 'event', channel: event.channel, id: event.id, data: event.data };
    for (const connection of [...set]) connection.send(message);
  }

  /**
   * The bus may have missed events of other processes. Every buffer is forgotten, so a resume from
   * before the hole answers a gap rather than replaying a buffer with a hole in it; once the hole
   * is over (the bus listens again, or a lost message was noticed), every live stream of every
   * channel gets a gap message carrying the last event id it was sent.
   */
  gap(gap: BusGap): void {
    const lastIds = new Map([...this.buffers].map(([channel, buffer]) => [channel, buffer.lastId()] as const));
    this.buffers.clear();
    if (gap.ongoing) return;
    for (const [channel, set] of this.listeners) {
      const message: ChannelMessage = { kind: 'gap', channel, lastEventId: lastIds.get(channel) ?? '', reason: gap.reason };
      for (const connection of [...set]) connection.send(message);
    }
  }

  /** Ends every connection with `reason` (at shutdown) and stops the heartbeats. */
  closeAll(reason: DisconnectReason): void {
    for (const connection of [...this.open]) connection.close(reason);
    this.stopHeartbeats();
  }

  private buffer(channel: string): ChannelBuffer {
    let buffer = this.buffers.get(channel);
    if (buffer) {
      // Most recently published last: the first key is the one to forget.
      this.buffers.delete(channel);
    } else {
      buffer = new ChannelBuffer(this.limits.bufferSize);
      if (this.buffers.size >= this.limits.maxBufferedChannels) this.buffers.delete(this.buffers.keys().next().value as string);
    }
    this.buffers.set(channel, buffer);
    return buffer;
  }

  private forget(connection: RealtimeConnection): void {
    if (!this.open.delete(connection)) return;
    for (const channel of [...connection.channels]) this.unsubscribe(connection, channel);
    const count = (this.perCaller.get(connection.caller) ?? 1) - 1;
    if (count > 0) this.perCaller.set(connection.caller, count);
    else this.perCaller.delete(connection.caller);
    if (this.open.size === 0) this.stopHeartbeats();
  }

  private beat(): void {
    for (const connection of [...this.open]) connection.heartbeat();
  }

  private stopHeartbeats(): void {
    if (this.heartbeats) clearInterval(this.heartbeats);
    this.heartbeats = undefined;
  }
}
