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
 * The hardening headers every answer carries, whatever wrote it (a refused WebSocket upgrade
 * too): nosniff, no framing, a same-origin referrer and opener policy.
 */
export const HARDENING_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
const HARDENING = Object.entries(HARDENING_HEADERS);

/** A handler's own value of these is kept (read only for these two: every answer passes here). */
const keptFromHandler = (res: { hasHeader(name: string): boolean; getHeader(name: string): unknown }, name: string): boolean =>
  (name === 'Content-Security-Policy' && res.hasHeader(name)) || (name === 'Referrer-Policy' && res.getHeader(name) === 'no-referrer');

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
    // A Content-Security-Policy the handler set (a host's page) is its own, and so is a stricter
    // referrer policy (`no-referrer`: a page whose address holds a token).
    for (const [name, value] of HARDENING) if (!keptFromHandler(res, name)) res.setHeader(name, value);
    if (options.hsts && ctx.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (ctx.req.headers.authorization || readCookie(ctx, options.sessionCookie) !== undefined) res.setHeader('Cache-Control', 'no-store');
  });
}
