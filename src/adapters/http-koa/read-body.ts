import type { IncomingMessage } from 'node:http';
import { readRawBody } from './commonjs-packages.js';
import { DomainError } from '../../domain/errors/domain-error.js';

/** The largest request body Portico reads (DESIGN §3 "writes": over 1 MiB answers 413). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const mediaType = (req: IncomingMessage): string => (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Decodes strictly: invalid UTF-8 is refused, never replaced with U+FFFD behind the caller's back. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body text of each request, read once: the idempotency middleware, CSRF and the route may all need it. */
const texts = new WeakMap<IncomingMessage, Promise<string>>();

/** Reads the request body as strict UTF-8 text (415 with a content coding, 413 over `limit`, 400 for invalid UTF-8), once per request. */
export function readText(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<string> {
  let text = texts.get(req);
  if (!text) {
    text = readTextOnce(req, limit);
    texts.set(req, text);
  }
  return text;
}

/**
 * A body sent with a content coding (`Content-Encoding: gzip`): 415 with `Accept-Encoding:
 * identity`, the header RFC 9110 §15.5.16 names for saying which codings a request may use.
 */
export class UnsupportedContentEncoding extends DomainError {
  override readonly name = 'UnsupportedContentEncoding';
  readonly headers: Readonly<Record<string, string>> = { 'Accept-Encoding': 'identity' };
  constructor(coding: string) {
    super('unsupported_media_type', `a body with Content-Encoding ${JSON.stringify(coding)} is not accepted: send it without a content coding`);
  }
}

/** The request's content coding when it has one other than `identity` (any case, around spaces). */
function contentCoding(req: IncomingMessage): string | undefined {
  const coding = req.headers['content-encoding']?.trim();
  return coding && coding.toLowerCase() !== 'identity' ? coding : undefined;
}

async function readTextOnce(req: IncomingMessage, limit: number): Promise<string> {
  // Read as it came, a compressed body would be refused as "not valid UTF-8" or "not valid JSON".
  const coding = contentCoding(req);
  if (coding !== undefined) throw new UnsupportedContentEncoding(coding);
  const length = req.headers['content-length'];
  let bytes: Buffer;
  try {
    bytes = await readRawBody(req, { limit, ...(length ? { length } : {}) });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new DomainError('payload_too_large', `the body is larger than ${limit} bytes`);
    }
    throw new DomainError('invalid_input', 'the body could not be read');
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new DomainError('invalid_input', 'the body is not valid UTF-8');
  }
}

/** True when the request carries a `multipart/form-data` body (an upload). */
export function isMultipartRequest(req: IncomingMessage): boolean {
  return mediaType(req) === 'multipart/form-data';
}

/** True when the request carries an HTML form body. */
export function isFormRequest(req: IncomingMessage): boolean {
  const type = mediaType(req);
  return type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data';
}

/**
 * Reads and parses a JSON body: wrong content type 415, over the limit 413, malformed 400.
 * An empty body parses as undefined.
 */
export async function readJsonBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  if (!hasBody(req)) return undefined;
  const type = mediaType(req);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new DomainError('unsupported_media_type', 'the body must be application/json');
  }
  const text = await readText(req, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('malformed_json', 'the body is not valid JSON');
  }
}

/** Reads an `application/x-www-form-urlencoded` body into string fields (first value wins); 415 for other types. */
export async function readFormBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<Record<string, string>> {
  if (!hasBody(req)) return {};
  if (mediaType(req) !== 'application/x-www-form-urlencoded') {
    throw new DomainError('unsupported_media_type', 'the body must be application/x-www-form-urlencoded');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(await readText(req, limit))) {
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}
