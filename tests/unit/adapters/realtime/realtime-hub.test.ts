import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REALTIME_LIMITS, GAP_REASON, RealtimeHub, type RealtimeLimits } from '../../../../src/adapters/realtime/realtime-hub.js';
import type { ChannelMessage, ConnectionSink, DisconnectReason } from '../../../../src/adapters/realtime/realtime-connection.js';

/** A sink that records what is written; it flushes only when told (a client that does not read). */
class FakeSink implements ConnectionSink {
  readonly written: string[] = [];
  readonly unflushed: number[] = [];
  closedWith: DisconnectReason | undefined;
  private held = 0;
  constructor(private readonly flushAtOnce = true) {}
  queuedBytes(): number {
    return this.held;
  }
  /** The client reads `n` of the held writes (all by default). */
  drain(n = this.unflushed.length): void {
    for (const bytes of this.unflushed.splice(0, n)) this.held -= bytes;
  }
  size(text: string): number {
    return Buffer.byteLength(text);
  }
  encode(m: ChannelMessage): string {
    return m.kind === 'event' ? `event ${m.channel} ${m.id} ${JSON.stringify(m.data)}` : `gap ${m.channel} ${m.lastEventId}`;
  }
  write(text: string): void {
    this.written.push(text);
    if (this.flushAtOnce) return;
    const bytes = Buffer.byteLength(text);
    this.held += bytes;
    this.unflushed.push(bytes);
  }
  heartbeat(): string {
    return 'beat';
  }
  close(reason: DisconnectReason): void {
    this.closedWith = reason;
  }
}

describe('RealtimeHub', () => {
  let hub: RealtimeHub;
  const make = (limits: Partial<RealtimeLimits> = {}) => {
    hub = new RealtimeHub({ ...DEFAULT_REALTIME_LIMITS, ...limits });
    return hub;
  };
  afterEach(() => hub.closeAll('server shutting down'));

  it('delivers to the connections of the channel only, and buffers for resume', () => {
    make();
    const a = new FakeSink();
    const b = new FakeSink();
    hub.subscribe(hub.connect('ip:1', a)!, 'chat/1');
    hub.subscribe(hub.connect('ip:2', b)!, 'chat/2');
    hub.deliver({ channel: 'chat/1', id: 'x1', data: { n: 1 } });
    expect(a.written).toEqual(['event chat/1 x1 {"n":1}']);
    expect(b.written).toEqual([]);
  });

  it('a resume replays what followed the last event id, or sends a gap when it is no longer buffered', () => {
    make({ bufferSize: 3 });
    for (let i = 1; i <= 5; i++) hub.deliver({ channel: 'news', id: `n${i}`, data: i });
    const found = new FakeSink();
    hub.subscribe(hub.connect('ip:1', found)!, 'news', 'n3');
    expect(found.written).toEqual(['event news n4 4', 'event news n5 5']);
    const evicted = new FakeSink();
    hub.subscribe(hub.connect('ip:2', evicted)!, 'news', 'n1');
    expect(evicted.written).toEqual(['gap news n1']);
    hub.deliver({ channel: 'news', id: 'n6', data: 6 });
    expect(found.written.at(-1)).toBe('event news n6 6');
    expect(evicted.written.at(-1)).toBe('event news n6 6');
    expect(GAP_REASON).toMatch(/no longer buffered/);
  });

  it('a burst over maxQueue is not a slow consumer: the connection is cut only when it stays over, drained nothing, for the grace period', () => {
    vi.useFakeTimers();
    try {
      make({ maxQueue: 3, slowConsumerGraceMs: 1000 });
      const slow = new FakeSink(false);
      const fast = new FakeSink(false);
      const connection = hub.connect('ip:1', slow)!;
      hub.subscribe(connection, 'news');
      hub.subscribe(hub.connect('ip:2', fast)!, 'news');
      for (let i = 1; i <= 5; i++) hub.deliver({ channel: 'news', id: `n${i}`, data: i });
      // Both are over the bound after the burst; neither is cut yet, and nothing is dropped.
      expect(slow.written).toHaveLength(5);
      expect(fast.written).toHaveLength(5);
      expect(slow.closedWith).toBeUndefined();
      fast.drain(1); // still over, but draining: not stalled
      vi.advanceTimersByTime(1000);
      expect(fast.closedWith).toBeUndefined();
      expect(slow.closedWith).toBe('slow consumer');
      expect(connection.closed).toBe(true);
      expect(hub.connections('ip:1')).toBe(0);
      fast.drain();
      vi.advanceTimersByTime(5000);
      expect(fast.closedWith).toBeUndefined();
      hub.deliver({ channel: 'news', id: 'n6', data: 6 });
      expect(fast.written).toHaveLength(6);
      expect(slow.written).toHaveLength(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('over maxQueueBytes the grace period starts; flushed writes free the queue; past maxQueueBytesHard the cut is at once', () => {
    vi.useFakeTimers();
    try {
      make({ maxQueueBytes: 100, maxQueueBytesHard: 250, slowConsumerGraceMs: 1000 });
      const sink = new FakeSink(false);
      const connection = hub.connect('ip:1', sink)!;
      hub.subscribe(connection, 'news');
      hub.deliver({ channel: 'news', id: 'a', data: 'x'.repeat(40) });
      sink.drain();
      expect(connection.queued()).toEqual({ messages: 0, bytes: 0 });
      hub.deliver({ channel: 'news', id: 'b', data: 'x'.repeat(40) });
      hub.deliver({ channel: 'news', id: 'c', data: 'x'.repeat(40) });
      expect(connection.queued().bytes).toBeGreaterThan(100);
      expect(sink.closedWith).toBeUndefined();
      sink.drain(); // back under before the grace ends: it stays
      vi.advanceTimersByTime(1000);
      expect(sink.closedWith).toBeUndefined();
      for (const id of ['d', 'e', 'f', 'g', 'h']) hub.deliver({ channel: 'news', id, data: 'x'.repeat(40) });
      expect(sink.closedWith).toBe('slow consumer');
      expect(sink.written).toHaveLength(3 + 5);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a bus gap forgets every buffer (a resume across it gets a gap); once over, every live stream is sent a gap with its channel's last id", () => {
    make();
    const live = new FakeSink();
    hub.subscribe(hub.connect('ip:1', live)!, 'news');
    hub.deliver({ channel: 'news', id: 'n1', data: 1 });
    hub.deliver({ channel: 'news', id: 'n2', data: 2 });
    hub.gap({ ongoing: true, reason: 'the event bus connection is down' });
    expect(live.written).toEqual(['event news n1 1', 'event news n2 2']);
    const resumedDuring = new FakeSink();
    hub.subscribe(hub.connect('ip:2', resumedDuring)!, 'news', 'n1');
    expect(resumedDuring.written).toEqual(['gap news n1']);
    hub.deliver({ channel: 'news', id: 'n3', data: 3 });
    hub.gap({ ongoing: false, reason: 'the event bus reconnected' });
    expect(live.written.slice(-2)).toEqual(['event news n3 3', 'gap news n3']);
    expect(resumedDuring.written.at(-1)).toBe('gap news n3');
    const resumedAfter = new FakeSink();
    hub.subscribe(hub.connect('ip:3', resumedAfter)!, 'news', 'n3');
    expect(resumedAfter.written).toEqual(['gap news n3']);
  });

  it('caps the open connections per caller and frees a slot when one closes', () => {
    make({ maxConnectionsPerCaller: 2 });
    const first = hub.connect('user:1', new FakeSink())!;
    expect(hub.connect('user:1', new FakeSink())).toBeDefined();
    expect(hub.connect('user:1', new FakeSink())).toBeUndefined();
    expect(hub.connect('user:2', new FakeSink())).toBeDefined();
    first.released();
    expect(hub.connect('user:1', new FakeSink())).toBeDefined();
  });

  it('sends heartbeats every heartbeatMs, and ends every connection at shutdown', async () => {
    make({ heartbeatMs: 20 });
    const sink = new FakeSink();
    hub.connect('ip:1', sink);
    await new Promise((r) => setTimeout(r, 70));
    expect(sink.written.filter((w) => w === 'beat').length).toBeGreaterThanOrEqual(2);
    hub.closeAll('server shutting down');
    expect(sink.closedWith).toBe('server shutting down');
    expect(hub.connections()).toBe(0);
  });

  it('keeps the events of at most maxBufferedChannels channels (least recently published forgotten)', () => {
    make({ maxBufferedChannels: 2 });
    hub.deliver({ channel: 'chat/1', id: 'a', data: 1 });
    hub.deliver({ channel: 'chat/2', id: 'b', data: 2 });
    hub.deliver({ channel: 'chat/1', id: 'c', data: 3 });
    hub.deliver({ channel: 'chat/3', id: 'd', data: 4 });
    const s1 = new FakeSink();
    const s2 = new FakeSink();
    hub.subscribe(hub.connect('ip:1', s1)!, 'chat/1', 'a');
    hub.subscribe(hub.connect('ip:2', s2)!, 'chat/2', 'b');
    expect(s1.written).toEqual(['event chat/1 c 3']);
    expect(s2.written).toEqual(['gap chat/2 b']);
  });
});
