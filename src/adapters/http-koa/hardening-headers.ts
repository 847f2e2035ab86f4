import type Koa from 'koa';
import { readCookie } from './cookies.js';
import { finishingMiddleware } from './response-finisher.js';

export interface HardeningOptions {
  /**
   * Send HSTS (production) on responses to secure requests: TLS on the socket, or
   * `X-Forwarded-Proto: https` from a trusted proxy (`trustedProxyHops` > 0). RFC 6797 §7.2:
   * a host MUST NOT send it over a non-secure transport.
   */
  readonly hsts: boolean;
  readonly sessionCookie: string;
}

/**
 * Hardening headers on every response: nosniff, no framing (X-Frame-Options and CSP
 * frame-ancestors), a same-origin referrer policy, HSTS in production over a secure request,
 * and `Cache-Control: no-store` whenever the request carried a session cookie or an
 * Authorization header, so no shared cache keeps a personal page. Set once the response is
 * computed (over the handler's own).
 */
export function hardeningHeaders(options: HardeningOptions): Koa.Middleware {
  return finishingMiddleware((ctx) => {
    const res = ctx.res;
    // A handler that wrote its head itself (a stream it flushed) is past changing it.
    if (res.headersSent) return;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    if (!res.hasHeader('Content-Security-Policy')) res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (options.hsts && ctx.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (ctx.req.headers.authorization || readCookie(ctx, options.sessionCookie) !== undefined) res.setHeader('Cache-Control', 'no-store');
  });
}
