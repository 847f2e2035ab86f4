import { Readable } from 'node:stream';
import contentDisposition from 'content-disposition';
import parseRange from 'range-parser';
import { mediaTag, type RangeChoice, type ServeMedia } from '../../../application/storage/serve-media.js';
import { MEDIA_CSP } from '../../../domain/storage/media-rules.js';
import type { HttpRequest, HttpResponse, RouteDef } from '../http-route.js';

const first = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? '') : (v ?? ''));

/** What a `Range` header asks of `size` bytes (one range; several, or none it understands, get the whole file). */
export function rangeChoice(header: string, size: number): RangeChoice {
  if (!header) return 'whole';
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1 || !ranges[0]) return 'whole';
  return { start: ranges[0].start, end: ranges[0].end };
}

/**
 * `GET <prefix><key>?name=&expires=&signature=` (issue 51): a stored file through its signed
 * link, on every backend (S3 streams through). The answer has the stored type with `nosniff`, a
 * sandboxing CSP, `Content-Disposition` (inline for allowlisted images, else attachment, with
 * the kept name), `Cache-Control: private` until the link expires, a strong `ETag` (a key is
 * written once; `If-None-Match` answers 304), and one byte range on ask.
 */
export function mediaRoutes(deps: { readonly prefix: string; readonly serve: ServeMedia }): RouteDef[] {
  const handler = async (req: HttpRequest): Promise<HttpResponse> => {
    const key = req.path.slice(deps.prefix.length);
    const expires = Number(first(req.query.expires));
    const parts = { key, name: first(req.query.name), expires, signature: first(req.query.signature) };
    const header = first(req.headers.range);
    const ifNoneMatch = first(req.headers['if-none-match']) || undefined;
    const answer = await deps.serve.execute(parts, header ? (size) => rangeChoice(header, size) : undefined, ifNoneMatch);
    if (answer.kind === 'unchanged') return { status: 304, headers: { ETag: mediaTag(key), 'Cache-Control': `private, max-age=${answer.secondsLeft}` } };
    if (answer.kind === 'unsatisfiable') return { status: 416, headers: { 'Content-Range': `bytes */${answer.size}` }, body: '', type: 'text/plain' };
    const { file } = answer;
    const headers: Record<string, string> = {
      'Content-Security-Policy': MEDIA_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': contentDisposition(answer.name, { type: answer.inline ? 'inline' : 'attachment' }),
      'Cache-Control': `private, max-age=${answer.secondsLeft}`,
      'Accept-Ranges': 'bytes',
      ETag: mediaTag(key),
      'Last-Modified': file.lastModified.toUTCString(),
      'Content-Length': String(file.range ? file.range.end - file.range.start + 1 : file.size),
      ...(file.range ? { 'Content-Range': `bytes ${file.range.start}-${file.range.end}/${file.size}` } : {}),
    };
    return { status: file.range ? 206 : 200, headers, body: Readable.from(file.body), type: file.contentType };
  };
  return [{ method: 'GET', path: `${deps.prefix}*key`, handler }];
}
