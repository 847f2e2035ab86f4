/**
 * Hot-path bench child process, raw side on SQLite: a hand-written Koa 3 + @koa/router server
 * on the `sqlite3` driver (one connection, as Portico's SQLite pool; every statement prepared
 * once at start and reused), with no Portico code in the request path. It opens the file the
 * Portico server migrated and seeded and does the database work of the measured Portico routes,
 * answering the same JSON (booleans as true/false, timestamps — stored as epoch milliseconds —
 * as ISO strings):
 *
 * Both routes need a bearer token identifying an active user (sha256 hex looked up in
 * `auth_token`, joined to `auth_user` in one statement); otherwise 401.
 *
 * - `GET /api/post/:id`: the live post.
 * - `GET /api/post/?limit&offset`: `count(*)` and the page ordered by id, in the
 *   `{count, next, previous, results}` envelope with absolute links.
 *
 * Usage: `node dist/bench/hot-path/raw-sqlite-server.js --port 0 --db <sqlite file>`; prints
 * `READY <port>` on stdout once listening on 127.0.0.1, and closes on SIGTERM.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import Router from '@koa/router';
import Koa from 'koa';
import sqlite3 from 'sqlite3';
import { serveUntilSignal } from '../server-lifecycle.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, db: { type: 'string' } } });
if (!values.db) throw new Error('--db <sqlite file> is required');
const file = values.db.replace(/^sqlite:/, '');

type SqliteRow = Record<string, unknown>;

const db = await new Promise<sqlite3.Database>((resolve, reject) => {
  const opened: sqlite3.Database = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (error) => (error ? reject(error) : resolve(opened)));
});
const exec = (sql: string): Promise<void> => new Promise((resolve, reject) => db.exec(sql, (error) => (error ? reject(error) : resolve())));
// The pragmas Portico's SQLite connection sets.
await exec('pragma foreign_keys = on; pragma busy_timeout = 5000;');

const prepare = (sql: string): Promise<sqlite3.Statement> =>
  new Promise((resolve, reject) => {
    const statement: sqlite3.Statement = db.prepare(sql, (error: Error | null) => (error ? reject(error) : resolve(statement)));
  });
/** Runs a prepared statement to completion (`all` binds, steps to the end and resets it). */
const all = (statement: sqlite3.Statement, params: unknown[]): Promise<SqliteRow[]> =>
  new Promise((resolve, reject) => statement.all<SqliteRow>(params, (error, rows) => (error ? reject(error) : resolve(rows))));

const authUser = await prepare('select u.id from auth_token t join auth_user u on u.id = t.user_id where t.token_hash = ? and u.is_active = 1');
const postDetail = await prepare('select * from post where id = ? and deleted_at is null');
const postCount = await prepare('select count(*) as n from post where deleted_at is null');
const postPage = await prepare('select * from post where deleted_at is null order by id limit ? offset ?');

/** A stored post as JSON: 0/1 booleans as booleans, epoch-millisecond timestamps as ISO strings. */
function post(row: SqliteRow): SqliteRow {
  const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());
  return { ...row, published: row.published === 1, featured: row.featured === 1, created_at: iso(row.created_at), deleted_at: iso(row.deleted_at) };
}

/** SHA-256 hex of the token: what `auth_token.token_hash` stores (Portico's `hashToken`). */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The caller, as Portico's bearer authentication decides it: undefined without a bearer token
 * (anonymous), null for a malformed or unknown token or an inactive user, else the user's id.
 */
async function identify(ctx: Koa.Context): Promise<number | null | undefined> {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9_.~+/=-]{20,200})$/.exec(header.trim());
  if (!match?.[1]) return /^Bearer\b/i.test(header.trim()) ? null : undefined;
  if (match[1].length > 100) return null;
  const [user] = await all(authUser, [hashToken(match[1])]);
  return user ? (user.id as number) : null;
}

/** The authenticated caller's id; otherwise answers 401 and returns undefined. */
async function authenticated(ctx: Koa.Context): Promise<number | undefined> {
  const user = await identify(ctx);
  if (user === undefined || user === null) problem(ctx, 401, user === null ? 'invalid or revoked token' : 'authentication required');
  return user ?? undefined;
}

function problem(ctx: Koa.Context, status: number, error: string): void {
  ctx.status = status;
  ctx.body = { error };
}

function count(value: string | string[] | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
}

function pageUrl(ctx: Koa.Context, limit: number, offset: number): string {
  const link = new URL(`${ctx.protocol}://${ctx.host}${ctx.path}`);
  for (const [k, v] of Object.entries(ctx.query)) {
    if (k === 'limit' || k === 'offset' || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) link.searchParams.append(k, item);
  }
  link.searchParams.set('limit', String(limit));
  link.searchParams.set('offset', String(offset));
  return link.toString();
}

const router = new Router();

router.get('/api/post/', async (ctx) => {
  const limit = Math.min(count(ctx.query.limit, DEFAULT_LIMIT), MAX_LIMIT);
  const offset = count(ctx.query.offset, 0);
  if (Number.isNaN(limit) || Number.isNaN(offset)) return problem(ctx, 400, 'invalid query');
  if ((await authenticated(ctx)) === undefined) return;
  const [[total], rows] = await Promise.all([all(postCount, []), all(postPage, [limit, offset])]);
  const n = Number(total?.n ?? 0);
  ctx.body = {
    count: n,
    next: offset + limit < n && limit > 0 ? pageUrl(ctx, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(ctx, limit, Math.max(0, offset - limit)) : null,
    results: rows.map(post),
  };
});

router.get('/api/post/:id', async (ctx) => {
  const id = /^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : undefined;
  if ((await authenticated(ctx)) === undefined) return;
  const [row] = id === undefined ? [] : await all(postDetail, [id]);
  if (!row) return problem(ctx, 404, 'not found');
  ctx.body = post(row);
});

const app = new Koa();
app.silent = true;
app.use(async (ctx, next) => {
  try {
    await next();
  } catch {
    problem(ctx, 500, 'internal error');
  }
});
app.use(router.routes());
app.use(router.allowedMethods());

const server = createServer(app.callback());
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number(values.port), '127.0.0.1', () => resolve());
});
serveUntilSignal((server.address() as AddressInfo).port, async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  for (const statement of [authUser, postDetail, postCount, postPage]) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
  await new Promise<void>((resolve, reject) => db.close((error) => (error ? reject(error) : resolve())));
});
