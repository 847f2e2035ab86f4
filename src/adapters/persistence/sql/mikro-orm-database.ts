import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
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
import { MigrationError, type ActualTable } from '../../../domain/model/schema-state.js';
import type { ModelRegistry } from '../../../domain/model/model-registry.js';
import type { MigrationSource } from '../../../ports/migration-source.js';
import { describeDatabase, type DatabaseConfig } from '../database-url.js';
import { quote } from './condition-sql.js';
import type { PlanStep } from './ddl.js';
import { describeStep, planMigrations, type PlannedMigration } from './migration-plan.js';
import { mikroOrmCore } from './mikro-orm-core.js';
import { createKnex, lazyExceptionConverter } from './sql-connection.js';
import { convertDriverError } from './sql-error-translation.js';
import { finalizeStatements } from './sql-executor.js';

// The driver and migration packages are required on first use, for the reason `mikro-orm-core.ts` gives.
const require = createRequire(import.meta.url);

type SqlConfig = Extract<DatabaseConfig, { kind: 'sql' }>;

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

/** One migration `migrate` would apply or reverse, with its statements. */
export interface MigrationPlanEntry {
  readonly name: string;
  readonly direction: 'up' | 'down';
  readonly steps: readonly string[];
}

/** An open SQL database: its knex connection, MikroORM on it and the migrator. */
export interface SqlDatabase extends MigrationSource {
  /** MikroORM on this database's connection, made on first call. */
  orm(): Promise<MikroORM>;
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** MikroORM's reading of this dialect's driver errors (its platform's ExceptionConverter). */
  readonly exceptions: ExceptionConverter;
  /**
   * Applies pending migrations in order, up to `to` when given; when `to` is applied already,
   * reverses every migration after it instead. Returns the names applied or reversed.
   */
  migrate(to?: string): Promise<string[]>;
  /** What `migrate(to)` would run, as SQL text per migration. */
  plan(to?: string): Promise<MigrationPlanEntry[]>;
  close(): Promise<void>;
}

/** Runs plan steps in the migration's transaction, in order (a data step sees the statements before it). */
async function runSteps(migration: Migration, steps: readonly PlanStep[], dialect: Dialect, name: string): Promise<void> {
  const execute = (sql: string, params?: readonly unknown[]) => migration.execute(sql, params ? [...params] : undefined) as Promise<Record<string, unknown>[]>;
  // Migrations may wait for locks and run long: the per-request limits do not apply to them.
  if (dialect === 'postgresql') for (const sql of UNLIMITED) await execute(sql);
  for (const step of steps) {
    if (typeof step === 'string') await execute(step);
    else await step({ dialect, execute });
  }
  if (dialect === 'sqlite') {
    // Foreign keys are off while SQLite migrates (a table rebuild drops a referenced table): the
    // rows are checked before the transaction commits instead.
    const broken = await execute('pragma foreign_key_check');
    if (broken.length > 0) throw new MigrationError(`migration ${name} leaves rows whose foreign key has no target (table ${String(broken[0]?.table)})`);
  }
}

function migrationClass(Base: typeof Migration, planned: PlannedMigration, dialect: Dialect): Constructor<Migration> {
  return class extends Base {
    override async up(): Promise<void> {
      await runSteps(this, planned.up, dialect, planned.name);
    }
    override async down(): Promise<void> {
      await runSteps(this, planned.down(), dialect, planned.name);
    }
  };
}

/**
 * MikroORM's migrator, loaded only when a migration is pending (it brings umzug and some 250
 * modules: most starts find the ledger complete and never need it).
 */
async function loadMigrator(orm: MikroORM, plan: readonly PlannedMigration[], dialect: Dialect): Promise<Migrator> {
  const { Migration, Migrator } = require('@mikro-orm/migrations') as typeof MikroOrmMigrations;
  orm.config.set('migrations', {
    ...orm.config.get('migrations'),
    tableName: MIGRATION_LEDGER,
    transactional: true,
    allOrNothing: true,
    snapshot: false,
    silent: true,
    migrationsList: plan.map((planned) => ({ name: planned.name, class: migrationClass(Migration, planned, dialect) })),
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
    if (convertDriverError(exceptions, error) instanceof mikroOrmCore().TableNotFoundException) return [];
    throw error;
  }
}

/**
 * MikroORM's options: its driver for the dialect (only that one is loaded) on Portico's connection
 * (`knex`, made by `createKnex`), or, without one, on a connection of its own.
 */
function ormOptions(config: SqlConfig, knex?: Knex): Options {
  const driver =
    config.dialect === 'sqlite'
      ? (require('@mikro-orm/sqlite') as typeof MikroOrmSqlite).SqliteDriver
      : (require('@mikro-orm/postgresql') as typeof MikroOrmPostgresql).PostgreSqlDriver;
  return {
    driver,
    ...(config.dialect === 'sqlite' ? { dbName: config.file } : { clientUrl: config.url, ...(config.schema ? { schema: config.schema } : {}) }),
    // No entity is discovered: Portico's store renders its own SQL and the migrator runs Portico's
    // DDL, so nothing reads MikroORM's metadata, and discovering one entity per table (reflection,
    // generated hydrators) was some 50 ms of every start.
    entities: [],
    allowGlobalContext: true,
    debug: false,
    discovery: { warnWhenNoEntities: false },
    // MikroORM reuses a knex instance given as its driver options; that database already answered.
    ...(knex ? { driverOptions: knex, ensureDatabase: false } : {}),
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

/** Creates the schema named in the URL if need be, and checks the database answers. */
async function check(knex: Knex, config: SqlConfig): Promise<void> {
  if (config.dialect === 'postgresql' && config.schema) {
    const schema = config.schema;
    await knex.transaction(async (trx) => {
      for (const sql of UNLIMITED) await trx.raw(sql);
      await trx.raw(`create schema if not exists ${quote(schema)}`);
    });
  }
  await knex.raw('select 1');
}

/** A new connection to the database, checked (and destroyed when the check fails). */
async function checkedKnex(config: SqlConfig): Promise<Knex> {
  const knex = createKnex(config);
  try {
    await check(knex, config);
    return knex;
  } catch (error) {
    await knex.destroy().catch(() => undefined);
    throw error;
  }
}

/**
 * Portico's connection to the database, checked. A PostgreSQL database that does not exist is an
 * error naming it, unless `create` asks for it: then MikroORM creates it (its `ensureDatabase`).
 */
async function connect(config: SqlConfig, where: string, create: boolean): Promise<Knex> {
  const unavailable = (error: unknown) => new DatabaseUnavailable(`cannot open the database at ${where} (${unreachableReason(error)})`);
  try {
    return await checkedKnex(config);
  } catch (error) {
    if (config.dialect !== 'postgresql' || (error as { code?: string }).code !== '3D000') throw unavailable(error);
    if (!create) throw new DatabaseUnavailable(`the database at ${where} does not exist (create it, or start with --create-db to create it)`, true);
  }
  try {
    await (await mikroOrmCore().MikroORM.init(ormOptions(config))).close(true);
    return await checkedKnex(config);
  } catch (error) {
    throw unavailable(error);
  }
}

/** A SQLite file's folder must exist (a typo must not start an app on an empty schema) unless `create` asks for it. */
function checkSqliteFolder(file: string, where: string, create: boolean): void {
  const folder = dirname(file);
  if (create) mkdirSync(folder, { recursive: true });
  else if (!existsSync(folder)) throw new DatabaseUnavailable(`the folder of the database at ${where} does not exist (create it, or start with --create-db to create it)`, true);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new DatabaseUnavailable(`cannot open the database at ${where} (the directory is not writable)`);
  }
}

/** The columns of every table of the database (SQLite: one pragma join; PostgreSQL: the current schema's). */
async function introspect(knex: Knex, dialect: Dialect): Promise<Map<string, ActualTable>> {
  const rows = (
    dialect === 'sqlite'
      ? await knex.raw(`select m.name as "table", p.name as "column", p."notnull" as "notnull" from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table'`)
      : ((await knex.raw(`select table_name as "table", column_name as "column", case when is_nullable = 'NO' then 1 else 0 end as "notnull" from information_schema.columns where table_schema = current_schema()`)) as { rows: unknown[] }).rows
  ) as { table: string; column: string; notnull: number | string }[];
  const out = new Map<string, Map<string, { nullable: boolean }>>();
  for (const row of rows) {
    let columns = out.get(row.table);
    if (!columns) out.set(row.table, (columns = new Map()));
    columns.set(row.column, { nullable: Number(row.notnull) === 0 });
  }
  return new Map([...out].map(([table, columns]) => [table, { columns }]));
}

/** Options of `openSqlDatabase`. */
export interface OpenOptions {
  /** Create a missing PostgreSQL database or SQLite folder (default false: a missing one is an error). */
  readonly create?: boolean;
}

/**
 * Opens a SQLite or PostgreSQL database and checks it answers. An unreachable or missing database
 * rejects with DatabaseUnavailable carrying a one-line message without credentials. MikroORM is
 * loaded when first needed (a pending migration, a driver error to read): a start on a migrated
 * database does without it.
 */
export async function openSqlDatabase(config: SqlConfig, registry: ModelRegistry, migrations: readonly MigrationDef[], options: OpenOptions = {}): Promise<SqlDatabase> {
  const where = describeDatabase(config);
  const create = options.create === true;
  if (config.dialect === 'sqlite' && config.file !== ':memory:') checkSqliteFolder(config.file, where, create);
  const knex = await connect(config, where, create);
  const exceptions = lazyExceptionConverter(config.dialect);
  let orm: Promise<MikroORM> | undefined;
  // A failed attempt is not kept: the next caller tries again.
  const ormOnKnex = () =>
    (orm ??= mikroOrmCore()
      .MikroORM.init(ormOptions(config, knex))
      .catch((error: unknown) => {
        orm = undefined;
        throw error;
      }));
  let plan: PlannedMigration[] | undefined;
  const planned = () => (plan ??= planMigrations(migrations, registry, config.dialect));
  let migrator: Promise<Migrator> | undefined;
  const loaded = () => (migrator ??= ormOnKnex().then((instance) => loadMigrator(instance, planned(), config.dialect)));
  const executed = () => ledger(knex, exceptions);
  const pending = async () => {
    const done = new Set(await executed());
    return migrations.map((m) => m.name).filter((name) => !done.has(name));
  };
  /** Runs the migrator with SQLite's foreign keys off (a table rebuild drops a referenced table; rows are checked before commit). */
  const run = async (work: (m: Migrator) => Promise<{ name: string }[]>): Promise<string[]> => {
    const instance = await loaded();
    if (config.dialect === 'sqlite') await knex.raw('pragma foreign_keys = off');
    try {
      return (await whileSchemasVanish(() => work(instance))).map((m) => m.name);
    } finally {
      if (config.dialect === 'sqlite') await knex.raw('pragma foreign_keys = on');
    }
  };
  return {
    orm: ormOnKnex,
    knex,
    dialect: config.dialect,
    exceptions,
    async migrate(to?: string) {
      const done = await executed();
      if (to !== undefined && !migrations.some((m) => m.name === to)) throw new MigrationError(`no migration named ${to}`);
      if (to !== undefined && done.includes(to)) {
        // Back to `to`: every migration applied after it is reversed, newest first.
        const after = done.slice(done.indexOf(to) + 1);
        if (after.length === 0) return [];
        for (const name of after) planned().find((p) => p.name === name)?.down();
        return run((m) => m.down({ to: after[0] as string }));
      }
      if ((await pending()).length === 0) return [];
      return run((m) => m.up(to !== undefined ? { to } : undefined));
    },
    async plan(to?: string) {
      const done = await executed();
      const steps = (name: string, direction: 'up' | 'down') => {
        const p = planned().find((m) => m.name === name);
        return p ? (direction === 'up' ? p.up : p.down()).map(describeStep) : [];
      };
      if (to !== undefined && done.includes(to)) return done.slice(done.indexOf(to) + 1).reverse().map((name) => ({ name, direction: 'down' as const, steps: steps(name, 'down') }));
      const names = migrations.map((m) => m.name);
      const upTo = to === undefined ? names.length : names.indexOf(to) + 1;
      return names.slice(0, upTo).filter((name) => !done.includes(name)).map((name) => ({ name, direction: 'up' as const, steps: steps(name, 'up') }));
    },
    pending,
    executed,
    schema: () => introspect(knex, config.dialect),
    async close() {
      // A connection that cannot be acquired any more has no statements left to finalize: close regardless.
      if (config.dialect === 'sqlite') await finalizeStatements(knex).catch(() => undefined);
      // MikroORM, once made, closes the connection it was given.
      const instance = await orm?.catch(() => undefined);
      if (instance) await instance.close(true);
      else await knex.destroy();
    },
  };
}
