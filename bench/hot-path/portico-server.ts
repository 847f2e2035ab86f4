/**
 * Hot-path bench child process, Portico side: the reference app (`buildReferenceApp`: sessions,
 * CSRF, hardening headers, auth with bearer tokens, health, REST under `/api`, GraphQL at
 * `/graphql`, pages), migrated and seeded at start, request logging off and the login throttle
 * off (THROTTLE=off, so the login scenario measures hashing, not 429s).
 *
 * Unlike `bench/portico-server.ts` (a SQLite file path), `--db` is any database address the
 * reference app accepts: `postgres://127.0.0.1:5432/test?schema=bench_x` or `sqlite:<file>`.
 *
 * Usage: `node dist/bench/hot-path/portico-server.js --port 0 --db <address>`; prints
 * `READY <port>` on stdout once listening on 127.0.0.1, and closes gracefully on SIGTERM.
 */
import { parseArgs } from 'node:util';
import { buildReferenceApp } from '../../examples/reference/app.js';
import { serveUntilSignal } from '../server-lifecycle.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, db: { type: 'string' } } });
if (!values.db) throw new Error('--db <database address> is required');

const app = buildReferenceApp({ database: values.db, logRequests: false, env: { ...process.env, THROTTLE: 'off' } });
const { port } = await app.listen(Number(values.port), '127.0.0.1');
serveUntilSignal(port, () => app.close());
