import { csrfMiddleware, CSRF_FIELD, escapeHtml, hardeningHeaders, SafeHtml, SESSION_COOKIE, type HttpRequest } from '../../adapters/http-koa/index.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface SecurityOptions {
  /** Path prefixes exempt from CSRF, on whole segments (SPEC: `csrfExempt('/graphql')`). */
  readonly csrfExempt?: readonly string[];
}

/**
 * The security plugin: signed double-submit CSRF protection and hardening headers
 * (DESIGN §3 "CSRF", "CSRF scope"). Mount it after `sessions()` and before the routes it guards.
 *
 * @example
 * app.use(sessions()).use(security({ csrfExempt: ['/graphql'] }));
 */
export function security(options: SecurityOptions = {}): Plugin {
  return {
    name: 'security',
    install(ctx) {
      // Plugins installed later add theirs (auth() its form prefix); read per request.
      const protectedPrefixes = ctx.get(TOKENS.CsrfProtectedPrefixes);
      ctx.middleware(hardeningHeaders({ hsts: ctx.production, sessionCookie: SESSION_COOKIE }));
      ctx.middleware(
        csrfMiddleware({
          secret: ctx.secret,
          exempt: options.csrfExempt ?? [],
          sessionCookie: SESSION_COOKIE,
          secure: ctx.production,
          bodyLimit: ctx.bodyLimit,
          trustedOrigins: ctx.trustedOrigins,
          protectedPrefixes: () => [...protectedPrefixes],
        }),
      );
    },
  };
}

/**
 * The hidden CSRF input for a form (SPEC "Form authentication" 1), marked safe for templates.
 *
 * @example
 * `<form method="post" action="/auth/login">${csrfInput(req)} …</form>`
 */
export function csrfInput(req: HttpRequest): SafeHtml {
  return new SafeHtml(`<input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(req.csrfToken ?? '')}">`);
}
