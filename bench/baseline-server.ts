/**
 * Bench child process, baseline side: a hand-written Koa 3 + @koa/router + MikroORM app with
 * no Portico code in the request path. It opens the SQLite file the Portico server already
 * migrated and seeded, using the entity schemas generated from the same models.
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
import { entitySchemas } from '../src/adapters/persistence/sql/entity-schemas.js';
import { BUILTIN_MODELS, ModelRegistry } from '../src/domain/model/index.js';
import { REFERENCE_MODELS } from '../examples/reference/models.js';
import { serveUntilSignal } from './server-lifecycle.js';

const READY_TIMEOUT_MS = 5000;

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
router.get('/author/:id', async (ctx) => {
  const author = await orm.em.fork().findOne('author', { id: Number(ctx.params.id) });
  if (author === null) {
    ctx.status = 404;
    ctx.body = { error: 'not found' };
    return;
  }
  ctx.body = author;
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
