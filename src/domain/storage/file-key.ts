/**
 * Storage keys (issue 51): made by Portico, never from a client's file name. A key is a UUID and
 * the extension of the file's (sniffed) content type, under an optional folder: `attachment/
 * 3f0c…9a.png`. The extension is how a backend without metadata (the disk) knows the type again.
 */

/** Content types and the one extension each is stored under. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'application/json': 'json',
  'application/zip': 'zip',
  'audio/mpeg': 'mp3',
  'video/mp4': 'mp4',
  'application/octet-stream': 'bin',
};

const TYPES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));

const KEY = /^(?:[a-z0-9][a-z0-9_-]{0,62}\/)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{1,8}$/;

/** True for a key `newFileKey` could have made: no separator tricks, no dots but the extension's. */
export function isFileKey(key: string): boolean {
  return KEY.test(key);
}

/** Throws unless `key` is a well-formed storage key (every backend checks before touching anything). */
export function assertFileKey(key: string): void {
  if (!isFileKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 120))}`);
}

/** A new key for a file of `contentType` under `folder` (a model's table, say). */
export function newFileKey(uuid: string, contentType: string, folder?: string): string {
  const key = `${folder ? `${folder.toLowerCase().replace(/[^a-z0-9_-]/g, '-').slice(0, 63)}/` : ''}${uuid.toLowerCase()}.${EXTENSIONS[contentType] ?? 'bin'}`;
  assertFileKey(key);
  return key;
}

/** The content type a key's extension names (`application/octet-stream` for an unknown one). */
export function contentTypeOfKey(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}
