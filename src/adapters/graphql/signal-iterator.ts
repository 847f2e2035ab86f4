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

/**
 * The events of `source` that `keep` answers for (with what it answers): an event it answers
 * undefined for is skipped (a subscriber out of the row's reach hears nothing of it). `return()`
 * ends the source; a failure of `keep` ends the iteration with it.
 */
export function keptEvents(source: AsyncIterableIterator<SignalEvent>, keep: (e: SignalEvent) => Promise<SignalEvent | undefined>): AsyncIterableIterator<SignalEvent> {
  const end = (): Promise<IteratorResult<SignalEvent>> => source.return?.() ?? Promise.resolve({ value: undefined, done: true });
  return {
    next: async () => {
      for (;;) {
        const step = await source.next();
        if (step.done) return step;
        const kept = await keep(step.value);
        if (kept) return { value: kept, done: false };
      }
    },
    return: end,
    throw: async (error: unknown) => {
      await end();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
