import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { IdempotentRequests } from '../../application/idempotency/idempotent-requests.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { isMultipartRequest, readText } from './read-body.js';

const UNSAFE = new Set(['POST', 'PATCH', 'DELETE']);
const KEY = /^[\x21-\x7e]{1,255}$/;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

/**
 * `Idempotency-Key` on POST, PATCH and DELETE (DESIGN §3 "idempotency"). The body is read here
 * (and handed on to the route) to fingerprint the request; the caller's scope is a hash of its
 * credentials (Authorization header or session cookie), so keys never cross callers; an `If-Match`
 * is part of the request. A retry gets the first answer (with its `ETag`), replayed with
 * `Idempotent-Replayed: true`. Requests without the header pass through untouched.
 */
export function idempotencyMiddleware(requests: IdempotentRequests, options: { sessionCookie: string; bodyLimit?: number }): Koa.Middleware {
  const remembered = rememberedAnswer(requests, options);
  // Not async itself: a request without the header costs no promise of its own on the way through.
  return (ctx, next) => {
    const key = ctx.get('idempotency-key');
    return key && UNSAFE.has(ctx.method) ? remembered(ctx, next, key) : next();
  };
}

function rememberedAnswer(
  requests: IdempotentRequests,
  options: { sessionCookie: string; bodyLimit?: number },
): (ctx: Koa.Context, next: Koa.Next, key: string) => Promise<void> {
  return async (ctx, next, key) => {
    if (!KEY.test(key)) throw new DomainError('invalid_input', 'Idempotency-Key must be 1 to 255 visible ASCII characters', [{ field: 'Idempotency-Key', message: 'invalid' }]);
    // An upload streams into storage as it arrives: it is never held whole to be fingerprinted.
    if (isMultipartRequest(ctx.req)) throw new DomainError('invalid_input', 'Idempotency-Key is not taken on a multipart/form-data upload', [{ field: 'Idempotency-Key', message: 'not taken on uploads' }]);
    const text = await readText(ctx.req, options.bodyLimit);
    const scope = sha256(`${ctx.get('authorization')}\n${ctx.cookies.get(options.sessionCookie) ?? ''}`);
    // A precondition is part of the request (a line of its own first: no request line starts with `[`).
    const ifMatch = ctx.get('if-match');
    const fingerprint = sha256(`${ifMatch ? `${JSON.stringify([ifMatch])}\n` : ''}${ctx.method} ${ctx.path}?${ctx.querystring}\n${ctx.get('content-type')}\n${text}`);
    const decision = await requests.begin(key, scope, fingerprint);
    if (decision.kind === 'replay') {
      ctx.status = decision.answer.status;
      ctx.set('Idempotent-Replayed', 'true');
      if (decision.answer.etag) ctx.set('ETag', decision.answer.etag);
      if (decision.answer.body !== '') {
        ctx.type = decision.answer.type;
        ctx.body = decision.answer.body;
      }
      return;
    }
    try {
      await next();
    } catch (error) {
      await requests.abandon(key, scope);
      throw error;
    }
    const raw: unknown = ctx.body;
    if (raw !== null && typeof raw === 'object' && 'pipe' in raw) return requests.abandon(key, scope); // a stream is not replayable
    const body = raw === undefined || raw === null ? '' : typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : JSON.stringify(raw);
    const etag = ctx.response.get('ETag');
    await requests.finish(key, scope, { status: ctx.status, type: ctx.response.get('Content-Type') || 'application/json; charset=utf-8', body, ...(etag ? { etag } : {}) });
  };
}
