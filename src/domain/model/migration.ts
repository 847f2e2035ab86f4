import type { ColumnType, JsonValue, PrimaryKeyKind } from './types.js';

/** SQL dialects Portico speaks. */
export type Dialect = 'sqlite' | 'postgresql';

/** A column as the database holds it: what a migration creates, alters and compares. */
export interface ColumnState {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  readonly primary?: boolean;
  readonly pkKind?: PrimaryKeyKind;
  readonly unique?: boolean;
  readonly uniqueIgnoreCase?: boolean;
  /** A literal default held by the database (`now` and `uuid` defaults are applied by the store). */
  readonly default?: JsonValue;
  readonly references?: { readonly table: string; readonly column: string };
}

/** A table as the database holds it. */
export interface TableState {
  readonly table: string;
  readonly columns: readonly ColumnState[];
  readonly uniqueTogether?: readonly (readonly string[])[];
}

/** What a data step of a migration may do: run SQL in the migration's transaction. */
export interface MigrationStepContext {
  readonly dialect: Dialect;
  /** Runs one statement with `?` placeholders in the migration's transaction; resolves with its rows. */
  execute(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

/** A data migration step: a function run in the migration's transaction. */
export type MigrationStep = (ctx: MigrationStepContext) => Promise<void> | void;

/**
 * One change of a generated migration (`portico makemigrations` writes them). Every operation
 * has an up and a down for SQLite and PostgreSQL, rendered when it runs; `sql` and `run` are
 * reversible only when they carry their `down`.
 */
export type MigrationOperation =
  | { readonly op: 'createTable'; readonly table: TableState }
  | { readonly op: 'dropTable'; readonly table: TableState }
  | { readonly op: 'addColumn'; readonly table: string; readonly column: ColumnState }
  | { readonly op: 'dropColumn'; readonly table: string; readonly column: ColumnState }
  | { readonly op: 'renameColumn'; readonly table: string; readonly from: string; readonly to: string }
  | { readonly op: 'alterColumn'; readonly table: string; readonly from: ColumnState; readonly to: ColumnState }
  | { readonly op: 'alterUniqueTogether'; readonly table: string; readonly from: readonly (readonly string[])[]; readonly to: readonly (readonly string[])[] }
  | { readonly op: 'sql'; readonly up: Partial<Record<Dialect, readonly string[]>>; readonly down?: Partial<Record<Dialect, readonly string[]>> }
  | { readonly op: 'run'; readonly up: MigrationStep; readonly down?: MigrationStep };

/**
 * One schema migration, recorded by name in the `fw_migrations` ledger once applied.
 * `operations` are the changes `portico makemigrations` generates (and data steps a developer
 * adds). The older forms stay: `createTables` creates registered models' tables as the
 * registry defines them, `sql` adds raw statements per dialect, run after the tables.
 *
 * @example
 * { name: 'app_0002_post_pages', operations: [{ op: 'addColumn', table: 'post', column: { name: 'pages', type: 'int', nullable: true } }] }
 */
export interface MigrationDef {
  readonly name: string;
  readonly operations?: readonly MigrationOperation[];
  readonly createTables?: readonly string[];
  readonly sql?: Partial<Record<Dialect, readonly string[]>>;
}
