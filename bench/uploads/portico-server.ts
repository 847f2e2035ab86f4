/**
 * Portico's side of bench/uploads/run.ts: an app with one model whose `file` column takes PDFs
 * and PNGs, served by the REST layer (`POST /api/upload_doc/` as multipart/form-data: busboy's
 * reader, the sniffed type, the counted size, the disk storage, then the row's insert in SQLite
 * and the answer with its signed link), with the storage() plugin on the disk.
 */
import { parseArgs } from 'node:util';
import { AllowAny, c, createApp, defineModel, rest, storage } from '../../src/index.js';
import { serveUntilSignal } from '../server-lifecycle.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, db: { type: 'string' } } });
const models = [defineModel('upload_doc', { id: c.id(), file: c.file({ maxBytes: 5 * 1024 * 1024, accept: ['application/pdf', 'image/png'] }) })];
const app = createApp({ database: 'sqlite::memory:', models, autoMigrate: true, logRequests: false })
  .use(rest({ models }).resource({ table: 'upload_doc', permission: AllowAny }))
  .use(storage({ url: `file:${process.env.UPLOAD_DIR ?? './uploads'}` }));
const { port } = await app.listen(Number(values.port ?? 0), '127.0.0.1');
serveUntilSignal(port, () => app.close());
