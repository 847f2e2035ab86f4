import { createRequire } from 'node:module';
import type * as MikroOrmCore from '@mikro-orm/core';
import type { Options } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../../src/adapters/persistence/database-url.js';
import { createKnex } from '../../../src/adapters/persistence/sql/sql-connection.js';

const require = createRequire(import.meta.url);
type SqlConfig = Extract<ReturnType<typeof parseDatabaseUrl>, { kind: 'sql' }>;

/**
 * The knex instance MikroORM's own driver makes from the options Portico gave it before it made
 * the connection itself (`git show bc4f4db:src/adapters/persistence/sql/mikro-orm-database.ts`),
 * without connecting.
 */
async function mikroOrmKnex(config: SqlConfig): Promise<{ knex: Knex; close: () => Promise<void> }> {
  const { MikroORM } = require('@mikro-orm/core') as typeof MikroOrmCore;
  const common = { entities: [], allowGlobalContext: true, debug: false, discovery: { warnWhenNoEntities: false }, connect: false };
  const options =
    config.dialect === 'sqlite'
      ? { ...common, driver: require('@mikro-orm/sqlite').SqliteDriver, dbName: config.file, driverOptions: { acquireConnectionTimeout: 5000 }, pool: { min: 1, max: 1 } }
      : {
          ...common,
          driver: require('@mikro-orm/postgresql').PostgreSqlDriver,
          clientUrl: config.url,
          ...(config.schema ? { schema: config.schema } : {}),
          pool: { min: 0, max: 10 },
          driverOptions: {
            acquireConnectionTimeout: 5000,
            connection: { connectionTimeoutMillis: 3000, ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}) },
          },
        };
  const orm = await MikroORM.init(options as unknown as Options);
  return { knex: (orm.em as unknown as { getKnex(): Knex }).getKnex(), close: () => orm.close(true) };
}

interface PgTypes {
  getTypeParser(oid: number, format: string): (text: string) => unknown;
}

/** What a knex instance will connect with, as comparable data (type parsers by what they make of samples). */
function settings(knex: Knex): Record<string, unknown> {
  const client = knex.client as unknown as { config: Record<string, unknown>; connectionSettings: Record<string, unknown>; constructor: { name: string } };
  const { types, password, ...connection } = client.connectionSettings;
  const pool = client.config.pool as { min: number; max: number };
  const parsed = (oid: number, text: string) => (types as PgTypes | undefined)?.getTypeParser(oid, 'text')(text);
  return {
    dialect: client.constructor.name,
    connection,
    password,
    pool: { min: pool.min, max: pool.max },
    acquireConnectionTimeout: client.config.acquireConnectionTimeout,
    useNullAsDefault: client.config.useNullAsDefault,
    parsers: types
      ? {
          timestamptz: parsed(1184, '2026-01-02 03:04:05.678+00'),
          timestamp: parsed(1114, '2026-01-02 03:04:05'),
          date: parsed(1082, '2026-01-02'),
          interval: parsed(1186, '1 day'),
          timestamptzArray: parsed(1185, '{"2026-01-02 03:04:05+00",NULL}'),
          int8: parsed(20, '9007199254740993'),
          json: parsed(114, '{"a":1}'),
        }
      : undefined,
  };
}

const ADDRESSES = [
  'sqlite:./data/app.db',
  'sqlite::memory:',
  'postgres://postgres@127.0.0.1:5432/test',
  'postgresql://u%40x:p%3Aw%2F@db.example/my%20db?schema=tenant_a',
  'postgres://db.example:6543/app?statement_timeout=2000',
];

describe("Portico's knex connection is the one MikroORM's driver would make", () => {
  for (const address of ADDRESSES) {
    it(address, async () => {
      const config = parseDatabaseUrl(address) as SqlConfig;
      const ours = createKnex(config);
      const theirs = await mikroOrmKnex(config);
      try {
        expect(settings(ours)).toEqual(settings(theirs.knex));
      } finally {
        await ours.destroy();
        await theirs.close();
      }
    });
  }
});
