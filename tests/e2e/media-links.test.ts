import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newFileKey } from '../../src/index.js';
import { ManualClock } from '../support/open-test-database.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { S3Stand } from '../support/s3-server.js';

/**
 * Issue 51, signed file links of the reference app (`storage()`, `STORAGE_URL`), on the disk
 * and on S3 (s3rver on loopback): the exact bytes through `/media/<key>` on both, one byte range,
 * the answer's safety headers (nosniff, a sandboxing CSP, attachment unless an allowlisted
 * image), and 403 for a link that was changed or has expired; 503 when S3 cannot be reached.
 */
const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

let s3: S3Stand;
const dir = mkdtempSync(join(tmpdir(), 'portico-media-'));
beforeAll(async () => {
  s3 = await S3Stand.start('reference-media');
});
afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['disk', 's3'])('signed file links on %s', (backend) => {
  let ref: RunningReference;
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    const STORAGE_URL = backend === 'disk' ? `file:${dir}` : `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=us-east-1`;
    ref = await startReference('sqlite', { env: { STORAGE_URL, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' }, clock });
  });
  afterAll(() => ref?.close());

  const stored = async (type: string, bytes: Uint8Array): Promise<string> => {
    const key = newFileKey(randomUUID(), type, 'media-test');
    await ref.app.storage.put(key, once(bytes), { contentType: type });
    return key;
  };

  it('serves the exact bytes, downloading what is not an allowlisted image', async () => {
    const bytes = randomBytes(300_000);
    const key = await stored('application/pdf', bytes);
    const res = await ref.get(ref.app.mediaUrl(key, '../../report "final".pdf'));
    expect(res.status).toBe(200);
    expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(bytes));
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="report final.pdf"');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('shows an allowlisted image inline, and serves one byte range', async () => {
    const bytes = randomBytes(5000);
    const key = await stored('image/png', bytes);
    const url = ref.app.mediaUrl(key, 'photo.png');
    expect((await ref.get(url)).headers.get('content-disposition')).toBe('inline; filename="photo.png"');
    const part = await ref.get(url, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/5000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    const beyond = await ref.get(url, { headers: { range: 'bytes=9000-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */5000');
  });

  it('refuses a changed link or an expired one with 403, and a gone file with 404', async () => {
    const key = await stored('text/plain', Buffer.from('secret notes'));
    const url = new URL(ref.app.mediaUrl(key, 'notes.txt'), ref.url);
    const changed = (edit: (u: URL) => void): string => {
      const copy = new URL(url);
      edit(copy);
      return `${copy.pathname}${copy.search}`;
    };
    const other = await stored('text/plain', Buffer.from('other notes'));
    for (const path of [
      changed((u) => u.searchParams.set('name', 'evil.html')),
      changed((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      changed((u) => u.searchParams.set('signature', `${(u.searchParams.get('signature') ?? '').slice(0, -2)}AA`)),
      changed((u) => u.searchParams.delete('signature')),
      changed((u) => (u.pathname = `/media/${other}`)),
      `/media/../package.json?${url.searchParams.toString()}`,
    ]) {
      const res = await ref.get(path);
      expect(res.status, path).toBe(path.includes('..') ? 404 : 403);
      expect(await res.text()).not.toContain('notes');
    }
    expect((await ref.get(`${url.pathname}${url.search}`)).status).toBe(200);
    clock.advance(3601_000);
    try {
      const expired = await ref.get(`${url.pathname}${url.search}`);
      expect(expired.status).toBe(403);
      expect(await expired.json()).toMatchObject({ code: 'forbidden', detail: 'this file link was changed or has expired' });
    } finally {
      clock.set(new Date());
    }
    await ref.app.storage.delete(key);
    expect((await ref.get(ref.app.mediaUrl(key, 'notes.txt'))).status).toBe(404);
  });
});

it('answers 503 when S3 cannot be reached', async () => {
  const ref = await startReference('sqlite', { env: { STORAGE_URL: 's3://unreachable?endpoint=http%3A%2F%2F127.0.0.1%3A9&region=us-east-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'y' } });
  try {
    const res = await ref.get(ref.app.mediaUrl(newFileKey(randomUUID(), 'text/plain'), 'a.txt'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'storage_unavailable' });
  } finally {
    await ref.close();
  }
});
