/** The hand-written baseline of bench/uploads/run.ts: busboy piping each file straight to a file on disk. */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import busboy from 'busboy';
import { serveUntilSignal } from '../server-lifecycle.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, db: { type: 'string' } } });
const dir = process.env.UPLOAD_DIR ?? './uploads';
mkdirSync(dir, { recursive: true });
const server = createServer((req, res) => {
  const parser = busboy({ headers: req.headers, limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
  let saved: Promise<string> | undefined;
  parser.on('file', (_name, stream) => {
    const path = join(dir, `${randomUUID()}.bin`);
    saved = pipeline(stream, createWriteStream(path)).then(() => path);
  });
  parser.on('close', () => {
    void (saved ?? Promise.resolve('')).then((path) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path }));
    });
  });
  req.pipe(parser);
});
server.listen(Number(values.port ?? 0), '127.0.0.1', () => {
  const address = server.address();
  serveUntilSignal(typeof address === 'object' && address ? address.port : 0, () => new Promise((resolve) => server.close(() => resolve())));
});
