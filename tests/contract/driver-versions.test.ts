import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';

// The driver packages this contract run loaded, resolved the way Portico resolves them: pg from
// Portico's SQL adapter and from knex (the pool's client), knex from @mikro-orm/knex
// (`knex-runtime.ts`). `npm run test:newest-patches` runs this suite on the newest patch releases
// and sets PORTICO_EXPECT_PG / PORTICO_EXPECT_KNEX: the run must have loaded exactly those.
const fromPortico = createRequire(new URL('../../src/adapters/persistence/sql/sql-connection.ts', import.meta.url));
const fromMikroOrm = createRequire(fromPortico.resolve('@mikro-orm/knex'));
const fromKnex = createRequire(fromMikroOrm.resolve('knex'));
const versionOf = (from: NodeJS.Require, name: string): string => (from(`${name}/package.json`) as { version: string }).version;

const loaded = {
  pg: versionOf(fromPortico, 'pg'),
  pgOfKnex: versionOf(fromKnex, 'pg'),
  knex: versionOf(fromMikroOrm, 'knex'),
  mikroOrm: versionOf(fromPortico, '@mikro-orm/knex'),
  sqlite3: versionOf(fromPortico, 'sqlite3'),
};
const pg = await postgresAvailable();

describe('the driver packages of this run', () => {
  it('are one pg (Portico and knex alike), and the versions a newest-patch run asked for', async () => {
    const servers: string[] = [];
    for (const backend of ['sqlite', ...(pg ? (['postgresql'] as const) : [])] as const) {
      const t = await openTestDatabase(backend);
      try {
        const sql = t.db.sql;
        if (!sql) throw new Error(`${backend} opened without SQL`);
        // knex answers a raw select with the rows on SQLite, with pg's result on PostgreSQL.
        const raw = (await sql.knex.raw(backend === 'sqlite' ? 'select sqlite_version() as v' : "select current_setting('server_version') as v")) as unknown;
        const rows = (Array.isArray(raw) ? raw : (raw as { rows: unknown[] }).rows) as { v: string }[];
        servers.push(`${backend} ${rows[0]?.v ?? '?'}`);
      } finally {
        await t.close();
      }
    }
    // The line a reader of the test output looks for.
    console.log(`contract run on pg ${loaded.pg}, knex ${loaded.knex}, @mikro-orm/knex ${loaded.mikroOrm}, sqlite3 ${loaded.sqlite3}; servers: ${servers.join(', ')}`);
    expect(loaded.pgOfKnex).toBe(loaded.pg);
    if (process.env.PORTICO_EXPECT_PG) expect(loaded.pg).toBe(process.env.PORTICO_EXPECT_PG);
    if (process.env.PORTICO_EXPECT_KNEX) expect(loaded.knex).toBe(process.env.PORTICO_EXPECT_KNEX);
  });
});
