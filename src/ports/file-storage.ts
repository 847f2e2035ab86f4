/** What a backend knows of a stored file. */
export interface StoredFile {
  readonly key: string;
  readonly size: number;
  readonly contentType: string;
  readonly lastModified: Date;
}

/** An inclusive byte range of a file (`bytes=start-end`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** A stored file's bytes, whole or a range of them. */
export interface FileContent extends StoredFile {
  readonly body: AsyncIterable<Uint8Array>;
  /** The range served, when one was asked for. */
  readonly range?: ByteRange;
}

/** A `put` of a key that is stored already: keys are never overwritten. */
export class FileExistsError extends Error {
  override readonly name = 'FileExistsError';
}

/** The backend cannot be reached or refused the operation: the caller answers 503. */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}

/**
 * Where uploaded files live: the local disk, S3 or memory (DESIGN §1 storage). Keys are the
 * application's (a UUID and a safe extension), never a client's file name; a key is written
 * once. A `put` whose body fails (a client that aborts, a size limit the caller's stream
 * enforces) leaves nothing behind: no object, no temporary file.
 *
 * @example
 * await storage.put('8f1c….png', stream, { contentType: 'image/png' });
 * const file = await storage.get('8f1c….png', { start: 0, end: 99 }); // the first 100 bytes
 */
export interface FileStorage {
  /** Stores `body` under `key`; throws FileExistsError when the key is taken, StorageUnavailableError when the backend is unreachable. */
  put(key: string, body: AsyncIterable<Uint8Array>, options: { readonly contentType: string }): Promise<StoredFile>;
  /** The file's bytes (only `range`, when given, clamped by the caller to the size), or null when there is no such file. */
  get(key: string, range?: ByteRange): Promise<FileContent | null>;
  stat(key: string): Promise<StoredFile | null>;
  /** Removes the file; true when it existed. */
  delete(key: string): Promise<boolean>;
  /** Every key under `prefix`, in no particular order (sweeps, tests). */
  keys(prefix?: string): Promise<string[]>;
  /**
   * A URL the backend itself serves the file at for `seconds` (S3: a presigned GET), or null
   * for a backend that has none (disk, memory): Portico's own signed route serves every backend.
   */
  directUrl(key: string, seconds: number): Promise<string | null>;
}
