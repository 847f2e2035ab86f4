import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, postgresAvailable } from '../support/postgres.js';
import { runNode } from '../support/spawn-node.js';

const pgUp = await postgresAvailable();
const tmp = mkdtempSync(join(tmpdir(), 'portico-lazy-orm-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * A fresh process opens the reference app on `db` (migrating it when `migrate`), reports which of
 * MikroORM's packages it has loaded, writes a duplicate username (a unique violation) and reports
 * the error and the packages again, as JSON on stdout.
 */
const SCRIPT = `
import { createRequire } from 'node:module';
import app from './dist/examples/reference/app.js';
const require = createRequire(import.meta.url);
const cache = require.cache;
// Every module this process has read from disk (Node's documented module registry, read only).
const fromDisk = () => Object.keys(cache);
const loaded = () => [...new Set(fromDisk().map((f) => /node_modules\\/(@mikro-orm\\/[^/]+)\\//.exec(f)?.[1]).filter(Boolean))].sort();
const a = app(process.argv[1]);
// The first run creates the database on purpose (as portico migrate --create-db does).
if (process.argv[2] === 'migrate') a.createDatabaseIfMissing();
const applied = process.argv[2] === 'migrate' ? await a.migrate() : [];
await a.open();
const afterOpen = loaded();
// node-pg too: a SQLite app never loads the PostgreSQL driver.
const pgOnOpen = fromDisk().some((f) => /node_modules\\/pg\\//.test(f));
// MikroORM's own start (its index) is not read until a migration or a driver error needs it.
const coreOnOpen = fromDisk().some((f) => /node_modules\\/@mikro-orm\\/knex\\/index\\.js$/.test(f));
// A statement without bindings that holds a '?': MikroORM's patch of knex's Client (made when
// MikroORM starts, for a migration) sends it as written; knex alone numbers it as a parameter on
// PostgreSQL.
const asked = await a.db.sql.knex.raw("select '?' as q").then((r) => (Array.isArray(r) ? r : r.rows)[0].q, (e) => 'error: ' + e.message);
const knexFiles = fromDisk().filter((f) => /node_modules\\/(knex|lodash)\\//.test(f)).length;
const username = 'ada' + process.pid;
await a.store.insert('member', { username });
const error = await a.store.insert('member', { username }).then(() => null, (e) => ({ code: e.code, kind: e.kind, column: e.column }));
const afterViolation = loaded();
await a.close();
console.log(JSON.stringify({ applied: applied.length, afterOpen, pgOnOpen, coreOnOpen, knexFiles, asked, afterViolation, error }));
`;

async function run(db: string, migrate: boolean, preload: string[] = []): Promise<{ applied: number; afterOpen: string[]; pgOnOpen: boolean; coreOnOpen: boolean; knexFiles: number; asked: string; afterViolation: string[]; error: unknown }> {
  const r = await runNode([...preload, '--input-type=module', '-e', SCRIPT, db, migrate ? 'migrate' : 'open'], 60_000);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as never;
}

describe('MikroORM is loaded when first needed, not at start', () => {
  it('SQLite: migrating loads it; a start on the migrated file does not, until a driver error needs reading', async () => {
    const db = `sqlite:${join(tmp, 'lazy.db')}`;
    const first = await run(db, true);
    expect(first.applied).toBeGreaterThan(0);
    expect(first.afterOpen).toContain('@mikro-orm/core');

    const second = await run(db, false);
    expect(second.applied).toBe(0);
    // Of MikroORM only the knex dialect file of @mikro-orm/knex (not its index, not the core or the
    // driver package); knex itself from node_modules, as MikroORM's knex package requires it.
    expect(second.afterOpen).toEqual(['@mikro-orm/knex']);
    expect(second.pgOnOpen).toBe(false);
    expect(second.knexFiles).toBeGreaterThan(0);
    expect(second.coreOnOpen).toBe(false);
    expect(second.error).toEqual(first.error);
    expect(second.error).toEqual({ code: 'unique_violation', kind: 'unique', column: 'username' });
    expect(second.afterViolation).toEqual(['@mikro-orm/core', '@mikro-orm/knex', '@mikro-orm/sqlite']);
  });

  it('SQLite in memory: the migrations run on the connection the store reads', async () => {
    const r = await run('sqlite::memory:', true);
    expect(r.applied).toBeGreaterThan(0);
    expect(r.error).toEqual({ code: 'unique_violation', kind: 'unique', column: 'username' });
  });

  it('a host that loaded MikroORM before opening the database: Portico runs on that knex', async () => {
    const db = `sqlite:${join(tmp, 'host-orm.db')}`;
    const r = await run(db, true, ['--require', '@mikro-orm/knex']);
    expect(r.applied).toBeGreaterThan(0);
    expect(r.afterOpen).toContain('@mikro-orm/knex');
    expect(r.knexFiles).toBeGreaterThan(100);
    expect(r.asked).toBe('?');
    expect(r.error).toEqual({ code: 'unique_violation', kind: 'unique', column: 'username' });
  });

  it.skipIf(!pgUp)('PostgreSQL: a database that does not exist yet is created when asked (--create-db), by MikroORM', async () => {
    const name = `portico_lazy_${process.pid}_${Date.now()}`;
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const first = await run(url.toString(), true);
      expect(first.applied).toBeGreaterThan(0);
      // MikroORM, started for the migrations, patched the knex classes the store uses.
      expect(first.asked).toBe('?');
      expect(first.error).toEqual({ code: 'unique_violation', kind: 'unique', column: 'username' });
      const second = await run(url.toString(), false);
      expect(second.afterOpen).toEqual(['@mikro-orm/knex']);
      expect(second.coreOnOpen).toBe(false);
      expect(second.error).toEqual(first.error);
      expect(second.afterViolation).toEqual(['@mikro-orm/core', '@mikro-orm/knex', '@mikro-orm/postgresql']);
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
