import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { DomainError } from '../../domain/errors/domain-error.js';

/** The largest request body Portico reads (DESIGN §3 "writes": over 1 MiB answers 413). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads and parses a JSON body: wrong content type 415, over the limit 413, malformed 400.
 * An empty body parses as undefined.
 */
export async function readJsonBody(req: IncomingMessage, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const length = req.headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new DomainError('unsupported_media_type', 'the body must be application/json');
  }
  let text: string;
  try {
    text = await getRawBody(req, { limit, encoding: 'utf-8', ...(length ? { length } : {}) });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new DomainError('payload_too_large', `the body is larger than ${limit} bytes`);
    }
    throw new DomainError('invalid_input', 'the body could not be read');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('malformed_json', 'the body is not valid JSON');
  }
}
