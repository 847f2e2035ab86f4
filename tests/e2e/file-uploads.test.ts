import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/identity-providers.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { S3Stand } from '../support/s3-server.js';
import { samplePdf, samplePng } from '../support/sample-files.js';
import { signedInUsers } from '../support/signed-in-users.js';

/**
 * Issue 51, file columns through every surface of the reference app (`attachment.file`: at
 * most 5 MiB of PNG, JPEG, PDF or plain text), on SQLite and PostgreSQL, on the disk and on S3
 * (s3rver on loopback): a multipart create answers `{id, post_id, file: {name, size,
 * content_type, url}}` (never the key), the signed link gives the exact bytes, a range and a 304;
 * every bad input answers its 4xx problem and leaves no stored bytes (the disk folder and the
 * bucket are listed); a failed insert leaves no file; a replace and a delete remove the old file
 * once committed; GraphQL answers the same file.
 */
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
type Problem = { code: string; errors?: { field: string }[] };
type Answer = { id: number; post_id: number; file: { name: string; size: number; content_type: string; url: string } };

let s3: S3Stand;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await S3Stand.start('reference-uploads');
});
afterAll(async () => {
  await s3?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, temporary ones included. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe.each([
  ['sqlite', 'disk'],
  ['sqlite', 's3'],
  ['postgresql', 'disk'],
  ['postgresql', 's3'],
] as const)('file uploads on %s with %s storage', (database, backend) => {
  let ref: RunningReference;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'portico-uploads-'));
  dirs.push(dir);
  beforeAll(async () => {
    const STORAGE_URL = backend === 'disk' ? `file:${dir}` : `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1`;
    ref = await startReference(database, { env: { STORAGE_URL, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' } });
    token = (await signedInUsers(ref.app, ref.url, ['uploader'])).tokens.uploader;
  });
  afterAll(() => ref?.close());

  const auth = (): Record<string, string> => ({ authorization: `Bearer ${token}` });
  const form = (parts: Record<string, string | Blob | readonly Blob[]>, file?: { bytes: Uint8Array; name: string; type?: string }): FormData => {
    const body = new FormData();
    for (const [k, v] of Object.entries(parts)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one as string | Blob);
    if (file) body.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
    return body;
  };
  const upload = (body: FormData, path = '/api/attachment/', method = 'POST'): Promise<Response> => ref.get(path, { method, body, headers: auth() });
  /** The keys stored under the model's folder, as the backend lists them, and (on the disk) every file in the folder. */
  const stored = async (): Promise<{ keys: string[]; files: string[] }> => ({ keys: (await ref.app.storage.keys('attachment/')).sort(), files: backend === 'disk' ? filesUnder(dir).sort() : [] });
  const keyOf = async (id: number): Promise<string> => ((await ref.app.store.getById('attachment', id))?.file as { key: string }).key;

  it('creates a row from a multipart body: the file is answered with a signed link, its bytes come back exact, by range and as 304', async () => {
    const png = samplePng(40_000);
    const res = await upload(form({ post_id: '1' }, { bytes: png, name: '../../holiday photo.png', type: 'text/plain' }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Answer;
    expect(Object.keys(body).sort()).toEqual(['file', 'id', 'post_id']);
    expect(body.post_id).toBe(1);
    expect(body.file).toMatchObject({ name: 'holiday photo.png', size: png.length, content_type: 'image/png' });
    expect(Object.keys(body.file).sort()).toEqual(['content_type', 'name', 'size', 'url']);
    const key = await keyOf(body.id);
    expect(key).toMatch(/^attachment\/[0-9a-f-]{36}\.png$/);
    // The link works without credentials.
    const got = await ref.get(body.file.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(sha(Buffer.from(await got.arrayBuffer()))).toBe(sha(png));
    const part = await ref.get(body.file.url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(png.subarray(1000, 2000));
    const tag = got.headers.get('etag') ?? '';
    expect(tag).toMatch(/^"[0-9a-f-]{36}\.png"$/);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(new URL(body.file.url, ref.url), { headers: { 'if-none-match': tag } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(304);
    // Retrieve and list answer the same file object.
    const detail = (await (await ref.get(`/api/attachment/${body.id}`, { headers: auth() })).json()) as Answer;
    expect(detail.file).toMatchObject({ name: 'holiday photo.png', size: png.length, content_type: 'image/png' });
    expect(Object.keys(detail.file).sort()).toEqual(['content_type', 'name', 'size', 'url']);
  });

  it('answers the same file over GraphQL', async () => {
    const res = await upload(form({ post_id: '1' }, { bytes: Buffer.from('plain notes\n'), name: 'notes.txt' }));
    const { id } = (await res.json()) as Answer;
    const gql = await ref.get('/graphql', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ attachment(id: "${id}") { id file { name size content_type url } } }` }),
    });
    const { data } = (await gql.json()) as { data: { attachment: { file: Answer['file'] } } };
    expect(data.attachment.file).toMatchObject({ name: 'notes.txt', size: 12, content_type: 'text/plain' });
    expect(await (await ref.get(data.attachment.file.url)).text()).toBe('plain notes\n');
  });

  const markup = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
  it.each([
    ['no file field', () => form({ post_id: '1' }), 400, 'not_null_violation'],
    ['two files in one field', () => form({ post_id: '1', file: [new Blob([samplePdf()]), new Blob([samplePdf()])] }), 400, 'invalid_input'],
    ['a file over 5 MiB', () => form({ post_id: '1' }, { bytes: samplePdf(5 * 1024 * 1024 + 1), name: 'big.pdf' }), 413, 'payload_too_large'],
    ['a type outside accept (a zip)', () => form({ post_id: '1' }, { bytes: Buffer.concat([Buffer.from('504b0304', 'hex'), randomBytes(400)]), name: 'a.zip', type: 'image/png' }), 415, 'unsupported_media_type'],
    ['an empty file', () => form({ post_id: '1' }, { bytes: new Uint8Array(0), name: 'empty.txt' }), 400, 'invalid_input'],
    ['HTML sent as text/plain', () => form({ post_id: '1' }, { bytes: Buffer.from('<!doctype html><script>alert(1)</script>'), name: 'x.txt', type: 'text/plain' }), 415, 'unsupported_media_type'],
    ['SVG sent as text/plain', () => form({ post_id: '1' }, { bytes: markup, name: 'x.svg', type: 'text/plain' }), 415, 'unsupported_media_type'],
    ['a post that does not exist (the insert fails after the upload)', () => form({ post_id: '999999' }, { bytes: samplePdf(), name: 'r.pdf' }), 400, 'foreign_key_violation'],
    ['a field that is not a number', () => form({ post_id: 'one' }, { bytes: samplePdf(), name: 'r.pdf' }), 400, 'invalid_input'],
  ])('refuses %s, storing nothing', async (_case, body, status, code) => {
    const before = await stored();
    const res = await upload(body());
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as Problem).code).toBe(code);
    expect(await stored()).toEqual(before);
  });

  it('refuses a file set from JSON (a body cannot point a row at a stored file), and an anonymous upload before storing it', async () => {
    const before = await stored();
    const json = await ref.get('/api/attachment/', { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify({ post_id: 1, file: { key: before.keys[0] ?? 'attachment/00000000-0000-4000-8000-000000000000.png', name: 'x.png', size: 1, content_type: 'image/png' } }) });
    expect(json.status).toBe(400);
    expect(((await json.json()) as Problem).errors?.[0]?.field).toBe('file');
    const anonymous = await ref.get('/api/attachment/', { method: 'POST', body: form({ post_id: '1' }, { bytes: samplePdf(), name: 'r.pdf' }) });
    expect(anonymous.status).toBe(401);
    expect(await stored()).toEqual(before);
  });

  it('stores nothing and leaves no temporary file when the client aborts mid-body', async () => {
    const before = await stored();
    const boundary = 'cut-off-boundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="post_id"\r\n\r\n1\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    await new Promise<void>((resolve) => {
      const req = request(new URL('/api/attachment/', ref.url), { method: 'POST', headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 3_000_000) } });
      req.on('error', () => resolve());
      req.write(head);
      req.write(samplePdf(500_000), () => setTimeout(() => req.destroy(), 50));
      req.on('close', () => resolve());
    });
    // The server notices the abort on its own time: wait until its parse has given up.
    for (let i = 0; i < 100 && JSON.stringify(await stored()) !== JSON.stringify(before); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await stored()).toEqual(before);
  });

  it('replaces a file with PATCH (the old one is removed after the commit) and removes it with the row', async () => {
    const created = (await (await upload(form({ post_id: '1' }, { bytes: samplePdf(), name: 'v1.pdf' }))).json()) as Answer;
    const first = await keyOf(created.id);
    const patched = await upload(form({}, { bytes: samplePng(3000), name: 'v2.png' }), `/api/attachment/${created.id}`, 'PATCH');
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as Answer).file).toMatchObject({ name: 'v2.png', content_type: 'image/png' });
    const second = await keyOf(created.id);
    expect(second).not.toBe(first);
    const keys = (await stored()).keys;
    expect(keys).toContain(second);
    expect(keys).not.toContain(first);
    expect((await ref.get(`/api/attachment/${created.id}`, { method: 'DELETE', headers: auth() })).status).toBe(204);
    expect((await stored()).keys).not.toContain(second);
  });

  it('takes no multipart body where no file is written', async () => {
    const res = await ref.get('/api/post/', { method: 'POST', headers: auth(), body: form({ title: 'x' }) });
    expect(res.status).toBe(415);
  });
});

describe('file uploads when S3 cannot be reached', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    const port = await freePort();
    ref = await startReference('sqlite', { env: { STORAGE_URL: `s3://nowhere?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}&region=us-east-1`, AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y' } });
  });
  afterAll(() => ref?.close());

  it('answers 503 and writes no row', async () => {
    const { tokens } = await signedInUsers(ref.app, ref.url, ['offline']);
    const body = new FormData();
    body.append('post_id', '1');
    body.append('file', new Blob([samplePdf()]), 'r.pdf');
    const res = await ref.get('/api/attachment/', { method: 'POST', body, headers: { authorization: `Bearer ${tokens.offline}` } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as Problem).code).toBe('storage_unavailable');
    expect(await ref.app.store.count('attachment')).toBe(0);
  });
});
