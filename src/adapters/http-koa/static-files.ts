import { createReadStream, readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type Koa from 'koa';
import parseRange from 'range-parser';
import { staticName, type StaticManifest } from '../../domain/storage/static-manifest.js';
import { DomainError } from '../../domain/errors/domain-error.js';

/** Where the static files are read from now: the collected folder with its manifest, or the source folder. */
export interface StaticRoot {
  readonly dir: string;
  /** The collected manifest, when `portico collectstatic` wrote one (hashed names, encodings). */
  readonly manifest: StaticManifest | undefined;
}

export interface StaticFilesOptions {
  /** The URL prefix, with both slashes (`/static/`). */
  readonly prefix: string;
  readonly root: StaticRoot;
}

const YEAR = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
type Encoding = (typeof ENCODINGS)[number][0];

/** Files up to this size are kept in memory once read (while their size and time stay the same). */
const CACHED_FILE_BYTES = 256 * 1024;
/** All the kept files together. */
const CACHE_BYTES = 32 * 1024 * 1024;

interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly mtime: Date;
}

/** A file's validator, nginx's: size and modification time (strong, so `If-Range` can use it; an encoded copy has its own). */
const etagOf = (size: number, mtimeMs: number, encoding: string): string => `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;

async function fileAt(path: string): Promise<FileStat | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The precompressed copies under `dir` (`name` → its encodings), read once: they are build output. */
function scanEncodings(dir: string): Map<string, Encoding[]> {
  const found = new Map<string, Encoding[]>();
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return found;
  }
  for (const file of names) {
    const name = file.split(sep).join('/');
    for (const [encoding, suffix] of ENCODINGS) {
      if (!name.endsWith(suffix)) continue;
      const plain = name.slice(0, -suffix.length);
      found.set(plain, [...(found.get(plain) ?? []), encoding]);
    }
  }
  return found;
}

/** Small files' bytes, kept while the file's size and time are unchanged (checked by the stat every request makes). */
class SmallFiles {
  private readonly kept = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly bytes: Buffer }>();
  private total = 0;

  async read(path: string, file: FileStat): Promise<Buffer | undefined> {
    if (file.size > CACHED_FILE_BYTES) return undefined;
    const hit = this.kept.get(path);
    if (hit && hit.size === file.size && hit.mtimeMs === file.mtimeMs) return hit.bytes;
    const bytes = await readFile(path);
    if (bytes.length !== file.size) return undefined;
    if (hit) this.total -= hit.size;
    this.kept.delete(path);
    // The oldest go first once the budget is spent.
    for (const [key, entry] of this.kept) {
      if (this.total + bytes.length <= CACHE_BYTES) break;
      this.kept.delete(key);
      this.total -= entry.size;
    }
    this.kept.set(path, { size: file.size, mtimeMs: file.mtimeMs, bytes });
    this.total += bytes.length;
    return bytes;
  }
}

/**
 * Serves the files under `root` at `prefix` (issue 51) inside Koa's answer, so hardening headers,
 * the request log and the problem mapping apply: `ETag` and `Last-Modified` with 304, one byte
 * range (206; 416 with a `Content-Range` naming the size; `If-Range` honoured; several ranges get the
 * whole file), a precompressed `.br` or `.gz` beside the file when the client accepts it (those
 * the manifest lists, or found at start), and hashed names of the manifest cached for a year.
 * Every request stats the file, so an edited file is served fresh; files up to 256 KB are kept in
 * memory while unchanged. The path is decoded once and checked: a NUL, a backslash, an empty,
 * `.` or `..` segment or a dotfile never reaches the disk (404; a malformed escape is 400).
 */
export function staticFilesMiddleware(options: StaticFilesOptions): Koa.Middleware {
  const { prefix } = options;
  const base = resolve(options.root.dir);
  const manifest = options.root.manifest;
  const immutable = new Set(manifest ? Object.values(manifest.paths) : []);
  const encodings: ReadonlyMap<string, readonly Encoding[]> = manifest ? new Map(Object.entries(manifest.encoded)) : scanEncodings(base);
  const small = new SmallFiles();
  const serve = async (ctx: Koa.Context, next: Koa.Next): Promise<unknown> => {
    let name: string | undefined;
    try {
      name = staticName(decodeURIComponent(ctx.path.slice(prefix.length)));
    } catch {
      throw new DomainError('invalid_input', 'the static file path has a malformed escape');
    }
    const path = name === undefined ? undefined : join(base, ...name.split('/'));
    if (!name || !path || !path.startsWith(base + sep)) return next();
    const file = await fileAt(path);
    if (!file) return next();
    // A precompressed copy the client accepts, when one exists.
    const variants = encodings.get(name) ?? [];
    let served = path;
    let stats = file;
    let encoding = '';
    for (const [kind, suffix] of ENCODINGS) {
      if (!variants.includes(kind) || ctx.acceptsEncodings(kind, 'identity') !== kind) continue;
      const copy = await fileAt(path + suffix);
      if (!copy) continue;
      served = path + suffix;
      stats = copy;
      encoding = kind;
      ctx.set('Content-Encoding', kind);
      break;
    }
    ctx.type = name.slice(name.lastIndexOf('.'));
    if (variants.length > 0) ctx.vary('Accept-Encoding');
    ctx.set('Cache-Control', immutable.has(name) ? YEAR : REVALIDATE);
    ctx.set('Accept-Ranges', 'bytes');
    const etag = etagOf(stats.size, stats.mtimeMs, encoding);
    ctx.set('ETag', etag);
    ctx.lastModified = stats.mtime;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    let start = 0;
    let end = stats.size - 1;
    const header = ctx.get('Range');
    if (header && ifRangeHolds(ctx.get('If-Range'), etag, stats.mtime)) {
      const ranges = parseRange(stats.size, header, { combine: true });
      if (ranges === -1) {
        ctx.status = 416;
        ctx.set('Content-Range', `bytes */${stats.size}`);
        ctx.body = '';
        ctx.remove('Content-Length');
        return;
      }
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1 && ranges[0]) {
        ({ start, end } = ranges[0]);
        ctx.status = 206;
        ctx.set('Content-Range', `bytes ${start}-${end}/${stats.size}`);
      }
    }
    if (ctx.method === 'HEAD' || stats.size === 0) ctx.body = '';
    else {
      const bytes = await small.read(served, stats);
      ctx.body = bytes ? bytes.subarray(start, end + 1) : createReadStream(served, { start, end });
    }
    ctx.length = end - start + 1;
  };
  // Every other request passes through without an async frame of its own (this runs before the routes).
  return (ctx, next) => ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(prefix) ? next() : serve(ctx, next));
}

/** `If-Range`: absent, the current entity tag (a weak one never matches, RFC 9110), or a date not before the file's. */
function ifRangeHolds(value: string, etag: string, mtime: Date): boolean {
  if (!value) return true;
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(mtime.getTime() / 1000) <= Math.floor(date / 1000);
}
