import { SessionManager } from '../../application/auth/session-manager.js';
import { sessionMiddleware } from '../../adapters/http-koa/index.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';

/**
 * The sessions plugin: database-backed sessions in the `session` table, cookie
 * `portico_session` (HttpOnly, SameSite=Lax, Secure in production, 14 days), flash messages.
 * Binds `TOKENS.Sessions` for plugins installed after it.
 *
 * @example
 * app.use(sessions()).use(security()).use(auth());
 */
export function sessions(): Plugin {
  return {
    name: 'sessions',
    install(ctx) {
      ctx.bindFactory(TOKENS.Sessions, (get) => new SessionManager(get(TOKENS.Store), get(TOKENS.Clock), get(TOKENS.Random)));
      ctx.middleware(sessionMiddleware(ctx.get(TOKENS.Sessions), { secure: ctx.production }));
    },
  };
}
