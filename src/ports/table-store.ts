import type { ModelDef, Row } from '../domain/model/types.js';
import type { Condition, FindQuery } from '../domain/query/condition.js';

/**
 * One write of `TableStore.writeTogether`, already checked by the record service: a row with its
 * defaults, or changes to the rows matching `where` (the live row of one key).
 */
export type TableWrite =
  | { readonly kind: 'insert'; readonly model: ModelDef; readonly row: Row }
  | { readonly kind: 'update'; readonly model: ModelDef; readonly where: Condition; readonly changes: Row };

/**
 * The table operations a backend implements (in-memory, SQLite, PostgreSQL), and nothing more.
 * Rules live above it, in the record service (`application/records`): value checks, defaults,
 * soft delete (the live filter arrives folded into `where`), the model signals and units of work.
 *
 * Every argument is checked: tables and columns exist, values are canonical. Integrity failures
 * are reported as `ConstraintViolation` (never driver errors). Every store passes the record-store
 * contract suite (tests/contract/record-store.contract.ts) under the record service.
 */
export interface TableStore {
  /** True for a store bound to an open transaction. */
  readonly inTransaction: boolean;
  /** True when a single-row statement is atomic on its own (SQL); the memory store's are not. */
  readonly atomicStatements: boolean;
  /** Runs `work` in one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(work: (tx: TableStore) => Promise<T>): Promise<T>;
  /**
   * Rows matching the query, in its order and page (no order: any; a `where` that pins the key is
   * how rows are got by their keys). `columns`, when given, are exactly the columns each row carries.
   */
  find(model: ModelDef, query: FindQuery): Promise<Row[]>;
  /** Rows of `target` whose key is the `column` value of a row of `model` matching `where`, in one statement. */
  findReferenced(model: ModelDef, column: string, where: Condition, target: ModelDef, targetWhere: Condition | undefined): Promise<Row[]>;
  /** Number of rows matching `where`. */
  count(model: ModelDef, where: Condition | undefined): Promise<number>;
  /** Inserts rows in order, all or nothing, and returns them as stored (generated keys included). */
  insertMany(model: ModelDef, rows: readonly Row[]): Promise<Row[]>;
  /** True when `insertMany` writes these rows in one atomic statement. */
  oneStatementInsert(model: ModelDef, rows: readonly Row[]): boolean;
  /** Writes `changes` to every row matching `where` (no changes: reads them) and returns them as stored. */
  update(model: ModelDef, where: Condition, changes: Row): Promise<Row[]>;
  /** Removes the rows matching `where` and returns them as they were; a still-referenced row refuses. */
  delete(model: ModelDef, where: Condition): Promise<Row[]>;
  /**
   * Makes the writes in one round trip as one atomic unit, returning each one's stored row or null,
   * where the backend can (PostgreSQL, outside a transaction); absent elsewhere.
   */
  readonly writeTogether?: (writes: readonly TableWrite[]) => Promise<(Row | null)[]>;
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>;
}
