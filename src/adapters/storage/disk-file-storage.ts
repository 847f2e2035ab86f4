import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertFileKey, contentTypeOfKey } from '../../domain/storage/file-key.js';
import { FileExistsError, type ByteRange, type FileContent, type FileStorage, type StoredFile } from '../../ports/file-storage.js';

const TEMP = '.incoming';

const missing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Runs `work`; when it fails because the folder of `path` is missing, makes it and runs `work` again. */
async function whenFolderMissing<T>(work: () => Promise<T>, path: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!missing(error)) throw error;
    await mkdir(dirname(path), { recursive: true });
    return work();
  }
}

/**
 * Files under a folder of the local disk. A put streams into `<root>/.incoming/<uuid>` and then
 * hard-links it to its key, which fails when the key exists (no overwrite, no window where a
 * half-written file has the key's name); a body that fails removes the temporary file. The
 * content type is the one the key's extension names (the key was made from it).
 */
export class DiskFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    assertFileKey(key);
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: AsyncIterable<Uint8Array>): Promise<StoredFile> {
    const target = this.path(key);
    const temp = join(this.root, TEMP, randomUUID());
    // The folders are made when missing only (not before each put: two syscalls saved per file).
    const handle = await whenFolderMissing(() => open(temp, 'wx'), temp);
    try {
      // The stream writes through the descriptor with callbacks (a FileHandle stream costs promises per chunk); the handle closes it.
      await pipeline(Readable.from(body), createWriteStream(temp, { fd: handle.fd, autoClose: false }));
      await whenFolderMissing(() => link(temp, target), target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new FileExistsError(`${key} is stored already`);
      throw error;
    } finally {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
    return (await this.stat(key)) as StoredFile;
  }

  async get(key: string, range?: ByteRange): Promise<FileContent | null> {
    const found = await this.stat(key);
    if (!found) return null;
    const body = createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
    return { ...found, body, ...(range ? { range } : {}) };
  }

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, contentType: contentTypeOfKey(key), lastModified: new Date(Math.floor(s.mtimeMs / 1000) * 1000) } : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.path(key));
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }

  async keys(prefix = ''): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.root, join(e.parentPath, e.name)).split(sep).join('/'))
      .filter((k) => !k.startsWith(`${TEMP}/`) && k.startsWith(prefix));
  }

  /** Every temporary file of a put in flight or one that died with its process (tests: none may be left). */
  async incoming(): Promise<string[]> {
    try {
      return await readdir(join(this.root, TEMP));
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  }

  async directUrl(): Promise<null> {
    return null;
  }
}
