import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMultipart, type MultipartBody } from '../../../src/adapters/http-koa/multipart.js';
import { DiskFileStorage } from '../../../src/adapters/storage/disk-file-storage.js';
import { fileTypeSniffer } from '../../../src/adapters/storage/file-type-sniffer.js';
import { MemoryFileStorage } from '../../../src/adapters/storage/memory-file-storage.js';
import { cryptoRandomSource } from '../../../src/adapters/system/crypto-random-source.js';
import { StoreUpload } from '../../../src/application/storage/store-upload.js';
import { DomainError } from '../../../src/domain/errors/domain-error.js';
import type { FileRule } from '../../../src/domain/storage/upload-rules.js';
import type { FileStorage } from '../../../src/ports/file-storage.js';
import { samplePdf, samplePng } from '../../support/sample-files.js';

/*
 * Issue 51, the upload path below the surfaces: busboy's multipart reader streaming each file
 * into StoreUpload (sniffed type, accept, markup, size counted while streaming) on a real HTTP
 * server, into memory and the disk. Every refusal answers its code and leaves no stored bytes
 * and no temporary file.
 */
const PNG = samplePng(2048);
const PDF = samplePdf(3009);
const RULE: FileRule = { maxBytes: 5 * 1024 * 1024, accept: ['image/png', 'image/jpeg', 'application/pdf', 'text/plain'] };
const BOUNDARY = 'portico-test-boundary';
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

type Part = { name: string; value: string } | { name: string; filename: string; type: string; bytes: Uint8Array };
function form(parts: readonly Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n`));
    if ('value' in part) chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`));
      chunks.push(Buffer.from(part.bytes), Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const dir = mkdtempSync(join(tmpdir(), 'portico-upload-'));
const disk = new DiskFileStorage(dir);
const memory = new MemoryFileStorage();
let current: FileStorage = memory;
let server: Server;
let url: string;
/** What the last request's parse ended in. */
let outcome: { body?: MultipartBody; error?: unknown } = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    const upload = new StoreUpload(current, fileTypeSniffer, cryptoRandomSource);
    readMultipart(req, {
      fileFields: new Set(['file', 'other']),
      fieldBytes: 1024,
      onFile: (part) => upload.execute(part, RULE, 'attachment'),
      discard: async (files) => {
        for (const f of files) await current.delete(f.key);
      },
    }).then(
      (body) => {
        outcome = { body };
        res.end('ok');
      },
      (error: unknown) => {
        outcome = { error };
        res.statusCode = 400;
        res.end('refused');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): Promise<typeof outcome> {
  outcome = {};
  await fetch(url, { method: 'POST', body, headers: { 'content-type': contentType } });
  return outcome;
}
const codeOf = (o: typeof outcome): string | undefined => (o.error instanceof DomainError ? o.error.code : String(o.error));

describe.each([
  ['memory', memory],
  ['disk', disk],
] as const)('multipart uploads into %s', (_name, storage) => {
  beforeAll(() => {
    current = storage;
  });
  const nothingLeft = async (): Promise<void> => {
    expect(await storage.keys('attachment/')).toEqual([]);
    if (storage instanceof DiskFileStorage) expect(await storage.incoming()).toEqual([]);
  };

  it('keeps a file with the other fields: the bytes, the sniffed type, a generated key and the name made safe', async () => {
    const result = await post(form([{ name: 'post_id', value: '1' }, { name: 'file', filename: `x.png"; filename*=UTF-8''..%2F..%2Fev%00il.png; x="`, type: 'text/plain', bytes: PNG }]));
    expect(result.error).toBeUndefined();
    expect(result.body?.fields).toEqual({ post_id: '1' });
    const file = result.body?.files.file;
    // busboy keeps only the last path segment of a name; NUL and the rest are dropped when kept.
    expect(file).toMatchObject({ name: 'evil.png', size: PNG.length, content_type: 'image/png' });
    expect(file?.key).toMatch(/^attachment\/[0-9a-f-]{36}\.png$/);
    const stored = await storage.get(file?.key ?? '');
    const parts: Uint8Array[] = [];
    for await (const p of stored?.body ?? []) parts.push(p);
    expect(sha(Buffer.concat(parts))).toBe(sha(PNG));
    await storage.delete(file?.key ?? '');
  });

  it.each([
    ['a type outside accept (a zip claimed as a PNG)', Buffer.concat([Buffer.from('504b0304', 'hex'), randomBytes(500)]), 'image/png', 'unsupported_media_type'],
    ['HTML sent as text/plain', Buffer.from('<!doctype html><script>alert(1)</script>'), 'text/plain', 'unsupported_media_type'],
    ['SVG sent as text/plain', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'text/plain', 'unsupported_media_type'],
    ['XML-wrapped SVG', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml', 'unsupported_media_type'],
    ['text hiding a script', Buffer.from(`notes\n${'x'.repeat(100)}<script>alert(1)</script>`), 'text/plain', 'unsupported_media_type'],
    ['binary bytes with no signature', Buffer.from([0, 1, 2, 3, 0, 255, 254]), 'application/pdf', 'unsupported_media_type'],
    ['an empty file', Buffer.alloc(0), 'text/plain', 'invalid_input'],
    ['a file over maxBytes', Buffer.concat([PDF, randomBytes(5 * 1024 * 1024)]), 'application/pdf', 'payload_too_large'],
  ])('refuses %s, storing nothing', async (_case, bytes, type, code) => {
    const result = await post(form([{ name: 'file', filename: 'f.bin', type, bytes }]));
    expect(codeOf(result)).toBe(code);
    await nothingLeft();
  });

  it('keeps plain text and a PDF', async () => {
    const result = await post(form([{ name: 'file', filename: 'a.txt', type: 'application/octet-stream', bytes: Buffer.from('plain notes, héllo\n') }, { name: 'other', filename: 'b.pdf', type: 'text/plain', bytes: PDF }]));
    expect(result.body?.files.file?.content_type).toBe('text/plain');
    expect(result.body?.files.other?.content_type).toBe('application/pdf');
    for (const f of Object.values(result.body?.files ?? {})) await storage.delete(f.key);
  });

  it.each([
    ['two files in one field', [{ name: 'file', filename: 'a.png', type: 'image/png', bytes: PNG }, { name: 'file', filename: 'b.png', type: 'image/png', bytes: PNG }], 'invalid_input'],
    ['a file in a field that takes none', [{ name: 'file', filename: 'a.png', type: 'image/png', bytes: PNG }, { name: 'post_id', filename: 'b.png', type: 'image/png', bytes: PNG }], 'invalid_input'],
    ['text in a file field', [{ name: 'file', value: 'not a file' }], 'invalid_input'],
    ['a text field over its size', [{ name: 'file', filename: 'a.png', type: 'image/png', bytes: PNG }, { name: 'note', value: 'x'.repeat(2000) }], 'payload_too_large'],
    ['a repeated field', [{ name: 'a', value: '1' }, { name: 'a', value: '2' }], 'invalid_input'],
  ] as const)('refuses %s, discarding a file kept before', async (_case, parts, code) => {
    expect(codeOf(await post(form(parts)))).toBe(code);
    await nothingLeft();
  });

  it('refuses a body without a boundary or cut short', async () => {
    expect(codeOf(await post(Buffer.from('x'), 'multipart/form-data'))).toBe('invalid_input');
    const whole = form([{ name: 'file', filename: 'a.pdf', type: 'application/pdf', bytes: PDF }]);
    expect(codeOf(await post(whole.subarray(0, whole.length - 200)))).toBe('invalid_input');
    await nothingLeft();
  });

  it('stores nothing and leaves no temporary file when the client goes away mid-file', async () => {
    outcome = {};
    const head = form([{ name: 'file', filename: 'big.pdf', type: 'application/pdf', bytes: Buffer.concat([PDF, randomBytes(2 * 1024 * 1024)]) }]);
    await new Promise<void>((resolve) => {
      const req = request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(head.length) } });
      req.on('error', () => resolve());
      req.write(head.subarray(0, 1024 * 1024), () => setTimeout(() => {
        req.destroy();
        resolve();
      }, 50));
    });
    await expect.poll(() => outcome.error !== undefined, { timeout: 5000 }).toBe(true);
    await nothingLeft();
  });
});
