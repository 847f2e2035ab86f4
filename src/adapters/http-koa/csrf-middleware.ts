import { createHmac, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { sameSecret } from '../../application/auth/secrets.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { readCookie, setCookie } from './cookies.js';
import { isFormRequest, readFormBody } from './read-body.js';

/** DESIGN §3 "CSRF": the cookie, the form field and the header. */
export const CSRF_COOKIE = 'portico_csrf';
export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export interface CsrfOptions {
  readonly secret: string;
  /** Path prefixes exempt from the check, matched on whole segments (`/graphql` covers `/graphql/sse`, not `/graphqlx`). */
  readonly exempt: readonly string[];
  /** Prefixes whose unsafe requests are always checked (the form-auth routes), read per request. */
  readonly protectedPrefixes: () => readonly string[];
  /** The session cookie: an unsafe request carrying it is checked. */
  readonly sessionCookie: string;
  readonly secure: boolean;
  readonly bodyLimit?: number;
}

const sign = (secret: string, nonce: string): string => createHmac('sha256', secret).update(nonce).digest('base64url');

/** True when `path` is `prefix` or below it, on segment boundaries. */
export function underPrefix(path: string, prefix: string): boolean {
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return p === '' || path === p || path.startsWith(`${p}/`);
}

function valid(secret: string, token: string | undefined): token is string {
  if (!token || token.length > 200) return false;
  const [nonce, mac] = token.split('.');
  if (!nonce || !mac) return false;
  return sameSecret(sign(secret, nonce), mac);
}

/** The request's CSRF cookie when its signature holds. */
function validCookieToken(ctx: Koa.Context, secret: string): string | undefined {
  const token = readCookie(ctx, CSRF_COOKIE);
  return valid(secret, token) ? token : undefined;
}

/** A fresh signed token, set as the CSRF cookie. */
function mint(ctx: Koa.Context, options: CsrfOptions): string {
  const nonce = randomBytes(24).toString('base64url');
  const token = `${nonce}.${sign(options.secret, nonce)}`;
  setCookie(ctx, CSRF_COOKIE, token, { sameSite: 'Lax', secure: options.secure, maxAge: 365 * 24 * 3600 });
  return token;
}

/**
 * Signed double-submit CSRF protection. On safe requests `ctx.state.csrfToken()` returns the
 * signed token of the `portico_csrf` cookie, minting it (and setting the cookie) on first use
 * when it is missing or forged; `csrfInput()` calls it.
 * Unsafe requests that are form posts, target a form-auth route, or carry the session cookie must
 * echo the cookie's token in the `csrf_token` field or the `X-CSRF-Token` header; otherwise 403.
 * Requests with neither form body nor session cookie (bearer or anonymous JSON) are not subject to it.
 */
export function csrfMiddleware(options: CsrfOptions): Koa.Middleware {
  const unsafe = checkUnsafe(options);
  // Not async itself: a safe request costs no promise of its own on the way through.
  return (ctx, next) => {
    if (!SAFE.has(ctx.method)) return unsafe(ctx, next);
    // Minted lazily: only a page that renders csrfInput() sets the cookie, so API reads stay cookie-free.
    let token: string | undefined;
    let read = false;
    ctx.state.csrfToken = (): string => {
      if (!read) {
        token = validCookieToken(ctx, options.secret);
        read = true;
      }
      token ??= mint(ctx, options);
      return token;
    };
    return next();
  };
}

/** The check of an unsafe request (the token it must echo), and the rotation after a login or logout. */
function checkUnsafe(options: CsrfOptions): Koa.Middleware {
  return async (ctx, next) => {
    if (options.exempt.some((prefix) => underPrefix(ctx.path, prefix))) return next();
    const form = isFormRequest(ctx.req);
    const checked =
      form || readCookie(ctx, options.sessionCookie) !== undefined || options.protectedPrefixes().some((p) => underPrefix(ctx.path, p));
    if (!checked) return next();
    let submitted = ctx.get(CSRF_HEADER) || undefined;
    if (!submitted && form) {
      const fields = await readFormBody(ctx.req, options.bodyLimit);
      ctx.state.formBody = fields;
      submitted = fields[CSRF_FIELD];
    }
    const cookieToken = validCookieToken(ctx, options.secret);
    if (!cookieToken || !submitted || !sameSecret(submitted, cookieToken)) {
      throw new DomainError('csrf_failed', 'CSRF token missing or incorrect');
    }
    ctx.state.csrfToken = () => cookieToken;
    await next();
    // DESIGN §3 "CSRF": a new token at login and logout, so a token seen before cannot be replayed after.
    if (ctx.state.sessionChanged === true) mint(ctx, options);
  };
}
