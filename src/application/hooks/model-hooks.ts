import type { Identity } from '../../domain/auth/identity.js';
import type { Row } from '../../domain/model/types.js';
import type { EventBus, SignalContext, SignalEvent } from '../../ports/event-bus.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Enqueued } from '../../ports/task-queue.js';
import type { EnqueueOptions, TaskClient } from '../tasks/tasks.js';

/** The moments a model hook runs at: inside the writing transaction, around the write. */
export type HookMoment = 'beforeSave' | 'afterSave' | 'beforeDelete' | 'afterDelete';

/**
 * What a model hook gets besides the row: the transaction and who wrote, and work that follows
 * the transaction's fate. A job enqueued here is written in the transaction (it runs only if the
 * write commits); a topic published, or an `onCommit` callback, is delivered after the commit
 * and never after a rollback.
 */
export interface HookContext {
  /** The writing transaction: read and write with it, never with the app's store (that would wait for this transaction). */
  readonly tx: RecordStore;
  /** The caller, when the write came through a surface's single-row write path (REST, GraphQL, admin). */
  readonly caller?: Identity;
  /** Save hooks: true for an insert. */
  readonly created?: boolean;
  /** `beforeSave` on an update: the changes about to be written. */
  readonly changes?: Row;
  /** Enqueues a job of the tasks() plugin in this transaction. */
  enqueue(task: string, payload?: unknown, options?: Omit<EnqueueOptions, 'tx'>): Promise<Enqueued>;
  /** Publishes an application topic, delivered once the transaction commits. */
  publish(topic: string, payload: unknown): Promise<void>;
  /** Runs `work` once the transaction commits; a failure is logged, the write stands. */
  onCommit(work: () => void | Promise<void>): Promise<void>;
}

/** A model hook: throw to refuse the write (the whole transaction rolls back). */
export type ModelHook = (row: Row, ctx: HookContext) => void | Promise<void>;

/** The signal each moment listens to. */
export const HOOK_SIGNALS = { beforeSave: 'pre_save', afterSave: 'post_save', beforeDelete: 'pre_delete', afterDelete: 'post_delete' } as const;

/**
 * Runs `hook` for a signal heard inside its transaction, with the hook context built from the
 * signal's (`tasks` is asked for when a hook enqueues, so the tasks() plugin may come later).
 */
export async function runModelHook(hook: ModelHook, event: SignalEvent, signal: SignalContext | undefined, events: EventBus, tasks: () => TaskClient): Promise<void> {
  if (!signal) throw new Error(`a ${event.signal} hook on ${event.table} ran outside a store write`);
  const { tx } = signal;
  const ctx: HookContext = {
    tx,
    ...(signal.caller ? { caller: signal.caller } : {}),
    ...(event.created !== undefined ? { created: event.created } : {}),
    ...(event.changes ? { changes: event.changes } : {}),
    enqueue: (task, payload, options) => tasks().enqueueIn(tx, task, payload, options),
    publish: (topic, payload) => events.publish(topic, payload),
    onCommit: (work) => events.onCommit(work),
  };
  await hook(event.row, ctx);
}
