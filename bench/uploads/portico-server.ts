/**
 * Portico's upload path (bench/uploads/run.ts): `readMultipart` streaming each file into
 * `StoreUpload` (sniffed type, counted size) and the disk storage, the path the REST file
 * columns will take, on a plain Node server.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { readMultipart } from '../../src/adapters/http-koa/multipart.js';
import { DiskFileStorage } from '../../src/adapters/storage/disk-file-storage.js';
import { fileTypeSniffer } from '../../src/adapters/storage/file-type-sniffer.js';
import { cryptoRandomSource } from '../../src/adapters/system/crypto-random-source.js';
import { StoreUpload } from '../../src/application/storage/store-upload.js';
import { serveUntilSignal } from '../server-lifecycle.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, db: { type: 'string' } } });
const storage = new DiskFileStorage(process.env.UPLOAD_DIR ?? './uploads');
const upload = new StoreUpload(storage, fileTypeSniffer, cryptoRandomSource);
const rule = { maxBytes: 5 * 1024 * 1024, accept: ['application/pdf', 'image/png'] };
const server = createServer((req, res) => {
  readMultipart(req, { fileFields: new Set(['file']), onFile: (part) => upload.execute(part, rule, 'bench'), discard: async () => undefined }).then(
    (body) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body.files.file));
    },
    (error: unknown) => {
      res.writeHead(400);
      res.end(String(error));
    },
  );
});
server.listen(Number(values.port ?? 0), '127.0.0.1', () => {
  const address = server.address();
  serveUntilSignal(typeof address === 'object' && address ? address.port : 0, () => new Promise((resolve) => server.close(() => resolve())));
});
