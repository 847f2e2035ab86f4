import type { MigrationDef } from '../../domain/model/migration.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { MigrationSource } from '../../ports/migration-source.js';
import type { StoreDeps } from './base-record-store.js';
import type { DatabaseConfig } from './database-url.js';
import { MemoryRecordStore } from './memory/memory-record-store.js';
import { openSqlDatabase, type SqlDatabase } from './sql/mikro-orm-database.js';
import { SqlRecordStore } from './sql/sql-record-store.js';

/** A store with its schema management, whatever the backend. */
export interface Database extends MigrationSource {
  readonly store: RecordStore;
  /** The SQL backend, when there is one (MikroORM instance, knex, dialect). */
  readonly sql?: SqlDatabase;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Opens the configured backend. The in-memory store needs no migrations: its tables come
 * from the registry and every migration counts as applied.
 */
export async function openDatabase(config: DatabaseConfig, deps: StoreDeps, migrations: readonly MigrationDef[]): Promise<Database> {
  if (config.kind === 'memory') {
    return {
      store: new MemoryRecordStore(deps),
      migrate: async () => [],
      pending: async () => [],
      executed: async () => migrations.map((m) => m.name),
      close: async () => undefined,
    };
  }
  const sql = await openSqlDatabase(config, deps.registry, migrations);
  return {
    store: new SqlRecordStore(deps, sql.knex, sql.dialect, sql.exceptions, false, config.dialect === 'postgresql' ? config : undefined),
    sql,
    migrate: () => sql.migrate(),
    pending: () => sql.pending(),
    executed: () => sql.executed(),
    close: () => sql.close(),
  };
}
