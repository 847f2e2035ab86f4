import { createHmac, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { sameSecret } from '../../application/auth/secrets.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { readCookie, setCookie } from './cookies.js';
import { isFormRequest, isMultipartRequest, readFormBody } from './read-body.js';

/** DESIGN §3 "CSRF": the cookie, the form field and the header. */
export const CSRF_COOKIE = 'portico_csrf';
export const CSRF_FIELD = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
/**
 * Where a `multipart/form-data` request without the header keeps the token its body must start
 * with (the upload reader checks its first field before it keeps any file); '' when the request
 * has no valid CSRF cookie, so no token can match.
 */
export const MULTIPART_CSRF = 'porticoMultipartCsrf';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const NO_ORIGINS: ReadonlySet<string> = new Set();

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
  /** Origins besides the app's own (`ctx.origin`) whose pages may send checked requests. */
  readonly trustedOrigins?: ReadonlySet<string>;
}

/**
 * A token's MAC binds its nonce to the session cookie of the request it was minted for (none
 * before a session exists): a token seen in one session is worthless in another.
 */
const sign = (secret: string, nonce: string, session: string): string => createHmac('sha256', secret).update(`${nonce}\0${session}`).digest('base64url');

/** The session a token minted or checked now is bound to: the cookie this response sets (login, logout), else the request's. */
const boundSession = (ctx: Koa.Context, options: CsrfOptions): string =>
  typeof ctx.state.sessionToken === 'string' ? ctx.state.sessionToken : (readCookie(ctx, options.sessionCookie) ?? '');

/** True when `path` is `prefix` or below it, on segment boundaries. */
export function underPrefix(path: string, prefix: string): boolean {
  const p = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return p === '' || path === p || path.startsWith(`${p}/`);
}

function valid(secret: string, token: string | undefined, session: string): token is string {
  if (!token || token.length > 200) return false;
  const [nonce, mac] = token.split('.');
  if (!nonce || !mac) return false;
  return sameSecret(sign(secret, nonce, session), mac);
}

/** The request's CSRF cookie when its signature holds for the request's session. */
function validCookieToken(ctx: Koa.Context, options: CsrfOptions): string | undefined {
  const token = readCookie(ctx, CSRF_COOKIE);
  return valid(options.secret, token, boundSession(ctx, options)) ? token : undefined;
}

/**
 * Why a checked request's page is not the app's (Django's origin and referer checks), or
 * undefined: `Origin` must be the app's origin or a trusted one; over HTTPS, without `Origin`,
 * so must `Referer`, and a request with neither is refused (a browser sends one).
 */
function foreignOrigin(ctx: Koa.Context, trusted: ReadonlySet<string>): string | undefined {
  const origin = ctx.get('origin');
  // As Django: the Referer is checked over HTTPS only (over HTTP anyone on the path can forge it, and proxies strip it).
  const https = ctx.protocol === 'https';
  const claimed = origin || (https ? ctx.get('referer') : '');
  if (!claimed) return https ? 'the request carries neither Origin nor Referer' : undefined;
  let given = 'null';
  try {
    given = new URL(claimed).origin;
  } catch {
    // an unparsable header names no origin: refused below
  }
  // The app's origin as the routes see it (X-Forwarded-Proto and -Host behind trusted proxies).
  const own = `${ctx.protocol}://${ctx.host}`;
  if (given !== 'null' && (given === own || trusted.has(given))) return undefined;
  return `${origin ? 'Origin' : 'Referer'} ${JSON.stringify(origin ? claimed : given)} is neither ${own} nor a trusted origin (trustedOrigins)`;
}

/** A fresh signed token, set as the CSRF cookie. */
function mint(ctx: Koa.Context, options: CsrfOptions): string {
  const nonce = randomBytes(24).toString('base64url');
  const token = `${nonce}.${sign(options.secret, nonce, boundSession(ctx, options))}`;
  setCookie(ctx, CSRF_COOKIE, token, { sameSite: 'Lax', secure: options.secure, maxAge: 365 * 24 * 3600 });
  return token;
}

/**
 * Signed double-submit CSRF protection. On safe requests `ctx.state.csrfToken()` returns the
 * signed token of the `portico_csrf` cookie, minting it (and setting the cookie) on first use
 * when it is missing or forged; `csrfInput()` calls it.
 * Unsafe requests that are form posts, target a form-auth route, or carry the session cookie must
 * come from the app's origin or a trusted one (`Origin`, else `Referer`), and echo the cookie's
 * token in the `csrf_token` field or the `X-CSRF-Token` header; otherwise 403. The token is bound
 * to the session cookie once there is one (and rotated at login and logout).
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
        token = validCookieToken(ctx, options);
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
    const withCookie = readCookie(ctx, options.sessionCookie) !== undefined;
    const multipart = form && isMultipartRequest(ctx.req);
    // An upload with a bearer token and no session carries nothing ambient: a cross-site form cannot set Authorization.
    const bearerUpload = multipart && !withCookie && ctx.get('authorization') !== '';
    const checked = (form && !bearerUpload) || withCookie || options.protectedPrefixes().some((p) => underPrefix(ctx.path, p));
    if (!checked) return next();
    const foreign = foreignOrigin(ctx, options.trustedOrigins ?? NO_ORIGINS);
    if (foreign) throw new DomainError('csrf_failed', `CSRF check failed: ${foreign}`);
    let submitted = ctx.get(CSRF_HEADER) || undefined;
    const cookieToken = validCookieToken(ctx, options);
    if (!submitted && multipart) {
      // Read by the upload reader, which streams the body: its first field must be the token.
      ctx.state[MULTIPART_CSRF] = cookieToken ?? '';
    } else {
      if (!submitted && form) {
        const fields = await readFormBody(ctx.req, options.bodyLimit);
        ctx.state.formBody = fields;
        submitted = fields[CSRF_FIELD];
      }
      if (!cookieToken || !submitted || !sameSecret(submitted, cookieToken)) {
        throw new DomainError('csrf_failed', 'CSRF token missing or incorrect');
      }
    }
    if (cookieToken) ctx.state.csrfToken = () => cookieToken;
    await next();
    // DESIGN §3 "CSRF": a new token at login and logout, so a token seen before cannot be replayed after.
    if (ctx.state.sessionChanged === true) mint(ctx, options);
  };
}
