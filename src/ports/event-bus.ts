import type { Row } from '../domain/model/types.js';

/** Model lifecycle signals (SPEC "Events" 1). */
export type SignalName = 'pre_save' | 'post_save' | 'pre_delete' | 'post_delete';

/** What a signal handler receives. `created` is set on save signals; `row` is the row as written (or, for deletes, as it was). */
export interface SignalEvent {
  readonly signal: SignalName;
  readonly table: string;
  readonly row: Row;
  readonly created?: boolean;
  /** For pre_save on update: the changes about to be written. */
  readonly changes?: Row;
}

export type SignalHandler = (event: SignalEvent) => void | Promise<void>;
export type TopicHandler = (payload: unknown) => void | Promise<void>;

/**
 * Model signals plus a name-keyed publish/subscribe channel for application events.
 * Handlers run in registration order and are awaited; a throwing `pre_*` handler aborts the write.
 *
 * @example
 * const off = bus.on('post_save', 'post', (e) => console.log(e.row.id));
 * bus.subscribe('order.paid', (p) => ...); await bus.publish('order.paid', { id: 1 });
 */
export interface EventBus {
  /** Listens to a signal on one table, or on every table with `'*'`; returns an unsubscribe function. */
  on(signal: SignalName, table: string, handler: SignalHandler): () => void;
  /** Fires a signal to its handlers, awaiting each in turn. */
  emit(event: SignalEvent): Promise<void>;
  /** Listens to an application topic; returns an unsubscribe function. */
  subscribe(topic: string, handler: TopicHandler): () => void;
  /** Delivers a payload to every subscriber of `topic`, awaiting each. */
  publish(topic: string, payload: unknown): Promise<void>;
}
