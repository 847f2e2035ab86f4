import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../src/adapters/events/memory-event-bus.js';

describe('MemoryEventBus publish/subscribe', () => {
  it('delivers to every subscriber of a topic, in order, and stops after unsubscribe', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    const off = bus.subscribe('order.paid', (p) => void got.push(`a:${JSON.stringify(p)}`));
    bus.subscribe('order.paid', async (p) => void got.push(`b:${JSON.stringify(p)}`));
    bus.subscribe('other', () => void got.push('other'));
    await bus.publish('order.paid', { id: 1 });
    off();
    await bus.publish('order.paid', { id: 2 });
    expect(got).toEqual(['a:{"id":1}', 'b:{"id":1}', 'b:{"id":2}']);
  });

  it('propagates a handler error to the publisher', async () => {
    const bus = new MemoryEventBus();
    bus.subscribe('t', () => {
      throw new Error('handler failed');
    });
    await expect(bus.publish('t', null)).rejects.toThrow('handler failed');
  });
});
