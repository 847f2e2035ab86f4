import type { Identity } from '../domain/auth/identity.js';
import type { Row, Value } from '../domain/model/types.js';
import type { Condition, FindQuery } from '../domain/query/condition.js';

/** Options shared by reads that may look at soft-deleted rows. */
export interface ReadOptions {
  /** Include soft-deleted rows (default: live rows only). */
  readonly withDeleted?: boolean;
  /** Read only these columns (the primary key always comes too): the rows carry no other column. */
  readonly columns?: readonly string[];
}

/** One write of `RecordStore.writeTogether`: a row to insert, or changes to the live row `id`. */
export type Write =
  | { readonly insert: string; readonly row: Row }
  | { readonly update: string; readonly id: Value; readonly changes: Row };

/** What a write tells its signal handlers besides the row: who asked for it (`SignalContext.caller`). */
export interface WriteOptions {
  readonly caller?: Identity;
}

/**
 * Model rows by table name: what the use cases, signal handlers, tasks and a host's code read and
 * write through. Implemented once, by the record service (`application/records/record-service.ts`)
 * over a backend's `TableStore` (`table-store.ts`); it passes the same contract suite on every
 * backend (tests/contract/record-store.contract.ts).
 *
 * Rows use the domain value types (see `Value`). Writes fill defaults (literal, now, uuid),
 * fire the model signals (`pre_save`, `post_save`, `pre_delete`, `post_delete`) and report
 * integrity failures as `ConstraintViolation` (never driver errors).
 *
 * @example
 * const post = await store.insert('post', { title: 'Hi', author_id: 1 });
 * await store.transaction(async (tx) => { await tx.update('post', post.id, { title: 'Hey' }); });
 */

export interface RecordStore {
  /** Runs `work` in one transaction: commits when it resolves, rolls back when it throws. Nested calls join the outer one. */
  transaction<T>(work: (tx: RecordStore) => Promise<T>): Promise<T>;
  /** Inserts one row and returns it as stored (defaults and generated key included). */
  insert(table: string, row: Row, options?: WriteOptions): Promise<Row>;
  /** Inserts several rows in order and returns them as stored; all or nothing. */
  insertMany(table: string, rows: readonly Row[], options?: WriteOptions): Promise<Row[]>;
  /**
   * Makes `writes` as one atomic step, in order, and returns each one's row as stored (null for
   * an update that found no live row; the other writes still stand). Every write is checked
   * before any is made. On PostgreSQL the statements go in one round trip and commit together
   * when no in-transaction handler listens to their tables' save signals; elsewhere they run in
   * a transaction.
   */
  writeTogether(writes: readonly Write[]): Promise<(Row | null)[]>;
  /** Changes columns of the live row `id`; returns the stored row, or null when there is no such live row. */
  update(table: string, id: Value, changes: Row, options?: WriteOptions): Promise<Row | null>;
  /**
   * Changes every live row matching `where` in one conditional statement and returns the rows
   * as stored. When `where` pins current values it is a compare-and-set: of two concurrent
   * calls racing for the same row, only one matches.
   */
  updateWhere(table: string, where: Condition, changes: Row): Promise<Row[]>;
  /** Deletes row `id` (soft-delete models: stamps `deleted_at`); false when there was no live row. */
  delete(table: string, id: Value, options?: WriteOptions): Promise<boolean>;
  /**
   * Brings back the soft-deleted row `id` of a soft-delete model (clears `deleted_at`, fires the
   * save signals); returns the row, or null when there is no such deleted row or the model has
   * no soft delete.
   */
  restore(table: string, id: Value): Promise<Row | null>;
  /** The row with primary key `id`, or null. */
  getById(table: string, id: Value, options?: ReadOptions): Promise<Row | null>;
  /** Rows whose primary key is in `ids`, in one query; order unspecified, missing ids skipped. */
  getManyByIds(table: string, ids: readonly Value[], options?: ReadOptions): Promise<Row[]>;
  /**
   * The live rows of the table that `column` (a foreign key of `table`) points to, from the live
   * rows of `table` matching `where`, in one statement (a token's user, a comment's post).
   */
  findReferenced(table: string, column: string, where: Condition): Promise<Row[]>;
  /** Rows matching the query, ordered (primary key by default; none needed when `where` pins the key) and paged. */
  find(table: string, query?: FindQuery): Promise<Row[]>;
  /** Number of rows matching `where`. */
  count(table: string, where?: Condition, options?: ReadOptions): Promise<number>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
}
