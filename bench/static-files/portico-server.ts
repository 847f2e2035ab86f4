/** Portico serving a folder with staticFiles() behind security()'s hardening headers (bench/static-files/run.ts). */
import { parseArgs } from 'node:util';
import { createApp, security, staticFiles } from '../../src/index.js';
import { serveUntilSignal } from '../server-lifecycle.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, db: { type: 'string' } } });
const app = createApp({ database: 'sqlite::memory:', logRequests: false, autoMigrate: true })
  .use(security())
  .use(staticFiles({ dir: process.env.STATIC_DIR ?? '.' }));
const { port } = await app.listen(Number(values.port ?? 0));
serveUntilSignal(port, () => app.close());
