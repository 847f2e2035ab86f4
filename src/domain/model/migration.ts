/** SQL dialects Portico speaks. */
export type Dialect = 'sqlite' | 'postgresql';

/**
 * One schema migration, recorded by name in the `fw_migrations` ledger once applied.
 * `createTables` creates registered models' tables (DDL derived per dialect from the
 * registry); `sql` adds raw statements per dialect, run after the tables.
 *
 * @example
 * { name: 'app_0001_initial', createTables: ['author', 'post'] }
 */
export interface MigrationDef {
  readonly name: string;
  readonly createTables?: readonly string[];
  readonly sql?: Partial<Record<Dialect, readonly string[]>>;
}
