import type { ColumnBuilder } from './column.js';
import type { RowPolicy, ScopeFn } from './row-policy.js';
import type { ServerSetFn } from './types.js';

/** The columns of a model declaration, by name. */
export type ColumnBuilders = Readonly<Record<string, ColumnBuilder>>;

/**
 * What a host app declares for one model; the registry resolves it into a ModelDef. Its type
 * parameters keep the table name, the columns' builders and the names of the columns set on
 * create, from which `Row`, `Insert` and `Patch` derive (typed-model.ts).
 */
export interface ModelDecl<Table extends string = string, Cols extends ColumnBuilders = ColumnBuilders, ServerSet extends string = string> {
  readonly table: Table;
  readonly columns: Readonly<Cols>;
  readonly manyToMany: Readonly<Record<string, { readonly target: string; readonly through: string }>>;
  readonly uniqueTogether: readonly (readonly string[])[];
  readonly setOnCreate?: Readonly<Record<ServerSet, ServerSetFn>>;
  /** The model's row policy (`ownedBy`, `scope` of ModelOptions). */
  readonly rowPolicy?: RowPolicy;
}

/** A model's options; column names are checked against `Cols` (its columns), `ServerSet` are the columns `setOnCreate` names. */
export interface ModelOptions<Cols extends ColumnBuilders = ColumnBuilders, ServerSet extends keyof Cols & string = keyof Cols & string> {
  /** Many-to-many relations by name, each stored in a junction table `through`. */
  manyToMany?: Record<string, { target: string; through: string }>;
  /** Column sets that must be unique together. */
  uniqueTogether?: (keyof Cols & string)[][];
  /**
   * Columns set on create from the caller on every surface (REST, GraphQL, admin, tasks), never
   * from a write body: `{ created_by_id: (who) => who.id }`.
   */
  setOnCreate?: Record<ServerSet, ServerSetFn>;
  /**
   * The row policy, on every surface: a caller reaches only the rows whose `ownedBy` column is
   * their id (an anonymous caller none; a create without the column gets the caller's id, one
   * naming another owner is refused). The admin shows superusers every row.
   */
  ownedBy?: keyof Cols & string;
  /** A further row filter per caller, on every surface, ANDed with `ownedBy`. */
  scope?: ScopeFn;
}

/**
 * Declares a model. Table and column names are the database names and the wire names.
 * A model whose columns include `deleted_at` is a soft-delete model.
 *
 * @example
 * const post = defineModel('post', {
 *   id: c.id(),
 *   title: c.text(),
 *   author_id: c.fk('author'),
 *   deleted_at: c.timestamp().nullable(),
 * }, { manyToMany: { tags: { target: 'tag', through: 'post_tags' } } });
 * const note = defineModel('note', { id: c.id(), owner_id: c.fk('auth_user'), body: c.text() }, { ownedBy: 'owner_id' });
 */
export function defineModel<Table extends string, Cols extends ColumnBuilders, ServerSet extends keyof Cols & string = never>(
  table: Table,
  columns: Cols,
  options: ModelOptions<Cols, ServerSet> = {},
): ModelDecl<Table, Cols, ServerSet> {
  return {
    table,
    columns: { ...columns } as Cols,
    manyToMany: { ...(options.manyToMany ?? {}) },
    uniqueTogether: (options.uniqueTogether ?? []).map((set) => [...set]),
    ...(options.setOnCreate ? { setOnCreate: { ...options.setOnCreate } } : {}),
    ...(options.ownedBy !== undefined || options.scope ? { rowPolicy: { ...(options.ownedBy !== undefined ? { ownedBy: options.ownedBy } : {}), ...(options.scope ? { scope: options.scope } : {}) } } : {}),
  };
}
