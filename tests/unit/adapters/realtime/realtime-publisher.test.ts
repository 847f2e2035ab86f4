import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../../src/adapters/events/memory-event-bus.js';
import { RealtimeHub } from '../../../../src/adapters/realtime/realtime-hub.js';
import { REALTIME_TOPIC, RealtimePublisher } from '../../../../src/adapters/realtime/realtime-publisher.js';
import { cryptoRandomSource } from '../../../../src/adapters/system/crypto-random-source.js';
import { systemClock } from '../../../../src/adapters/system/system-clock.js';

describe('RealtimePublisher', () => {
  it('publishes {channel, id, data} on the bus topic; the hub (of this and every process) receives it; ids are unique', async () => {
    const bus = new MemoryEventBus();
    const hub = new RealtimeHub();
    hub.declare('chat/:room');
    const publisher = new RealtimePublisher(hub, bus, systemClock, cryptoRandomSource);
    publisher.listen();
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
  });

  it('refuses a channel that matches no declared pattern, and data that is not JSON', async () => {
    const hub = new RealtimeHub();
    hub.declare('news');
    const publisher = new RealtimePublisher(hub, new MemoryEventBus(), systemClock, cryptoRandomSource);
    await expect(publisher.publish('chat/1', 1)).rejects.toThrow(/matches no declared channel/);
    await expect(publisher.publish('news', () => 1)).rejects.toThrow(/not JSON/);
  });
});
