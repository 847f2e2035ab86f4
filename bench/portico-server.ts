/**
 * Bench child process, Portico side: serves the reference app (migrated and seeded at start,
 * with the health plugin's `/ready` and the REST layer under `/api`) plus a tiny plugin
 * mounting `GET /bench/author/:id`. With `BENCH_SEED=1` (the runner's setup run only) it also
 * inserts BENCH_COMMENTS comment rows for post 1 through the record store before listening,
 * so the list scenario has full pages to read.
 *
 * Usage: `node dist/bench/portico-server.js --port 0 --db bench/.tmp/bench.db`; prints
 * `READY <port>` on stdout once listening on 127.0.0.1, and closes gracefully on SIGTERM.
 */
import { parseArgs } from 'node:util';
import type { Plugin } from '../src/composition/plugin.js';
import { buildReferenceApp } from '../examples/reference/app.js';
import { serveUntilSignal } from './server-lifecycle.js';

/**
 * `GET /bench/author/:id`: one record-store read by primary key, without `secret_note` (as the
 * REST detail and the baseline answer it), and none of the REST layer's work.
 */
const authorById: Plugin = {
  name: 'bench-author-by-id',
  install: (ctx) =>
    ctx.route({
      method: 'GET',
      path: '/bench/author/:id',
      handler: async (req) => {
        const row = await ctx.store.getById('author', Number(req.params.id));
        if (row === null) return { status: 404, body: { error: 'not found' } };
        const { secret_note: _hidden, ...visible } = row;
        return { status: 200, body: visible };
      },
    }),
};

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, db: { type: 'string' } } });
if (!values.db) throw new Error('--db <sqlite file> is required');

/** How many extra comment rows the setup run inserts (the reference seed has 2). */
const BENCH_COMMENTS = 200;

const app = buildReferenceApp({ database: `sqlite:${values.db}`, logRequests: false }).use(authorById);
const { port } = await app.listen(Number(values.port), '127.0.0.1');
if (process.env.BENCH_SEED === '1') {
  await app.store.insertMany(
    'comment',
    Array.from({ length: BENCH_COMMENTS }, (_, i) => ({ post_id: 1, body: `Bench comment ${i + 1}`, votes: i % 7, moderation_note: `note ${i + 1}` })),
  );
}
serveUntilSignal(port, () => app.close());
