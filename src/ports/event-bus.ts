import type { Identity } from '../domain/auth/identity.js';
import type { Row } from '../domain/model/types.js';
import type { RecordStore } from './record-store.js';

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

/**
 * What an in-transaction handler gets with the event: the transaction the write runs in (write
 * with it: a write on the app's store instead would wait for this very transaction), and the
 * caller when the write came through a surface's single-row write path (REST, GraphQL, admin).
 */
export interface SignalContext {
  readonly tx: RecordStore;
  readonly caller?: Identity;
}

export type SignalHandler = (event: SignalEvent) => void | Promise<void>;
/** An `on` handler: it runs inside the writing transaction and gets its context (stores always pass one). */
export type TransactionSignalHandler = (event: SignalEvent, ctx?: SignalContext) => void | Promise<void>;
export type TopicHandler = (payload: unknown) => void | Promise<void>;

/**
 * Model signals plus a name-keyed publish/subscribe channel for application events.
 *
 * Two moments (DESIGN §3 "events and commits"):
 * - `on` handlers run inside the writing transaction, in registration order, awaited; a throwing
 *   `pre_*` (or `post_*`) handler aborts the write.
 * - `onCommitted` handlers and topic subscribers hear what happened inside a transaction only
 *   after it commits, in the order it happened, and never after a rollback. A failing handler
 *   there is reported, never turned into a failure of the write that already committed.
 *
 * Stores run every transaction inside `unitOfWork`, which is what holds the events back.
 *
 * @example
 * const off = bus.on('post_save', 'post', (e) => console.log(e.row.id));
 * bus.onCommitted('post_save', 'post', (e) => notifyClients(e.row));
 * bus.subscribe('order.paid', (p) => ...); await bus.publish('order.paid', { id: 1 });
 */
export interface EventBus {
  /**
   * Listens to a signal on one table, or on every table with `'*'`, inside the transaction;
   * returns an unsubscribe function. With `updatesOnly`, a save handler hears updates and never
   * inserts (so an insert may stay one statement).
   */
  on(signal: SignalName, table: string, handler: TransactionSignalHandler, options?: { readonly updatesOnly?: boolean }): () => void;
  /** Listens to a signal once its transaction has committed; returns an unsubscribe function. */
  onCommitted(signal: SignalName, table: string, handler: SignalHandler): () => void;
  /**
   * True when `on` handlers listen to `signal` on `table` (a store may then skip an explicit
   * transaction for a one-statement write); with `created`, only the handlers an insert reaches count.
   */
  listens(signal: SignalName, table: string, created?: boolean): boolean;
  /** Fires a signal to its `on` handlers (with `ctx`), awaiting each in turn, and queues it for the `onCommitted` ones. */
  emit(event: SignalEvent, ctx?: SignalContext): Promise<void>;
  /**
   * Runs `work` once the current unit of work commits (at once outside a unit), never after a
   * rollback; its failure is reported, not thrown (the write has committed).
   */
  onCommit(work: () => void | Promise<void>): Promise<void>;
  /** Listens to an application topic; returns an unsubscribe function. */
  subscribe(topic: string, handler: TopicHandler): () => void;
  /**
   * Delivers a payload to every subscriber of `topic`: at once (awaiting each, errors propagate)
   * outside a transaction, after the commit inside one.
   */
  publish(topic: string, payload: unknown): Promise<void>;
  /**
   * Runs `work` as one unit: committed-signal and topic deliveries caused inside it wait until it
   * resolves and are dropped when it throws. A unit inside a unit joins the outer one.
   *
   * `atomic: true` says `work` makes one change that is committed as soon as it is made (a
   * single statement outside a transaction), and causes its deliveries only after that. Outside
   * a unit, its deliveries then need not be held: they may run as they are caused, which spares
   * the bookkeeping of a unit. Inside one, it joins the outer unit as any other.
   */
  unitOfWork<T>(work: () => Promise<T>, options?: { readonly atomic?: boolean }): Promise<T>;
  /**
   * Listens for what this process may have missed from the others: its bus connection went down
   * (`ongoing`: until it is back, anything sent may be missed), came back after an outage, or
   * another process's messages were lost on the way (both not `ongoing`: a hole that is over).
   * A bus within one process never calls it (and need not have it). Returns an unsubscribe function.
   */
  onGap?(handler: (gap: BusGap) => void): () => void;
}

/** A stretch of the other processes' messages this process may have missed. */
export interface BusGap {
  /** True while the bus connection is down; false once the hole is behind (reconnected, or found in a sequence). */
  readonly ongoing: boolean;
  readonly reason: string;
}
