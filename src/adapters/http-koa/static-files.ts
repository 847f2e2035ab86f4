import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
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

/** A file's validator, nginx's: size and modification time (strong, so `If-Range` can use it; an encoded copy has its own). */
const etagOf = (size: number, mtimeMs: number, encoding: string): string => `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}${encoding ? `-${encoding}` : ''}"`;

async function fileAt(path: string): Promise<{ size: number; mtimeMs: number; mtime: Date } | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the files under `root` at `prefix` (issue 51) inside Koa's answer, so hardening headers,
 * the request log and the problem mapping apply: `ETag` and `Last-Modified` with 304, one byte
 * range (206; 416 with a `Content-Range` naming the size; `If-Range` honoured; several ranges get the
 * whole file), a precompressed `.br` or `.gz` beside the file when the client accepts it, and
 * hashed names of the manifest cached for a year. The path is decoded once and checked: a NUL,
 * a backslash, an empty, `.` or `..` segment or a dotfile never reaches the disk (404; a malformed
 * escape is 400).
 */
export function staticFilesMiddleware(options: StaticFilesOptions): Koa.Middleware {
  const { prefix } = options;
  const base = resolve(options.root.dir);
  const manifest = options.root.manifest;
  const immutable = new Set(manifest ? Object.values(manifest.paths) : []);
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !ctx.path.startsWith(prefix)) return next();
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
    // A precompressed copy the client accepts: those the manifest lists, else any beside the file.
    const listed = manifest?.encoded[name];
    let served = path;
    let encoded: { size: number; mtimeMs: number; mtime: Date } | undefined;
    let varies = false;
    for (const [encoding, suffix] of ENCODINGS) {
      if (listed && !listed.includes(encoding)) continue;
      const copy = await fileAt(path + suffix);
      if (!copy) continue;
      varies = true;
      if (ctx.acceptsEncodings(encoding, 'identity') !== encoding) continue;
      encoded = copy;
      served = path + suffix;
      ctx.set('Content-Encoding', encoding);
      break;
    }
    const stats = encoded ?? file;
    ctx.type = name.slice(name.lastIndexOf('.'));
    if (varies) ctx.vary('Accept-Encoding');
    ctx.set('Cache-Control', immutable.has(name) ? YEAR : REVALIDATE);
    ctx.set('Accept-Ranges', 'bytes');
    const etag = etagOf(stats.size, stats.mtimeMs, encoded ? String(ctx.response.get('Content-Encoding')) : '');
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
    if (ctx.method === 'HEAD' || stats.size === 0) {
      ctx.body = '';
    } else {
      ctx.body = createReadStream(served, { start, end });
    }
    ctx.length = end - start + 1;
  };
}

/** `If-Range`: absent, the current entity tag (a weak one never matches, RFC 9110), or a date not before the file's. */
function ifRangeHolds(value: string, etag: string, mtime: Date): boolean {
  if (!value) return true;
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(mtime.getTime() / 1000) <= Math.floor(date / 1000);
}
