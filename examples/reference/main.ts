import { parseArgs } from 'node:util';
import { describeDatabase, DatabaseUnavailable, parseDatabaseUrl } from '../../src/index.js';
import { buildReferenceApp } from './app.js';

/**
 * `npm start` / `npm run reference -- --port 4010 --db <url>`: serves the reference app.
 * Exits non-zero with a one-line message when the database cannot be reached.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, db: { type: 'string' }, host: { type: 'string' } } });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  const database = values.db ?? process.env.DATABASE_URL ?? 'sqlite:./data/reference.db';
  const host = values.host ?? process.env.HOST ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port "${values.port ?? process.env.PORT}"`);
  const where = describeDatabase(parseDatabaseUrl(database));
  // REFERENCE-APP.md: a fresh database is created, migrated and seeded at start (on purpose, for the demo).
  const app = buildReferenceApp({ database, createDatabase: true });
  const { url } = await app.listen(port, host);
  const docs = process.env.NODE_ENV === 'production' ? '' : `\n  OpenAPI:    ${url}/api/openapi.json\n  Swagger UI: ${url}/api/docs`;
  console.log(`Portico reference app on ${where}
  home:       ${url}/
  API root:   ${url}/api/${docs}
  liveness:   ${url}/healthz
  readiness:  ${url}/ready`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, 'draining');
    // 10 s for requests in flight; 1 s of draining first, so keep-alive clients end on a clean close.
    app.close(10_000, Number(process.env.DRAIN_MS ?? 1000)).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  const message = error instanceof DatabaseUnavailable || error instanceof Error ? error.message : String(error);
  console.error(`portico: ${message.split('\n')[0]}`);
  process.exit(1);
});
