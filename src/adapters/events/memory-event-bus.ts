import { AsyncLocalStorage } from 'node:async_hooks';
import type { BusGap, EventBus, SignalContext, SignalEvent, SignalHandler, SignalName, TopicHandler, TransactionSignalHandler } from '../../ports/event-bus.js';

/** A delivery held until its unit of work commits. */
type Pending = () => Promise<void>;

/** Where handler failures after a commit go (they cannot fail the committed write). */
export type DeliveryErrorHandler = (error: unknown, what: string) => void;

/**
 * In-process event bus: signal handlers keyed by (signal, table), topic handlers by name.
 * Deliveries caused inside a unit of work (a store transaction) are queued in an
 * AsyncLocalStorage frame and run, in order, once the unit resolves; a rejected unit drops them.
 *
 * The frame is switched off whenever no unit is open: on Node 20 an enabled AsyncLocalStorage
 * installs V8 promise hooks that tax every promise of every request (a quarter of the CPU of an
 * anonymous REST read in the profile), so reads outside a transaction run without them.
 */
export class MemoryEventBus implements EventBus {
  private readonly signals = new Map<string, TransactionSignalHandler[]>();
  /** `on` handlers that hear updates only (`updatesOnly`). */
  private readonly updateSignals = new Map<string, TransactionSignalHandler[]>();
  private readonly committed = new Map<string, SignalHandler[]>();
  private readonly topics = new Map<string, TopicHandler[]>();
  private readonly unit = new AsyncLocalStorage<Pending[]>();
  /** Units open right now: the frame is disabled when the last one ends. */
  private open = 0;

  constructor(protected readonly onDeliveryError: DeliveryErrorHandler = (error, what) => console.error(`portico: ${what} failed`, error)) {}

  on(signal: SignalName, table: string, handler: TransactionSignalHandler, options?: { readonly updatesOnly?: boolean }): () => void {
    return add(options?.updatesOnly ? this.updateSignals : this.signals, `${signal}:${table}`, handler);
  }

  listens(signal: SignalName, table: string, created?: boolean): boolean {
    const heard = (map: Map<string, TransactionSignalHandler[]>): boolean => (map.get(`${signal}:${table}`)?.length ?? 0) > 0 || (map.get(`${signal}:*`)?.length ?? 0) > 0;
    return heard(this.signals) || (created !== true && heard(this.updateSignals));
  }

  onCommitted(signal: SignalName, table: string, handler: SignalHandler): () => void {
    return add(this.committed, `${signal}:${table}`, handler);
  }

  async emit(event: SignalEvent, ctx?: SignalContext): Promise<void> {
    for (const handler of handlersOf(this.signals, event)) await handler(event, ctx);
    if (event.created === false) for (const handler of handlersOf(this.updateSignals, event)) await handler(event, ctx);
    // Nothing to queue when no one listens for the commit (the common case on a write's hot path).
    if (!this.committed.get(`${event.signal}:${event.table}`)?.length && !this.committed.get(`${event.signal}:*`)?.length) return;
    await this.afterCommit(`${event.signal} on ${event.table}`, () => this.deliverCommitted(event));
  }

  onCommit(work: () => void | Promise<void>): Promise<void> {
    return this.afterCommit('an onCommit callback', async () => work());
  }

  subscribe(topic: string, handler: TopicHandler): () => void {
    return add(this.topics, topic, handler);
  }

  /** Gap listeners; one process misses nothing, so only a bus spanning processes reports gaps. */
  protected readonly gapHandlers = new Set<(gap: BusGap) => void>();

  onGap(handler: (gap: BusGap) => void): () => void {
    this.gapHandlers.add(handler);
    return () => void this.gapHandlers.delete(handler);
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    if (this.unit.getStore()) await this.afterCommit(`topic ${topic}`, () => this.deliverTopic(topic, payload, `topic ${topic}`));
    else await this.deliverTopic(topic, payload);
  }

  /**
   * Runs the committed-signal handlers of `event` (one that has committed, here or in another
   * process). Each handler's failure is reported where it is called: the handlers after it still
   * hear the event (a host's throwing listener must not starve Portico's own, nor a subscription).
   */
  protected async deliverCommitted(event: SignalEvent): Promise<void> {
    for (const handler of handlersOf(this.committed, event)) {
      try {
        await handler(event);
      } catch (error) {
        this.onDeliveryError(error, `${event.signal} on ${event.table}`);
      }
    }
  }

  /**
   * Runs the subscribers of `topic`, in subscription order. With `reported` (a delivery after the
   * commit, or from another process), each subscriber's failure is reported as that and the next
   * still run; without it (a publish outside a transaction), the first failure is the publisher's.
   */
  protected async deliverTopic(topic: string, payload: unknown, reported?: string): Promise<void> {
    for (const handler of [...(this.topics.get(topic) ?? [])]) {
      try {
        await handler(payload);
      } catch (error) {
        if (reported === undefined) throw error;
        this.onDeliveryError(error, reported);
      }
    }
  }

  async unitOfWork<T>(work: () => Promise<T>, options?: { readonly atomic?: boolean }): Promise<T> {
    // Joins an open unit; an atomic change outside one delivers as it goes (it has committed by
    // then), without switching the frame and its promise hooks on for every request in flight.
    if (this.unit.getStore() || options?.atomic) return work();
    const pending: Pending[] = [];
    let result: T;
    this.open++;
    try {
      result = await this.unit.run(pending, work);
    } finally {
      // With no unit open there is no frame to keep: disabling it removes the promise hooks
      // (an async continuation left over from a finished unit then delivers at once).
      if (--this.open === 0) this.unit.disable();
    }
    // Delivered outside the frame: a handler that writes starts a unit of its own.
    await this.unit.exit(async () => {
      for (const deliver of pending) await deliver();
    });
    return result;
  }

  /** Runs `deliver` now outside a unit, else when the unit commits; failures are reported, not thrown. */
  protected async afterCommit(what: string, deliver: Pending): Promise<void> {
    const safe = async () => {
      try {
        await deliver();
      } catch (error) {
        this.onDeliveryError(error, what);
      }
    };
    const pending = this.unit.getStore();
    if (pending) pending.push(safe);
    else await safe();
  }
}

function handlersOf<H>(map: Map<string, H[]>, event: SignalEvent): H[] {
  return [...(map.get(`${event.signal}:${event.table}`) ?? []), ...(map.get(`${event.signal}:*`) ?? [])];
}

function add<H>(map: Map<string, H[]>, key: string, handler: H): () => void {
  const list = map.get(key) ?? [];
  list.push(handler);
  map.set(key, list);
  return () => {
    const current = map.get(key);
    if (!current) return;
    const i = current.indexOf(handler);
    if (i >= 0) current.splice(i, 1);
  };
}
