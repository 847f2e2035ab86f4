import type Koa from 'koa';
import { readCookie } from './cookies.js';

export interface HardeningOptions {
  /** Send HSTS (production behind TLS). */
  readonly hsts: boolean;
  readonly sessionCookie: string;
}

/**
 * Hardening headers on every response: nosniff, no framing (X-Frame-Options and CSP
 * frame-ancestors), a same-origin referrer policy, HSTS in production, and `Cache-Control:
 * no-store` whenever the request carried a session cookie or an Authorization header, so no
 * shared cache keeps a personal page.
 */
export function hardeningHeaders(options: HardeningOptions): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('X-Frame-Options', 'DENY');
      if (!ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', "frame-ancestors 'none'");
      ctx.set('Referrer-Policy', 'same-origin');
      ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
      if (options.hsts) ctx.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
      if (ctx.get('authorization') || readCookie(ctx, options.sessionCookie) !== undefined) ctx.set('Cache-Control', 'no-store');
    }
  };
}
