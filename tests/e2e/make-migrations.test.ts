import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { PorticoApp } from '../../src/index.js';
import { freshPgSchema, PG_URL, postgresAvailable } from '../support/postgres.js';
import { ROOT, runNode } from '../support/spawn-node.js';

/**
 * Issue 45 "Migrations from models": a host app's models change, `portico makemigrations` writes
 * what changed and `portico migrate` applies it (and reverses it), on SQLite and PostgreSQL, with
 * the rows kept; a start on a schema the models do not describe is refused in production, warned
 * about in development, and named by /ready.
 */
const pgUp = await postgresAvailable();
const tmp = mkdtempSync(join(tmpdir(), 'portico-makemig-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const INDEX = pathToFileURL(join(ROOT, 'dist/src/index.js')).href;
/** The host app: a bookshop whose models are at version `SHOP_V` (1 or 2), migrations in ./migrations of its folder. */
const HOST = `import { AllowAny, c, createApp, defineModel, graphql, health, rest } from ${JSON.stringify(INDEX)};
export function build(db, v = process.env.SHOP_V ?? '1', options = {}) {
  const shelf = defineModel('shelf', { id: c.id(), name: c.text() });
  const book = v === '1'
    ? defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text(), isbn: c.text().nullable(), obsolete: c.text().nullable() })
    : defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text(), code: c.text().nullable(), pages: c.int().default(100) });
  const models = v === '1' ? [shelf, book] : [shelf, book, defineModel('loan', { id: c.id(), book_id: c.fk('book'), who: c.text() })];
  let api = rest();
  for (const m of models) api = api.resource({ table: m.table, permission: AllowAny });
  return createApp({ database: db, models, migrations: new URL('./migrations/', import.meta.url), logRequests: false, ...options })
    .use(api).use(graphql().expose('book').expose('shelf')).use(health());
}
export default (db) => build(db);
`;

function hostDir(name: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.mjs'), HOST);
  return dir;
}

const cli = (dir: string, db: string, args: string[], version = '1') => runNode(['bin/portico.js', ...args, '--app', join(dir, 'app.mjs'), '--db', db], 60_000, { SHOP_V: version });
const build = async (dir: string, db: string, version: string, options: object = {}): Promise<PorticoApp> =>
  ((await import(pathToFileURL(join(dir, 'app.mjs')).href)) as { build: (db: string, v: string, o: object) => PorticoApp }).build(db, version, options);

/** An answer's status and JSON body (a list envelope, a row or a GraphQL result). */
interface Answer {
  readonly status: number;
  readonly body: { readonly results: { readonly name?: string }[]; readonly count: number };
}

async function serving<T>(dir: string, db: string, version: string, work: (call: (method: string, path: string, body?: unknown) => Promise<Answer>) => Promise<T>): Promise<T> {
  const app = await build(dir, db, version);
  const { url } = await app.listen(0);
  try {
    return await work(async (method, path, body) => {
      const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      return { status: res.status, body: (res.status === 204 ? null : await res.json()) as Answer['body'] };
    });
  } finally {
    await app.close();
  }
}

async function modelChangeRoundTrip(dir: string, db: string): Promise<void> {
  const first = await cli(dir, db, ['makemigrations']);
  expect(first.stderr).toBe('');
  expect(first.stdout).toMatch(/wrote .*0001_initial\.js \(app_0001_initial\)/);
  expect((await cli(dir, db, ['migrate'])).stdout).toContain('applied app_0001_initial');
  await serving(dir, db, '1', async (call) => {
    expect((await call('POST', '/api/shelf/', { name: 'Fiction' })).status).toBe(201);
    expect((await call('POST', '/api/book/', { shelf_id: 1, title: 'Dune', isbn: '978-0441013593', obsolete: 'x' })).status).toBe(201);
  });

  // Version 2: a table added, isbn renamed to code, pages added with a default, obsolete dropped.
  const check = await cli(dir, db, ['makemigrations', '--check'], '2');
  expect(check.code).toBe(1);
  expect(check.stderr).toContain('book.isbn is dropped and book.code added');
  const second = await cli(dir, db, ['makemigrations', '--rename', 'book.isbn=code', '--no-input'], '2');
  expect(second.code).toBe(0);
  const file = readdirSync(join(dir, 'migrations')).find((f) => f.startsWith('0002_'));
  expect(file).toBeDefined();
  const text = readFileSync(join(dir, 'migrations', file as string), 'utf8');
  expect(text).toContain('{ op: "renameColumn", table: "book", from: "isbn", to: "code" }');
  expect(text).toContain('{ op: "addColumn", table: "book", column: { name: "pages", type: "int", nullable: false, default: 100 } }');
  expect(text).toContain('op: "dropColumn"');
  // The models and the migrations agree now: nothing more to write, though the database has not run it yet.
  expect((await cli(dir, db, ['makemigrations', '--check'], '2')).code).toBe(0);

  const plan = await cli(dir, db, ['migrate', '--plan'], '2');
  expect(plan.stdout).toContain('create table "loan"');
  expect((await cli(dir, db, ['migrate'], '2')).stdout).toMatch(/^applied app_0002_/);
  expect((await cli(dir, db, ['makemigrations', '--check'], '2')).stdout).toContain('No changes detected.');
  const shown = await cli(dir, db, ['showmigrations'], '2');
  expect(shown.stdout).toMatch(/\[x\] app_0001_initial\n\[x\] app_0002_/);

  await serving(dir, db, '2', async (call) => {
    const list = await call('GET', '/api/book/');
    expect(list.body.results).toEqual([{ id: 1, shelf_id: 1, title: 'Dune', code: '978-0441013593', pages: 100 }]);
    expect((await call('GET', '/api/book/?pages__gt=100')).body.count).toBe(0);
    expect((await call('POST', '/api/loan/', { book_id: 1, who: 'ann' })).status).toBe(201);
    const gql = await call('POST', '/graphql', { query: '{ books { title code pages shelf { name } } }' });
    expect(gql.body).toEqual({ data: { books: [{ title: 'Dune', code: '978-0441013593', pages: 100, shelf: { name: 'Fiction' } }] } });
    expect((await call('GET', '/ready')).status).toBe(200);
  });

  // Down to the first migration: the old shape again, the renamed column's data back under its old name.
  expect((await cli(dir, db, ['migrate', '--to', '1'], '2')).stdout).toMatch(/^reversed app_0002_/);
  await serving(dir, db, '1', async (call) => {
    expect((await call('GET', '/api/book/')).body.results).toEqual([{ id: 1, shelf_id: 1, title: 'Dune', isbn: '978-0441013593', obsolete: null }]);
    expect((await call('GET', '/ready')).status).toBe(200);
  });
  expect((await cli(dir, db, ['migrate'], '2')).stdout).toMatch(/^applied app_0002_/);
}

async function driftIsNamed(dir: string, db: string): Promise<void> {
  expect((await cli(dir, db, ['makemigrations'])).code).toBe(0);
  expect((await cli(dir, db, ['migrate'])).code).toBe(0);
  // The models move to version 2 without a migration.
  await expect((await build(dir, db, '2', { production: true })).start()).rejects.toThrow(
    /^schema drift: table book: column code is missing; table book: column pages is missing; .*table loan is missing \(run portico makemigrations, then portico migrate\)$/,
  );
  const warnings: string[] = [];
  const logger = { info: () => undefined, debug: () => undefined, error: () => undefined, warn: (_: object, msg: string) => void warnings.push(msg), child: () => logger };
  const app = await build(dir, db, '2', { logger });
  const { url } = await app.listen(0);
  try {
    expect(warnings.filter((w) => w.startsWith('schema drift: table book: column code is missing'))).toHaveLength(1);
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { checks: { database: { status: string; reason: string } } };
    expect(body.checks.database.status).toBe('fail');
    expect(body.checks.database.reason).toMatch(/^schema drift: table book: column code is missing;.*\(run portico makemigrations, then portico migrate\)$/);
    // The old model's table still serves what both shapes have.
    expect((await fetch(`${url}/api/shelf/`)).status).toBe(200);
  } finally {
    await app.close();
  }
}

/** A hand-written data step: it runs in the migration's transaction, and a failure leaves nothing applied. */
async function dataSteps(dir: string, db: string): Promise<void> {
  expect((await cli(dir, db, ['makemigrations'])).code).toBe(0);
  expect((await cli(dir, db, ['migrate'])).code).toBe(0);
  await serving(dir, db, '1', async (call) => {
    await call('POST', '/api/shelf/', { name: 'fiction' });
    await call('POST', '/api/shelf/', { name: 'poetry' });
  });
  const step = (body: string) => `export default { name: 'app_0002_capitalise', operations: [
  { op: 'addColumn', table: 'book', column: { name: 'blurb', type: 'text', nullable: true } },
  { op: 'run', up: async ({ execute }) => { ${body} }, down: async () => undefined },
] };\n`;
  // A failing step: neither the column nor the changed rows nor the ledger entry remain.
  writeFileSync(join(dir, 'migrations', '0002_capitalise.js'), step(`await execute("update shelf set name = upper(name)"); throw new Error('the data step failed');`));
  const failed = await cli(dir, db, ['migrate']);
  expect(failed.code).toBe(1);
  expect(failed.stderr).toContain('the data step failed');
  await serving(dir, db, '1', async (call) => {
    expect((await call('GET', '/api/shelf/')).body.results.map((r) => r.name)).toEqual(['fiction', 'poetry']);
  });
  expect((await cli(dir, db, ['showmigrations'])).stdout).toContain('[ ] app_0002_capitalise');
  rmSync(join(dir, 'migrations', '0002_capitalise.js'));
  writeFileSync(join(dir, 'migrations', '0002_capitalise.mjs'), step(`const rows = await execute('select id, name from shelf where name like ?', ['p%']); for (const r of rows) await execute('update shelf set name = ? where id = ?', [String(r.name).toUpperCase(), r.id]);`));
  expect((await cli(dir, db, ['migrate'])).stdout).toContain('applied app_0002_capitalise');
  await serving(dir, db, '1', async (call) => {
    expect((await call('GET', '/api/shelf/')).body.results.map((r) => r.name)).toEqual(['fiction', 'POETRY']);
  });
}

describe('portico makemigrations and migrate, from model changes', () => {
  it('SQLite: v1 → v2 (new table, rename, added column with default, dropped column) keeps the rows; REST and GraphQL serve the new shape; --to 1 restores the old', async () => {
    const dir = hostDir('sqlite-roundtrip');
    await modelChangeRoundTrip(dir, `sqlite:${join(dir, 'shop.db')}`);
  }, 120_000);

  it.skipIf(!pgUp)('PostgreSQL: the same round trip', async () => {
    const schema = freshPgSchema();
    try {
      await modelChangeRoundTrip(hostDir('pg-roundtrip'), schema.url);
    } finally {
      await schema.drop();
    }
  }, 120_000);

  it('SQLite: a start on a schema the models outgrew is refused in production, warned about in development, and /ready names it', async () => {
    const dir = hostDir('sqlite-drift');
    await driftIsNamed(dir, `sqlite:${join(dir, 'shop.db')}`);
  }, 60_000);

  it.skipIf(!pgUp)('PostgreSQL: the same drift checks', async () => {
    const schema = freshPgSchema();
    try {
      await driftIsNamed(hostDir('pg-drift'), schema.url);
    } finally {
      await schema.drop();
    }
  }, 60_000);

  it('SQLite: a data step runs in the transaction; a failing one leaves nothing applied', async () => {
    const dir = hostDir('sqlite-data');
    await dataSteps(dir, `sqlite:${join(dir, 'shop.db')}`);
  }, 60_000);

  it.skipIf(!pgUp)('PostgreSQL: the same data steps', async () => {
    const schema = freshPgSchema();
    try {
      await dataSteps(hostDir('pg-data'), schema.url);
    } finally {
      await schema.drop();
    }
  }, 60_000);
});

describe('no silent creation of a database', () => {
  it('a SQLite file in a folder that does not exist is an error naming it; --create-db creates it', async () => {
    const dir = hostDir('sqlite-missing');
    const db = `sqlite:${join(dir, 'nope', 'shop.db')}`;
    const refused = await cli(dir, db, ['migrate']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`portico: the folder of the database at ${db} does not exist (create it, or start with --create-db to create it)`);
    expect(existsSync(join(dir, 'nope'))).toBe(false);
    expect((await cli(dir, db, ['migrate', '--create-db'])).code).toBe(0);
    expect(existsSync(join(dir, 'nope', 'shop.db'))).toBe(true);
  });

  it.skipIf(!pgUp)('a PostgreSQL database that does not exist is an error naming it; --create-db creates it', async () => {
    const name = `portico_missing_${process.pid}_${Date.now().toString(36)}`;
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const dir = hostDir('pg-missing');
    const exists = async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
      } finally {
        await client.end();
      }
    };
    try {
      const refused = await cli(dir, url.toString(), ['migrate']);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(`portico: the database at postgresql://${url.hostname}:${url.port || '5432'}/${name} does not exist (create it, or start with --create-db to create it)`);
      expect(await exists()).toBe(false);
      expect((await cli(dir, url.toString(), ['migrate', '--create-db'])).code).toBe(0);
      expect(await exists()).toBe(true);
    } finally {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`).finally(() => client.end());
    }
  });
});
