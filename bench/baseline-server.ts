/**
 * Bench child process, baseline side: a hand-written Koa 3 + @koa/router + MikroORM app with
 * no Portico code in the request path. It opens the SQLite file the Portico server already
 * migrated and seeded, using the entity schemas generated from the same models, and does by
 * hand what each measured Portico route does: `/ready`, `GET /author/:id` (the row without
 * `secret_note`), `GET /comment?limit&offset` (the list envelope, rows without
 * `moderation_note`) and `POST /author` (a JSON create answering 201 with the stored row).
 *
 * Usage: `node dist/bench/baseline-server.js --port 0 --db bench/.tmp/bench.db`; prints
 * `READY <port>` on stdout once listening on 127.0.0.1, and closes on SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import Router from '@koa/router';
import { MikroORM } from '@mikro-orm/core';
import { SqliteDriver } from '@mikro-orm/sqlite';
import Koa from 'koa';
import getRawBody from 'raw-body';
import { entitySchemas } from '../src/adapters/persistence/sql/entity-schemas.js';
import { BUILTIN_MODELS, ModelRegistry } from '../src/domain/model/index.js';
import { REFERENCE_MODELS } from '../examples/reference/models.js';
import { serveUntilSignal } from './server-lifecycle.js';

const READY_TIMEOUT_MS = 5000;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const BODY_LIMIT = 1024 * 1024;

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, db: { type: 'string' } } });
if (!values.db) throw new Error('--db <sqlite file> is required');

const orm = await MikroORM.init({
  driver: SqliteDriver,
  dbName: values.db,
  entities: entitySchemas(ModelRegistry.build([...BUILTIN_MODELS, ...REFERENCE_MODELS])),
  allowGlobalContext: true,
  debug: false,
});

/** `select 1` raced against a 5 s timeout, like Portico's readiness check. */
async function databaseStatus(): Promise<{ status: 'ok' } | { status: 'fail'; reason: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ status: 'fail'; reason: string }>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'fail', reason: 'timed out' }), READY_TIMEOUT_MS);
  });
  const attempt = orm.em
    .getConnection()
    .execute('select 1')
    .then(
      () => ({ status: 'ok' as const }),
      () => ({ status: 'fail' as const, reason: 'unavailable' }),
    );
  try {
    return await Promise.race([attempt, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const router = new Router();
router.get('/ready', async (ctx) => {
  const database = await databaseStatus();
  ctx.status = database.status === 'ok' ? 200 : 503;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { status: database.status, checks: { database } };
});
/** The entity as a plain object without `column` (what Portico's field policy hides). */
function without(entity: object, column: string): Record<string, unknown> {
  const { [column]: _hidden, ...rest } = entity as Record<string, unknown>;
  return rest;
}

function problem(ctx: Koa.Context, status: number, error: string): void {
  ctx.status = status;
  ctx.body = { error };
}

/** A non-negative integer query parameter, or `fallback` when absent; NaN when malformed. */
function count(value: string | string[] | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

/** The same list URL with another page. */
function pageUrl(ctx: Koa.Context, limit: number, offset: number): string {
  const url = new URL(`${ctx.protocol}://${ctx.host}${ctx.path}`);
  for (const [k, v] of Object.entries(ctx.query)) {
    if (k === 'limit' || k === 'offset' || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, item);
  }
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('offset', String(offset));
  return url.toString();
}

router.get('/author/:id', async (ctx) => {
  const id = Number(ctx.params.id);
  if (!Number.isSafeInteger(id)) return problem(ctx, 404, 'not found');
  const author = await orm.em.fork().findOne('author', { id });
  if (author === null) return problem(ctx, 404, 'not found');
  ctx.body = without(author, 'secret_note');
});
router.get('/comment', async (ctx) => {
  const limit = Math.min(count(ctx.query.limit, DEFAULT_LIMIT), MAX_LIMIT);
  const offset = count(ctx.query.offset, 0);
  if (Number.isNaN(limit) || !Number.isSafeInteger(offset)) return problem(ctx, 400, 'invalid query');
  const em = orm.em.fork();
  const [total, rows] = await Promise.all([em.count('comment'), em.find<{ id: number }>('comment', {}, { limit, offset, orderBy: { id: 'asc' } })]);
  ctx.body = {
    count: total,
    next: offset + limit < total && limit > 0 ? pageUrl(ctx, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(ctx, limit, Math.max(0, offset - limit)) : null,
    results: rows.map((row) => without(row, 'moderation_note')),
  };
});
router.post('/author', async (ctx) => {
  if (ctx.request.type !== 'application/json') return problem(ctx, 415, 'the body must be application/json');
  let input: unknown;
  try {
    input = JSON.parse(await getRawBody(ctx.req, { limit: BODY_LIMIT, encoding: 'utf-8' }));
  } catch {
    return problem(ctx, 400, 'the body is not valid JSON');
  }
  const name = (input as { name?: unknown } | null)?.name;
  if (typeof name !== 'string') return problem(ctx, 400, 'name is required');
  const em = orm.em.fork();
  const id = await em.insert('author', { name });
  const author = await em.findOne('author', { id });
  if (author === null) return problem(ctx, 500, 'the new row is gone');
  ctx.status = 201;
  ctx.body = without(author, 'secret_note');
});

const app = new Koa();
app.silent = true;
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
  await orm.close();
});
