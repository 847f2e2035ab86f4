import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskFileStorage } from '../../src/adapters/storage/disk-file-storage.js';
import { MemoryFileStorage } from '../../src/adapters/storage/memory-file-storage.js';
import { S3FileStorage } from '../../src/adapters/storage/s3-file-storage.js';
import { newFileKey } from '../../src/domain/storage/file-key.js';
import { FileExistsError, StorageUnavailableError, type FileStorage } from '../../src/ports/file-storage.js';
import { S3Stand } from '../support/s3-server.js';

/*
 * The FileStorage contract (src/ports/file-storage.ts) over memory, the disk and S3 (s3rver on
 * loopback): bytes in are bytes out, ranges, no overwrite, a failing body leaves nothing behind,
 * delete, keys, and keys that are not Portico's refused before anything is touched.
 */
const dir = mkdtempSync(join(tmpdir(), 'portico-files-'));
let s3: S3Stand;
const backends: Record<string, FileStorage> = {};

beforeAll(async () => {
  s3 = await S3Stand.start();
  backends.memory = new MemoryFileStorage();
  backends.disk = new DiskFileStorage(dir);
  backends.s3 = new S3FileStorage(s3.settings);
});
afterAll(async () => {
  (backends.s3 as S3FileStorage | undefined)?.close();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
async function* chunks(bytes: Uint8Array, size = 64 * 1024): AsyncIterable<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
async function read(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

describe.each(['memory', 'disk', 's3'])('FileStorage contract: %s', (name) => {
  const storage = (): FileStorage => backends[name] as FileStorage;
  const key = (type = 'image/png', folder = 'contract') => newFileKey(randomUUID(), type, folder);

  it('stores a stream and gives the same bytes back, with its size and content type', async () => {
    const bytes = randomBytes(200_000);
    const k = key();
    const stored = await storage().put(k, chunks(bytes), { contentType: 'image/png' });
    expect(stored).toMatchObject({ key: k, size: bytes.length, contentType: 'image/png' });
    const got = await storage().get(k);
    expect(got).toMatchObject({ size: bytes.length, contentType: 'image/png' });
    expect(sha(await read(got?.body ?? chunks(new Uint8Array())))).toBe(sha(bytes));
    expect(await storage().stat(k)).toMatchObject({ key: k, size: bytes.length, contentType: 'image/png', lastModified: expect.any(Date) });
  });

  it('reads a byte range, the size still the whole file', async () => {
    const bytes = randomBytes(1000);
    const k = key('application/pdf');
    await storage().put(k, chunks(bytes), { contentType: 'application/pdf' });
    const part = await storage().get(k, { start: 10, end: 19 });
    expect(part?.size).toBe(1000);
    expect(part?.range).toEqual({ start: 10, end: 19 });
    expect(await read(part?.body ?? chunks(new Uint8Array()))).toEqual(bytes.subarray(10, 20));
    const last = await storage().get(k, { start: 999, end: 999 });
    expect(await read(last?.body ?? chunks(new Uint8Array()))).toEqual(bytes.subarray(999));
  });

  it('never overwrites: a second put of a key fails and the first bytes stay', async () => {
    const k = key('text/plain');
    await storage().put(k, chunks(Buffer.from('first')), { contentType: 'text/plain' });
    await expect(storage().put(k, chunks(Buffer.from('second')), { contentType: 'text/plain' })).rejects.toBeInstanceOf(FileExistsError);
    expect((await read((await storage().get(k))?.body ?? chunks(new Uint8Array()))).toString()).toBe('first');
  });

  it('leaves nothing behind when the body fails part way (a client that aborts, a limit), rethrowing the body\'s own error', async () => {
    const k = key('image/png', 'aborted');
    async function* failing(): AsyncIterable<Uint8Array> {
      yield randomBytes(100_000);
      yield randomBytes(100_000);
      throw new Error('client went away');
    }
    await expect(storage().put(k, failing(), { contentType: 'image/png' })).rejects.toThrow('client went away');
    expect(await storage().stat(k)).toBeNull();
    expect(await storage().keys('aborted/')).toEqual([]);
    if (storage() instanceof DiskFileStorage) expect(await (storage() as DiskFileStorage).incoming()).toEqual([]);
  });

  it('deletes once, and a missing key reads as null', async () => {
    const k = key();
    await storage().put(k, chunks(Buffer.from('x')), { contentType: 'image/png' });
    expect(await storage().delete(k)).toBe(true);
    expect(await storage().delete(k)).toBe(false);
    expect(await storage().get(k)).toBeNull();
    expect(await storage().stat(k)).toBeNull();
  });

  it('lists keys under a prefix', async () => {
    const folder = `list${Date.now()}`;
    const a = key('image/png', folder);
    const b = key('text/plain', folder);
    await storage().put(a, chunks(Buffer.from('a')), { contentType: 'image/png' });
    await storage().put(b, chunks(Buffer.from('b')), { contentType: 'text/plain' });
    expect((await storage().keys(`${folder}/`)).sort()).toEqual([a, b].sort());
  });

  it('stores a file of several multipart parts (6 MiB)', async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    const k = key('video/mp4');
    expect((await storage().put(k, chunks(bytes, 1024 * 1024), { contentType: 'video/mp4' })).size).toBe(bytes.length);
    expect(sha(await read((await storage().get(k))?.body ?? chunks(new Uint8Array())))).toBe(sha(bytes));
  });

  it('refuses a key Portico did not make before touching anything', async () => {
    for (const bad of ['../escape.png', '/etc/passwd', 'a/../../b.png', 'x.png\u0000', 'contract/not-a-uuid.png', `${randomUUID()}.png/..`]) {
      await expect(storage().put(bad, chunks(Buffer.from('x')), { contentType: 'image/png' })).rejects.toThrow(/not a storage key/);
      await expect(storage().get(bad)).rejects.toThrow(/not a storage key/);
    }
  });

  it('gives a direct URL only where the backend serves one itself', async () => {
    const k = key('text/plain');
    await storage().put(k, chunks(Buffer.from('direct')), { contentType: 'text/plain' });
    const url = await storage().directUrl(k, 60);
    if (name === 's3') {
      expect(url).toMatch(/X-Amz-Expires=60/);
      expect(await (await fetch(url ?? '')).text()).toBe('direct');
    } else expect(url).toBeNull();
  });
});

it('S3 that cannot be reached is StorageUnavailableError, not a hang', async () => {
  const down = new S3FileStorage({ ...s3.settings, endpoint: 'http://127.0.0.1:9' });
  await expect(down.put(newFileKey(randomUUID(), 'text/plain'), chunks(Buffer.from('x')), { contentType: 'text/plain' })).rejects.toBeInstanceOf(StorageUnavailableError);
  await expect(down.stat(newFileKey(randomUUID(), 'text/plain'))).rejects.toBeInstanceOf(StorageUnavailableError);
  down.close();
});
