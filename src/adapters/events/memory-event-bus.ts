import type { EventBus, SignalEvent, SignalHandler, SignalName, TopicHandler } from '../../ports/event-bus.js';

/** In-process event bus: signal handlers keyed by (signal, table), topic handlers by name. */
export class MemoryEventBus implements EventBus {
  private readonly signals = new Map<string, SignalHandler[]>();
  private readonly topics = new Map<string, TopicHandler[]>();

  on(signal: SignalName, table: string, handler: SignalHandler): () => void {
    return add(this.signals, `${signal}:${table}`, handler);
  }

  async emit(event: SignalEvent): Promise<void> {
    const specific = this.signals.get(`${event.signal}:${event.table}`) ?? [];
    const wildcard = this.signals.get(`${event.signal}:*`) ?? [];
    if (specific.length === 0 && wildcard.length === 0) return;
    for (const handler of [...specific, ...wildcard]) await handler(event);
  }

  subscribe(topic: string, handler: TopicHandler): () => void {
    return add(this.topics, topic, handler);
  }

  async publish(topic: string, payload: unknown): Promise<void> {
    for (const handler of [...(this.topics.get(topic) ?? [])]) await handler(payload);
  }
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
