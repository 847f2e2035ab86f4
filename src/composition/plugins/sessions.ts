import { SessionManager } from '../../application/auth/session-manager.js';
import { sessionMiddleware } from '../../adapters/http-koa/session-middleware.js';
import type { Plugin } from '../plugin.js';

/**
 * The sessions plugin: database-backed sessions in the `session` table, cookie
 * `portico_session` (HttpOnly, SameSite=Lax, Secure in production, 14 days), flash messages.
 * Provides the `sessions` service to plugins installed after it.
 *
 * @example
 * app.use(sessions()).use(security()).use(auth());
 */
export function sessions(): Plugin {
  return {
    name: 'sessions',
    install(ctx) {
      const manager = new SessionManager(ctx.store, ctx.clock, ctx.random);
      ctx.provide('sessions', manager);
      ctx.middleware(sessionMiddleware(manager, { secure: ctx.production }));
    },
  };
}
