import type { ExceptionConverter } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type * as MikroOrmPostgresql from '@mikro-orm/postgresql';
import type * as MikroOrmSqlite from '@mikro-orm/sqlite';
import type * as Pg from 'pg';
import { createRequire } from 'node:module';
import type { DatabaseConfig } from '../database-url.js';
import { knexRuntime } from './knex-runtime.js';
import { poolValidate } from './pool-connections.js';
import { requireFromMikroOrm } from './mikro-orm-core.js';

const require = createRequire(import.meta.url);

type SqlConfig = Extract<DatabaseConfig, { kind: 'sql' }>;

/** How long a statement may wait for a free connection of the pool before it is a 503. */
const ACQUIRE_TIMEOUT_MS = 5000;

/**
 * Every new SQLite connection enforces foreign keys and waits on a locked file instead of failing.
 * The pool holds one connection (`sqlite-shared-connection.ts` shares it between statements).
 */
const SQLITE_POOL = {
  min: 1,
  max: 1,
  afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null) => void) =>
    conn.run('pragma foreign_keys = on', (err) => (err ? done(err) : conn.run('pragma busy_timeout = 5000', done))),
};

/**
 * The pg type parsers MikroORM's PostgreSQL connection installs: dates, timestamps and intervals
 * stay PostgreSQL's text (the store's codec reads them, `sql-codec.ts`), and so do the elements of
 * their arrays.
 */
function pgTypes(): Pg.TypeOverrides {
  const { TypeOverrides } = require('pg') as typeof Pg;
  const parseArray = (requireFromMikroOrm<{ parse(text: string): unknown[] }>('@mikro-orm/postgresql', 'postgres-array')).parse;
  const types = new TypeOverrides();
  for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, (text: string) => text);
  for (const oid of [1182, 1115, 1185, 1187]) types.setTypeParser(oid, (text: string) => parseArray(text));
  return types;
}

/** node-pg's connection settings from the URL, read field by field as MikroORM reads them. */
function pgConnection(config: Extract<SqlConfig, { dialect: 'postgresql' }>): Record<string, unknown> {
  const url = new URL(config.url);
  return {
    host: decodeURIComponent(url.hostname),
    port: Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname).replace(/^\//, ''),
    types: pgTypes(),
    // A new connection that does not complete in 3 s is a 503 well within the 5 s a request may wait.
    connectionTimeoutMillis: 3000,
    // MikroORM carries the schema in the settings too (neither knex nor node-pg reads it there).
    ...(config.schema ? { schema: config.schema, options: `-c search_path=${config.schema}` } : {}),
  };
}

/**
 * The knex connection Portico's store, throttle and task queue run on: the same client MikroORM's
 * driver for the dialect would make (its knex dialect class, connection settings, type parsers and
 * pool), made without loading MikroORM. MikroORM comes when something needs it (a pending
 * migration, a driver error to read: `mikro-orm-database.ts`), and then reuses this connection.
 */
export function createKnex(config: SqlConfig): Knex {
  const { knexModule, dialect } = knexRuntime();
  const { knex } = knexModule;
  if (config.dialect === 'sqlite') {
    return knex({
      client: dialect('sqlite'),
      connection: { filename: config.file },
      pool: SQLITE_POOL,
      useNullAsDefault: true,
      acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    } as Knex.Config);
  }
  return knex({
    client: dialect('postgresql'),
    connection: pgConnection(config),
    // knex's public validate hook: a connection Portico discarded (or saw fail or end) is destroyed, not handed out.
    pool: { min: 0, max: 10, validate: poolValidate },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
    // knex warns on stdout when its pool discards a broken connection; the failed statement is
    // already answered (503) and logged by Portico, so the pool's own warning is not printed.
    log: { warn: () => undefined },
  } as Knex.Config);
}

/**
 * MikroORM's reading of the dialect's driver errors (its platform's ExceptionConverter), loaded
 * with the first error there is to read.
 */
export function lazyExceptionConverter(dialect: SqlConfig['dialect']): ExceptionConverter {
  let converter: ExceptionConverter | undefined;
  const load = (): ExceptionConverter => {
    if (dialect === 'sqlite') return new (require('@mikro-orm/sqlite') as typeof MikroOrmSqlite).SqliteExceptionConverter();
    return new (require('@mikro-orm/postgresql') as typeof MikroOrmPostgresql).PostgreSqlExceptionConverter();
  };
  return {
    convertException: (exception) => (converter ??= load()).convertException(exception),
  } as ExceptionConverter;
}
