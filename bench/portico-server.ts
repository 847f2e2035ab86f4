/**
 * Bench child process, Portico side: serves the reference app (migrated and seeded at start,
 * with the health plugin's `/ready`) plus a tiny plugin mounting `GET /bench/author/:id`.
 *
 * Usage: `node dist/bench/portico-server.js --port 0 --db bench/.tmp/bench.db`; prints
 * `READY <port>` on stdout once listening on 127.0.0.1, and closes gracefully on SIGTERM.
 */
import { parseArgs } from 'node:util';
import type { Plugin } from '../src/composition/plugin.js';
import { buildReferenceApp } from '../examples/reference/app.js';
import { serveUntilSignal } from './server-lifecycle.js';

/** `GET /bench/author/:id`: one record-store read by primary key. */
const authorById: Plugin = {
  name: 'bench-author-by-id',
  install: (ctx) =>
    ctx.route({
      method: 'GET',
      path: '/bench/author/:id',
      handler: async (req) => {
        const row = await ctx.store.getById('author', Number(req.params.id));
        return row === null ? { status: 404, body: { error: 'not found' } } : { status: 200, body: row };
      },
    }),
};

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, db: { type: 'string' } } });
if (!values.db) throw new Error('--db <sqlite file> is required');

const app = buildReferenceApp({ database: `sqlite:${values.db}`, logRequests: false }).use(authorById);
const { port } = await app.listen(Number(values.port), '127.0.0.1');
serveUntilSignal(port, () => app.close());
