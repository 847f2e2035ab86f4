import { accessSync, constants, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Constructor, ExceptionConverter, MikroORM, Options } from '@mikro-orm/core';
import type { Knex, SqlEntityManager } from '@mikro-orm/knex';
import type * as MikroOrmMigrations from '@mikro-orm/migrations';
import type { Migration, Migrator } from '@mikro-orm/migrations';
import type * as MikroOrmPostgresql from '@mikro-orm/postgresql';
import type * as MikroOrmSqlite from '@mikro-orm/sqlite';
import { DatabaseUnavailable } from '../../../domain/errors/domain-error.js';
import type { Dialect, MigrationDef } from '../../../domain/model/migration.js';
import type { ModelRegistry } from '../../../domain/model/model-registry.js';
import type { MigrationSource } from '../../../ports/migration-source.js';
import { describeDatabase, type DatabaseConfig } from '../database-url.js';
import { quote } from './condition-sql.js';
import { createTableSql, orderByDependencies } from './ddl.js';
import { mikroOrmCore } from './mikro-orm-core.js';
import { convertDriverError } from './sql-error-translation.js';
import { finalizeStatements } from './sql-executor.js';

// The driver and migration packages are required on first use, for the reason `mikro-orm-core.ts` gives.
const require = createRequire(import.meta.url);
const { MikroORM: Orm, TableNotFoundException } = mikroOrmCore;

/** Lifts the per-request statement and lock timeouts for the rest of a transaction (schema changes). */
const UNLIMITED = ['set local statement_timeout = 0', 'set local lock_timeout = 0'];

/**
 * MikroORM's migrator lists the tables of every schema of the database (casting each name to
 * `regclass`); a schema another client drops meanwhile fails that listing with 3F000 "schema …
 * does not exist" although nothing is wrong with ours. Such a failure is retried (three times,
 * after 50, 100 and 200 ms): the migration runs in a transaction, so a failed attempt left nothing.
 */
export async function whileSchemasVanish<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      // umzug and MikroORM wrap the driver's error (`cause`, `previous`).
      const e = error as { code?: string; cause?: { code?: string }; previous?: { code?: string } };
      if (![e.code, e.cause?.code, e.previous?.code].includes('3F000') || attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    }
  }
}

/** The ledger of applied migrations (SPEC "Exposure controls": fw_migrations is block-listed). */
export const MIGRATION_LEDGER = 'fw_migrations';

/** An open SQL database: the MikroORM instance, its knex connection and the migrator. */
export interface SqlDatabase extends MigrationSource {
  readonly orm: MikroORM;
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** MikroORM's reading of this dialect's driver errors (its platform's ExceptionConverter). */
  readonly exceptions: ExceptionConverter;
  /** Applies pending migrations in order; returns the names applied. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

function migrationClass(Base: typeof Migration, def: MigrationDef, registry: ModelRegistry, dialect: Dialect): Constructor<Migration> {
  return class extends Base {
    override up(): void {
      // Migrations may wait for locks and run long: the per-request limits do not apply to them.
      if (dialect === 'postgresql') for (const sql of UNLIMITED) this.addSql(sql);
      const models = orderByDependencies((def.createTables ?? []).map((table) => registry.require(table)));
      for (const model of models) {
        for (const sql of createTableSql(model, dialect)) this.addSql(sql);
      }
      for (const sql of def.sql?.[dialect] ?? []) this.addSql(sql);
    }
  };
}

/**
 * MikroORM's migrator, loaded only when a migration is pending (it brings umzug and some 250
 * modules: most starts find the ledger complete and never need it).
 */
async function loadMigrator(orm: MikroORM, registry: ModelRegistry, migrations: readonly MigrationDef[], dialect: Dialect): Promise<Migrator> {
  const { Migration, Migrator } = require('@mikro-orm/migrations') as typeof MikroOrmMigrations;
  orm.config.set('migrations', {
    ...orm.config.get('migrations'),
    tableName: MIGRATION_LEDGER,
    transactional: true,
    allOrNothing: true,
    snapshot: false,
    silent: true,
    migrationsList: migrations.map((def) => ({ name: def.name, class: migrationClass(Migration, def, registry, dialect) })),
  });
  return new Migrator(orm.em as SqlEntityManager);
}

/** The names recorded in the ledger, in order (none when the ledger does not exist yet). */
async function ledger(knex: Knex, exceptions: ExceptionConverter): Promise<string[]> {
  try {
    const rows = (await knex(MIGRATION_LEDGER).select('name').orderBy('id')) as { name: string }[];
    return rows.map((r) => r.name);
  } catch (error) {
    // Only a missing ledger table means "nothing has run"; any other failure is not an answer.
    if (convertDriverError(exceptions, error) instanceof TableNotFoundException) return [];
    throw error;
  }
}

async function ormOptions(config: Extract<DatabaseConfig, { kind: 'sql' }>): Promise<Options> {
  const common = {
    // No entity is discovered: Portico's store renders its own SQL on MikroORM's connection and the
    // migrator runs Portico's DDL, so nothing reads MikroORM's metadata, and discovering one
    // entity per table (reflection, generated hydrators) was some 50 ms of every start.
    entities: [],
    allowGlobalContext: true,
    debug: false,
    discovery: { warnWhenNoEntities: false },
  };
  // Only the dialect in use is loaded.
  if (config.dialect === 'sqlite') {
    const { SqliteDriver } = require('@mikro-orm/sqlite') as typeof MikroOrmSqlite;
    return {
      ...common,
      driver: SqliteDriver,
      dbName: config.file,
      driverOptions: { acquireConnectionTimeout: 5000 },
      pool: {
        min: 1,
        max: 1,
        // Every new connection enforces foreign keys and waits on a locked file instead of failing.
        afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null) => void) =>
          conn.run('pragma foreign_keys = on', (err) => (err ? done(err) : conn.run('pragma busy_timeout = 5000', done))),
      },
    } as unknown as Options;
  }
  const { PostgreSqlDriver } = require('@mikro-orm/postgresql') as typeof MikroOrmPostgresql;
  return {
    ...common,
    driver: PostgreSqlDriver,
    clientUrl: config.url,
    ...(config.schema ? { schema: config.schema } : {}),
    pool: { min: 0, max: 10 },
    driverOptions: {
      acquireConnectionTimeout: 5000,
      // knex warns on stdout when its pool discards a broken connection; the failed statement is
      // already answered (503) and logged by Portico, so the pool's own warning is not printed.
      log: { warn: () => undefined },
      connection: {
        // A new connection that does not complete in 3 s is a 503 well within the 5 s a request may wait.
        connectionTimeoutMillis: 3000,
        ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
      },
    },
  } as unknown as Options;
}

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  '28P01': 'authentication failed',
  '28000': 'authentication failed',
  '3D000': 'database does not exist',
  SQLITE_CANTOPEN: 'cannot open the file',
};

/** A short, credential-free reason for a failed connection. */
function unreachableReason(error: unknown): string {
  const e = error as { code?: string; errors?: { code?: string }[]; message?: string };
  const code = e.code ?? e.errors?.[0]?.code;
  if (code && REASONS[code]) return REASONS[code];
  return /timeout/i.test(e.message ?? '') ? 'timed out' : 'unreachable';
}

/**
 * Opens a SQLite or PostgreSQL database through MikroORM and checks it answers. An unreachable
 * database rejects with DatabaseUnavailable carrying a one-line message without credentials.
 */
export async function openSqlDatabase(
  config: Extract<DatabaseConfig, { kind: 'sql' }>,
  registry: ModelRegistry,
  migrations: readonly MigrationDef[],
): Promise<SqlDatabase> {
  const where = describeDatabase(config);
  if (config.dialect === 'sqlite' && config.file !== ':memory:') {
    try {
      mkdirSync(dirname(config.file), { recursive: true });
      accessSync(dirname(config.file), constants.W_OK);
    } catch {
      throw new DatabaseUnavailable(`cannot open the database at ${where} (the directory is not writable)`);
    }
  }
  let orm: MikroORM;
  try {
    orm = await Orm.init(await ormOptions(config));
  } catch (error) {
    throw new DatabaseUnavailable(`cannot open the database at ${where} (${unreachableReason(error)})`);
  }
  const knex = (orm.em as unknown as SqlEntityManager).getKnex();
  const exceptions = orm.em.getPlatform().getExceptionConverter();
  try {
    if (config.dialect === 'postgresql' && config.schema) {
      const schema = config.schema;
      await knex.transaction(async (trx) => {
        for (const sql of UNLIMITED) await trx.raw(sql);
        await trx.raw(`create schema if not exists ${quote(schema)}`);
      });
    }
    await knex.raw('select 1');
  } catch (error) {
    await orm.close(true).catch(() => undefined);
    throw new DatabaseUnavailable(`cannot reach the database at ${where} (${unreachableReason(error)})`);
  }
  let migrator: Promise<Migrator> | undefined;
  const pending = async () => {
    const done = new Set(await ledger(knex, exceptions));
    return migrations.map((m) => m.name).filter((name) => !done.has(name));
  };
  return {
    orm,
    knex,
    dialect: config.dialect,
    exceptions,
    async migrate() {
      if ((await pending()).length === 0) return [];
      migrator ??= loadMigrator(orm, registry, migrations, config.dialect);
      const run = migrator;
      return (await whileSchemasVanish(async () => (await run).up())).map((m) => m.name);
    },
    pending,
    executed: () => ledger(knex, exceptions),
    async close() {
      // A connection that cannot be acquired any more has no statements left to finalize: close regardless.
      if (config.dialect === 'sqlite') await finalizeStatements(knex).catch(() => undefined);
      await orm.close(true);
    },
  };
}
