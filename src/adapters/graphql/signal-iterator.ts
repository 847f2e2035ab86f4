import type { EventBus, SignalEvent, SignalName } from '../../ports/event-bus.js';

/**
 * The committed model signals of one table as an async iterator (SPEC "Events" 2: subscriptions
 * are driven by the signals; DESIGN §3: delivered after the commit, never after a rollback, in
 * order). `return()` unsubscribes.
 */
export function signalIterator(events: EventBus, signal: SignalName, table: string, accept: (e: SignalEvent) => boolean): AsyncIterableIterator<SignalEvent> {
  const queue: SignalEvent[] = [];
  const waiting: ((r: IteratorResult<SignalEvent>) => void)[] = [];
  let done = false;
  const off = events.onCommitted(signal, table, (event) => {
    if (done || !accept(event)) return;
    const next = waiting.shift();
    if (next) next({ value: event, done: false });
    else queue.push(event);
  });
  const finish = (): Promise<IteratorResult<SignalEvent>> => {
    done = true;
    off();
    for (const w of waiting.splice(0)) w({ value: undefined, done: true });
    queue.length = 0;
    return Promise.resolve({ value: undefined, done: true });
  };
  return {
    next: () => {
      if (done) return Promise.resolve({ value: undefined, done: true });
      const event = queue.shift();
      if (event) return Promise.resolve({ value: event, done: false });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return: finish,
    throw: async (error: unknown) => {
      await finish();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
