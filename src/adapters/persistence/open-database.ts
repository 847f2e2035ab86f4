import type { MigrationDef } from '../../domain/model/migration.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { MigrationSource } from '../../ports/migration-source.js';
import { RecordService, type RecordServiceDeps } from '../../application/records/record-service.js';
import type { DatabaseConfig } from './database-url.js';
import { MemoryTableStore } from './memory/memory-table-store.js';
import { openSqlDatabase, type MigrationPlanEntry, type OpenOptions, type SqlDatabase } from './sql/mikro-orm-database.js';
import { SqlTableStore } from './sql/sql-table-store.js';

/** The records of a backend, with its schema management. */
export interface Database extends MigrationSource {
  readonly store: RecordStore;
  /** The SQL backend, when there is one (MikroORM instance, knex, dialect). */
  readonly sql?: SqlDatabase;
  /** Applies pending migrations (up to `to`, or back to it when it is applied); returns the names applied or reversed. */
  migrate(to?: string): Promise<string[]>;
  /** What `migrate(to)` would run (SQL backends; the in-memory store has nothing to run). */
  plan(to?: string): Promise<MigrationPlanEntry[]>;
  close(): Promise<void>;
}

/**
 * Opens the configured backend. The in-memory store needs no migrations: its tables come
 * from the registry and every migration counts as applied.
 */
export async function openDatabase(config: DatabaseConfig, deps: RecordServiceDeps, migrations: readonly MigrationDef[], options: OpenOptions = {}): Promise<Database> {
  if (config.kind === 'memory') {
    // The store's tables are the registry's: it never drifts.
    const tables = new Map(deps.registry.all().map((m) => [m.table, { columns: new Map(m.columns.map((c) => [c.name, { nullable: c.nullable }])) }]));
    return {
      store: memoryRecords(deps),
      migrate: async () => [],
      plan: async () => [],
      pending: async () => [],
      executed: async () => migrations.map((m) => m.name),
      schema: async () => tables,
      close: async () => undefined,
    };
  }
  const sql = await openSqlDatabase(config, deps.registry, migrations, options);
  return {
    store: new RecordService(deps, new SqlTableStore(sql.knex, sql.dialect, sql.exceptions, false, config.dialect === 'postgresql' ? config : undefined)),
    sql,
    migrate: (to) => sql.migrate(to),
    plan: (to) => sql.plan(to),
    pending: () => sql.pending(),
    schema: () => sql.schema(),
    executed: () => sql.executed(),
    close: () => sql.close(),
  };
}

/** Records held in process memory (tests, throwaway apps): the record service over a `MemoryTableStore`. */
export function memoryRecords(deps: RecordServiceDeps): RecordService {
  return new RecordService(deps, new MemoryTableStore(deps.registry));
}
