import { AsyncLocalStorage, executionAsyncId } from 'node:async_hooks';
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

describe('MemoryEventBus unitOfWork', () => {
  const saved = (id: number) => ({ signal: 'post_save' as const, table: 'post', row: { id }, created: false });

  it('holds committed-signal and topic deliveries until the unit resolves', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', (e) => void got.push(`signal:${String(e.row.id)}`));
    bus.subscribe('t', (p) => void got.push(`topic:${String(p)}`));
    let heldInside: string[] = ['unset'];
    const result = await bus.unitOfWork(async () => {
      await bus.emit(saved(1));
      await bus.publish('t', 'a');
      await new Promise((r) => setTimeout(r, 10));
      heldInside = [...got];
      return 'done';
    });
    expect(heldInside).toEqual([]);
    expect(result).toBe('done');
    expect(got).toEqual(['signal:1', 'topic:a']);
  });

  it('drops everything caused inside a unit that rejects, and passes the rejection on', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', (e) => void got.push(`signal:${String(e.row.id)}`));
    bus.subscribe('t', (p) => void got.push(`topic:${String(p)}`));
    await expect(
      bus.unitOfWork(async () => {
        await bus.emit(saved(1));
        await bus.publish('t', 'a');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(got).toEqual([]);
    // The bus is still usable: a later unit delivers.
    await bus.unitOfWork(async () => bus.publish('t', 'b'));
    expect(got).toEqual(['topic:b']);
  });

  it('a unit inside a unit joins the outer one: nothing before the outer resolves, all dropped when it rejects', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.subscribe('t', (p) => void got.push(String(p)));
    let afterInner: string[] = ['unset'];
    await bus.unitOfWork(async () => {
      await bus.publish('t', 'outer-1');
      await bus.unitOfWork(async () => bus.publish('t', 'inner'));
      afterInner = [...got];
      await bus.publish('t', 'outer-2');
    });
    expect(afterInner).toEqual([]);
    expect(got).toEqual(['outer-1', 'inner', 'outer-2']);

    got.length = 0;
    await expect(
      bus.unitOfWork(async () => {
        await bus.unitOfWork(async () => bus.publish('t', 'inner-resolved'));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(got).toEqual([]);
  });

  it('keeps the order in which signals and topics happened inside the unit', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', (e) => void got.push(`post:${String(e.row.id)}`));
    bus.onCommitted('post_save', '*', (e) => void got.push(`any:${String(e.row.id)}`));
    bus.subscribe('t', async (p) => {
      await new Promise((r) => setTimeout(r, 5));
      got.push(`topic:${String(p)}`);
    });
    await bus.unitOfWork(async () => {
      await bus.emit(saved(1));
      await bus.publish('t', 'x');
      await bus.emit(saved(2));
      await bus.publish('t', 'y');
    });
    expect(got).toEqual(['post:1', 'any:1', 'topic:x', 'post:2', 'any:2', 'topic:y']);
  });

  it('a failing committed handler is reported through the constructor callback; the unit resolves and later deliveries still run', async () => {
    const reported: { error: unknown; what: string }[] = [];
    const bus = new MemoryEventBus((error, what) => void reported.push({ error, what }));
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', () => {
      throw new Error('committed handler failed');
    });
    bus.subscribe('t', async () => {
      throw new Error('topic handler failed');
    });
    bus.subscribe('u', (p) => void got.push(String(p)));
    const result = await bus.unitOfWork(async () => {
      await bus.emit(saved(1));
      await bus.publish('t', null);
      await bus.publish('u', 'still delivered');
      return 42;
    });
    expect(result).toBe(42);
    expect(got).toEqual(['still delivered']);
    expect(reported.map((r) => r.what)).toEqual(['post_save on post', 'topic t']);
    expect(reported.map((r) => (r.error as Error).message)).toEqual(['committed handler failed', 'topic handler failed']);
  });

  it('a throwing committed handler or topic subscriber is reported alone: the ones after it still hear the event, in a unit and outside one', async () => {
    const reported: string[] = [];
    const bus = new MemoryEventBus((error, what) => void reported.push(`${what}: ${(error as Error).message}`));
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', () => {
      throw new Error('first failed');
    });
    bus.onCommitted('post_save', 'post', (e) => void got.push(`post:${String(e.row.id)}`));
    bus.onCommitted('post_save', '*', (e) => void got.push(`any:${String(e.row.id)}`));
    bus.subscribe('t', async () => {
      throw new Error('subscriber failed');
    });
    bus.subscribe('t', (p) => void got.push(`topic:${String(p)}`));
    await bus.unitOfWork(async () => {
      await bus.emit(saved(1));
      await bus.publish('t', 'a');
    });
    await bus.emit(saved(2));
    expect(got).toEqual(['post:1', 'any:1', 'topic:a', 'post:2', 'any:2']);
    expect(reported).toEqual(['post_save on post: first failed', 'topic t: subscriber failed', 'post_save on post: first failed']);
  });

  it('`on` handlers still run at once inside the unit, and a throwing one fails the emit (and so the unit)', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.on('post_save', 'post', (e) => void got.push(`on:${String(e.row.id)}`));
    bus.onCommitted('post_save', 'post', (e) => void got.push(`committed:${String(e.row.id)}`));
    await bus.unitOfWork(async () => {
      await bus.emit(saved(1));
      expect(got).toEqual(['on:1']);
    });
    expect(got).toEqual(['on:1', 'committed:1']);

    got.length = 0;
    bus.on('pre_save', 'post', () => {
      throw new Error('vetoed');
    });
    bus.onCommitted('pre_save', 'post', () => void got.push('committed:pre'));
    await expect(bus.unitOfWork(async () => bus.emit({ signal: 'pre_save', table: 'post', row: { id: 2 } }))).rejects.toThrow('vetoed');
    expect(got).toEqual([]);
  });

  it('outside a unit, committed handlers run at once and their failures are reported, not thrown', async () => {
    const reported: string[] = [];
    const bus = new MemoryEventBus((_e, what) => void reported.push(what));
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', (e) => void got.push(`committed:${String(e.row.id)}`));
    await bus.emit(saved(3));
    expect(got).toEqual(['committed:3']);
    bus.onCommitted('post_delete', 'post', () => {
      throw new Error('boom');
    });
    await bus.emit({ signal: 'post_delete', table: 'post', row: { id: 3 } });
    expect(reported).toEqual(['post_delete on post']);
  });

  it('concurrent units are independent: one rolling back does not drop or release the other', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.subscribe('t', (p) => void got.push(String(p)));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow = bus.unitOfWork(async () => {
      await bus.publish('t', 'slow');
      await gate;
    });
    await expect(
      bus.unitOfWork(async () => {
        await bus.publish('t', 'failed');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await bus.unitOfWork(async () => bus.publish('t', 'fast'));
    expect(got).toEqual(['fast']);
    release();
    await slow;
    expect(got).toEqual(['fast', 'slow']);
  });

  it('a committed handler that writes starts a unit of its own (its deliveries are not lost)', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.subscribe('first', async () => {
      await bus.unitOfWork(async () => bus.publish('second', 'from handler'));
      got.push('first');
    });
    bus.subscribe('second', (p) => void got.push(String(p)));
    await bus.unitOfWork(async () => bus.publish('first', null));
    expect(got).toEqual(['from handler', 'first']);
  });
});

describe('MemoryEventBus and promise hooks', () => {
  /** Non-zero inside a promise reaction only while async hooks track promises (AsyncLocalStorage enabled). */
  const idInReaction = async (): Promise<number> => {
    let id = -1;
    await Promise.resolve().then(() => (id = executionAsyncId()));
    return id;
  };

  /**
   * Whether an enabled AsyncLocalStorage tracks promises with hooks on this runtime: it does on
   * Node 20 and 22; from Node 24 it is built on AsyncContextFrame, which installs none.
   */
  const storageHooksPromises = async (): Promise<boolean> => {
    const storage = new AsyncLocalStorage<object>();
    const id = await storage.run({}, idInReaction);
    storage.disable();
    return id > 0;
  };

  it('leaves no promise hooks behind once no unit of work is open (they tax every promise of every request)', async () => {
    expect(await idInReaction()).toBe(0); // the test process itself tracks no promises
    const hooked = await storageHooksPromises();
    expect(await idInReaction()).toBe(0); // the probe left none either
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.subscribe('t', () => void got.push('delivered'));
    let inside = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = bus.unitOfWork(async () => {
      await gate;
      await bus.publish('t', 1);
    });
    const second = bus.unitOfWork(async () => {
      inside = await idInReaction();
    });
    await second;
    if (hooked) {
      expect(inside).toBeGreaterThan(0); // the frame is on while a unit is open
      expect(await idInReaction()).toBeGreaterThan(0); // and stays on while another one still is
    } else {
      expect(inside).toBe(0); // AsyncContextFrame: a frame costs promises nothing, open or not
    }
    release();
    await first;
    expect(got).toEqual(['delivered']);
    expect(await idInReaction()).toBe(0);
  });

  it('an atomic unit outside a unit turns no hooks on and delivers as it goes; inside a unit it joins it', async () => {
    const bus = new MemoryEventBus();
    const got: string[] = [];
    bus.onCommitted('post_save', 'post', (e) => void got.push(`signal:${String(e.row.id)}`));
    let inside = -1;
    let deliveredInside: string[] = ['unset'];
    await bus.unitOfWork(
      async () => {
        inside = await idInReaction();
        await bus.emit({ signal: 'post_save', table: 'post', row: { id: 1 }, created: true });
        deliveredInside = [...got];
      },
      { atomic: true },
    );
    expect(inside).toBe(0);
    expect(deliveredInside).toEqual(['signal:1']);

    got.length = 0;
    let heldInOuter: string[] = ['unset'];
    await bus.unitOfWork(async () => {
      await bus.unitOfWork(() => bus.emit({ signal: 'post_save', table: 'post', row: { id: 2 }, created: true }), { atomic: true });
      heldInOuter = [...got];
    });
    expect(heldInOuter).toEqual([]);
    expect(got).toEqual(['signal:2']);
    expect(await idInReaction()).toBe(0);
  });
});
