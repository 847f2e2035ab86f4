import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { cookieValue } from '../cookies.js';
import { SESSION_COOKIE } from '../session-middleware.js';

/** Which origins may open a WebSocket that the session cookie identifies. */
export interface UpgradeOriginPolicy {
  /** Proxies in front whose X-Forwarded-Host and -Proto are trusted (AppOptions.trustedProxyHops). */
  readonly trustedProxyHops: number;
  /** Other origins allowed (AppOptions.trustedOrigins), normalised (`new URL(o).origin`). */
  readonly trustedOrigins: ReadonlySet<string>;
}

/**
 * The policy of AppOptions' `trustedOrigins` (each a `scheme://host[:port]` origin) and
 * `trustedProxyHops`; throws on an entry that is not an origin, at start rather than at the
 * first refused socket.
 */
export function upgradeOriginPolicy(trustedOrigins: readonly string[] = [], trustedProxyHops = 0): UpgradeOriginPolicy {
  const origins = new Set<string>();
  for (const entry of trustedOrigins) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/$/, '').toLowerCase()) origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (!origin) throw new Error(`trustedOrigins: "${entry}" is not an origin (scheme://host[:port], http or https, nothing after)`);
    origins.add(origin);
  }
  return { trustedProxyHops, trustedOrigins: origins };
}

/**
 * Why an upgrade request must be refused, or undefined: a browser's WebSocket handshake carries
 * the session cookie wherever the page that opened it came from (WebSockets have no CORS and no
 * CSRF token), so a request with the session cookie and an `Origin` other than the server's own
 * or a trusted one is refused. SameSite=Lax keeps other sites' pages out already; this keeps out
 * pages of other origins on the same site (a sibling subdomain). A request without `Origin` (not a
 * browser) or without the session cookie (a bearer token, anonymous) is not affected.
 */
export function crossOriginSession(req: IncomingMessage, policy: UpgradeOriginPolicy): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined || !cookieValue(req.headers.cookie, SESSION_COOKIE)) return undefined;
  const own = ownOrigin(req, policy.trustedProxyHops);
  let given: string;
  try {
    given = new URL(origin).origin;
  } catch {
    given = 'null';
  }
  if (given !== 'null' && (given === own || policy.trustedOrigins.has(given))) return undefined;
  return `a WebSocket from origin ${JSON.stringify(origin)} may not use the session cookie of ${own}; allow the origin with trustedOrigins or authenticate with a bearer token`;
}

/**
 * The origin the request was sent to, read as Koa reads `ctx.protocol` and `ctx.host` for the
 * routes (`HttpRequest.origin`): TLS means https, else X-Forwarded-Proto behind a trusted proxy;
 * the first X-Forwarded-Host behind one, else Host.
 */
function ownOrigin(req: IncomingMessage, trustedProxyHops: number): string {
  const forwarded = (name: string): string | undefined => {
    if (trustedProxyHops <= 0) return undefined;
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
  };
  const host = forwarded('x-forwarded-host') ?? req.headers.host ?? '';
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : (forwarded('x-forwarded-proto')?.toLowerCase() ?? 'http');
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return `${scheme}://${host}`;
  }
}
