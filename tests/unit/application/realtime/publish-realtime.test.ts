import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../../src/adapters/events/memory-event-bus.js';
import { RealtimeHub } from '../../../../src/adapters/realtime/realtime-hub.js';
import { PublishRealtime } from '../../../../src/application/realtime/publish-realtime.js';
import { RelayRealtimeEvents } from '../../../../src/application/realtime/relay-realtime-events.js';
import { cryptoRandomSource } from '../../../../src/adapters/system/crypto-random-source.js';
import { systemClock } from '../../../../src/adapters/system/system-clock.js';
import { DeclaredChannels } from '../../../../src/domain/realtime/declared-channels.js';
import { REALTIME_TOPIC, type RealtimeEvent } from '../../../../src/domain/realtime/realtime-event.js';

const declared = (...patterns: string[]) => {
  const channels = new DeclaredChannels();
  for (const pattern of patterns) channels.declare(pattern);
  return channels;
};

describe('PublishRealtime', () => {
  it('publishes {channel, id, data} on the bus topic; the hub (of this and every process) receives it; ids are unique', async () => {
    const bus = new MemoryEventBus();
    const channels = declared('chat/:room');
    const hub = new RealtimeHub();
    const publisher = new PublishRealtime(channels, bus, systemClock, cryptoRandomSource);
    new RelayRealtimeEvents(channels, bus, hub).start();
    const seen: unknown[] = [];
    bus.subscribe(REALTIME_TOPIC, (p) => void seen.push(p));
    const delivered: string[] = [];
    const original = hub.deliver.bind(hub);
    hub.deliver = (e) => {
      delivered.push(e.id);
      original(e);
    };
    const a = await publisher.publish('chat/42', { text: 'hi' });
    const b = await publisher.publish('chat/42', { text: 'again' });
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[0-9a-z]+-[\w-]+-[0-9a-z]+$/);
    expect(seen).toEqual([{ channel: 'chat/42', id: a, data: { text: 'hi' } }, { channel: 'chat/42', id: b, data: { text: 'again' } }]);
    expect(delivered).toEqual([a, b]);
    expect(publisher.channels()).toEqual(['chat/:room']);
  });

  it('refuses a channel that matches no declared pattern, and data that is not JSON', async () => {
    const publisher = new PublishRealtime(declared('news'), new MemoryEventBus(), systemClock, cryptoRandomSource);
    await expect(publisher.publish('chat/1', 1)).rejects.toThrow(/matches no declared channel/);
    await expect(publisher.publish('news', () => 1)).rejects.toThrow(/not JSON/);
  });
});

describe('RelayRealtimeEvents', () => {
  it('hands the listeners the well-formed events of declared channels, and stops when told', async () => {
    const bus = new MemoryEventBus();
    const delivered: RealtimeEvent[] = [];
    const stop = new RelayRealtimeEvents(declared('news'), bus, { deliver: (e) => void delivered.push(e), gap: () => undefined }).start();
    await bus.publish(REALTIME_TOPIC, { channel: 'news', id: 'a', data: 1 });
    await bus.publish(REALTIME_TOPIC, { channel: 'weather', id: 'b', data: 2 });
    await bus.publish(REALTIME_TOPIC, { channel: 'news', data: 3 });
    await bus.publish(REALTIME_TOPIC, 'not an event');
    stop();
    await bus.publish(REALTIME_TOPIC, { channel: 'news', id: 'c', data: 4 });
    expect(delivered).toEqual([{ channel: 'news', id: 'a', data: 1 }]);
  });
});
