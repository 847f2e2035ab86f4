import type { AnySchema, Insert, Key, Patch, Row, ColumnName } from '../domain/model/typed-model.js';
import type { Row as AnyRow } from '../domain/model/types.js';
import type { ConditionOf, FindQueryOf, ReadOptionsOf } from '../domain/query/typed-query.js';
import type { WriteOptions } from './record-store.js';

/** The table names of schema `S`. */
export type TableOf<S> = keyof S & string;

/** One write of `writeTogether`, checked against the table's model. */
export type TypedWrite<S> = {
  [N in TableOf<S>]: { readonly insert: N; readonly row: Insert<S[N], S> } | { readonly update: N; readonly id: Key<S[N]>; readonly changes: Patch<S[N], S> };
}[TableOf<S>];

/**
 * A transaction's work. Written as a method's type so that its parameter is compared both ways:
 * an app typed by its models is still a `PorticoApp` (whose store takes any table).
 */
type TransactionWork<S, T> = { work(tx: TypedStore<S>): Promise<T> }['work'];

/**
 * The record store typed by the app's schema (`app.store`): the same object and contract as
 * `RecordStore`, with each table name, row, key, condition and column checked against the
 * model `defineModel` declared. An unknown table or column is a compile error.
 *
 * @example
 * const app = createApp({ database: 'memory:', models: [author, post] });
 * await app.open();
 * const row = await app.store.insert('post', { title: 'Hello', author_id: 1 }); // Row<typeof post>
 * // @ts-expect-error: no table `boook`
 * await app.store.insert('boook', { titel: 42 });
 */
export interface TypedStore<S = AnySchema> {
  /** Runs `work` in one transaction (see `RecordStore.transaction`). */
  transaction<T>(work: TransactionWork<S, T>): Promise<T>;
  insert<N extends TableOf<S>>(table: N, row: Insert<S[N], S>, options?: WriteOptions): Promise<Row<S[N], S>>;
  insertMany<N extends TableOf<S>>(table: N, rows: readonly Insert<S[N], S>[], options?: WriteOptions): Promise<Row<S[N], S>[]>;
  writeTogether(writes: readonly TypedWrite<S>[]): Promise<(AnyRow | null)[]>;
  update<N extends TableOf<S>>(table: N, id: Key<S[N]>, changes: Patch<S[N], S>, options?: WriteOptions): Promise<Row<S[N], S> | null>;
  updateWhere<N extends TableOf<S>>(table: N, where: ConditionOf<S[N], S>, changes: Patch<S[N], S>): Promise<Row<S[N], S>[]>;
  delete<N extends TableOf<S>>(table: N, id: Key<S[N]>, options?: WriteOptions): Promise<boolean>;
  restore<N extends TableOf<S>>(table: N, id: Key<S[N]>): Promise<Row<S[N], S> | null>;
  getById<N extends TableOf<S>>(table: N, id: Key<S[N]>, options?: ReadOptionsOf<S[N]>): Promise<Row<S[N], S> | null>;
  getManyByIds<N extends TableOf<S>>(table: N, ids: readonly Key<S[N]>[], options?: ReadOptionsOf<S[N]>): Promise<Row<S[N], S>[]>;
  findReferenced<N extends TableOf<S>>(table: N, column: ColumnName<S[N]>, where: ConditionOf<S[N], S>): Promise<Row<S[N], S>[]>;
  find<N extends TableOf<S>>(table: N, query?: FindQueryOf<S[N], S>): Promise<Row<S[N], S>[]>;
  count<N extends TableOf<S>>(table: N, where?: ConditionOf<S[N], S>, options?: { readonly withDeleted?: boolean }): Promise<number>;
  ping(): Promise<void>;
}
