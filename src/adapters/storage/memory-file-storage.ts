import { assertFileKey } from '../../domain/storage/file-key.js';
import { FileExistsError, type ByteRange, type FileContent, type FileStorage, type StoredFile } from '../../ports/file-storage.js';

interface Held {
  readonly bytes: Uint8Array;
  readonly contentType: string;
  readonly lastModified: Date;
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

/** Files in process memory (tests, `portico/testing`): the same rules as the disk and S3. */
export class MemoryFileStorage implements FileStorage {
  private readonly files = new Map<string, Held>();

  async put(key: string, body: AsyncIterable<Uint8Array>, options: { readonly contentType: string }): Promise<StoredFile> {
    assertFileKey(key);
    if (this.files.has(key)) throw new FileExistsError(`${key} is stored already`);
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    if (this.files.has(key)) throw new FileExistsError(`${key} is stored already`);
    const bytes = Buffer.concat(chunks);
    const held = { bytes, contentType: options.contentType, lastModified: new Date(Math.floor(Date.now() / 1000) * 1000) };
    this.files.set(key, held);
    return this.describe(key, held);
  }

  async get(key: string, range?: ByteRange): Promise<FileContent | null> {
    assertFileKey(key);
    const held = this.files.get(key);
    if (!held) return null;
    const bytes = range ? held.bytes.subarray(range.start, range.end + 1) : held.bytes;
    return { ...this.describe(key, held), body: once(bytes), ...(range ? { range } : {}) };
  }

  async stat(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    const held = this.files.get(key);
    return held ? this.describe(key, held) : null;
  }

  async delete(key: string): Promise<boolean> {
    assertFileKey(key);
    return this.files.delete(key);
  }

  async keys(prefix = ''): Promise<string[]> {
    return [...this.files.keys()].filter((k) => k.startsWith(prefix));
  }

  async directUrl(): Promise<null> {
    return null;
  }

  private describe(key: string, held: Held): StoredFile {
    return { key, size: held.bytes.byteLength, contentType: held.contentType, lastModified: held.lastModified };
  }
}
