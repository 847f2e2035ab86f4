import type { TokenCacheOptions } from '../../application/auth/token-manager.js';
import { bearerAuthentication, chainAuthentication, formAuthRoutes, jsonAuthRoutes, sessionAuthentication, type AuthBackend } from '../../adapters/http-koa/index.js';
import type { Row } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';
import { bindAuthUseCases } from './auth-bindings.js';

export interface AuthOptions {
  /** Prefix of the form routes (default `/auth`). */
  readonly formPrefix?: string;
  /** Prefix of the JSON auth and verification routes (default `/api/auth`). */
  readonly apiPrefix?: string;
  /** Block login until the address is verified (default false; SPEC "Authentication" 4). */
  readonly requireVerifiedEmail?: boolean;
  /** The login, signup and verification throttles (default true). */
  readonly throttle?: boolean;
  /** How the app identifies callers (default: the session, then a bearer token). */
  readonly authenticate?: AuthBackend;
  /** How long a resolved bearer token is trusted without a database read (default 5 s; `{ seconds: 0 }` turns it off). */
  readonly tokenCache?: TokenCacheOptions;
  /**
   * Runs inside the signup transaction with it and the new user (form and JSON signup): enqueue
   * a job there with `app.tasks.enqueueIn(tx, …)` and it exists iff the account does.
   */
  readonly afterSignUp?: (tx: RecordStore, user: Row) => Promise<unknown>;
}

/**
 * Form authentication (`/auth/login`, `/auth/signup`, `/auth/logout`), JSON authentication with
 * bearer tokens (`/api/auth/login`, `logout`, `me`, `signup`) and email verification
 * (`/api/auth/verify-email`, `resend-verification`). Needs `sessions()` mounted before it, and
 * `security()` for CSRF.
 *
 * @example
 * app.use(sessions()).use(security()).use(auth({ requireVerifiedEmail: true }));
 */
export function auth(options: AuthOptions = {}): Plugin {
  const formPrefix = options.formPrefix ?? '/auth';
  const apiPrefix = options.apiPrefix ?? '/api/auth';
  return {
    name: 'auth',
    install(ctx) {
      if (!ctx.getOptional(TOKENS.Sessions)) throw new Error('the auth plugin needs sessions() mounted before it');
      bindAuthUseCases(ctx, {
        requireVerifiedEmail: options.requireVerifiedEmail ?? false,
        throttle: options.throttle ?? true,
        ...(options.tokenCache ? { tokenCache: options.tokenCache } : {}),
        ...(options.afterSignUp ? { afterSignUp: options.afterSignUp } : {}),
      });
      ctx.get(TOKENS.CsrfProtectedPrefixes).add(formPrefix);
      ctx.authenticate(options.authenticate ?? chainAuthentication(sessionAuthentication(), bearerAuthentication()));
      const logIn = ctx.get(TOKENS.LogIn);
      const signUp = ctx.get(TOKENS.SignUp);
      for (const route of formAuthRoutes({ prefix: formPrefix, logIn, signUp })) ctx.route(route);
      const routes = jsonAuthRoutes({
        prefix: apiPrefix,
        store: ctx.store,
        logIn,
        signUp,
        tokens: ctx.get(TOKENS.BearerTokens),
        verifyEmail: ctx.get(TOKENS.VerifyEmail),
        resend: ctx.get(TOKENS.ResendVerification),
        background: (work) => void work.catch((err: unknown) => ctx.logger.error({ err }, 'background auth work failed')),
      });
      for (const route of routes) ctx.route(route);
      for (const [name, method, path, label] of [
        ['login', 'POST', `${formPrefix}/login`, 'Log in (form)'],
        ['signup', 'POST', `${formPrefix}/signup`, 'Sign up (form)'],
        ['logout', 'POST', `${formPrefix}/logout`, 'Log out (form)'],
      ] as const) {
        ctx.advertise({ group: 'auth', name, method, path, label });
      }
      for (const [name, method, path, label] of [
        ['api-login', 'POST', `${apiPrefix}/login`, 'Log in, get a bearer token'],
        ['api-logout', 'POST', `${apiPrefix}/logout`, 'Revoke the token or session'],
        ['me', 'GET', `${apiPrefix}/me`, 'The signed-in user'],
        ['api-signup', 'POST', `${apiPrefix}/signup`, 'Sign up'],
        ['verify-email', 'POST', `${apiPrefix}/verify-email`, 'Verify an email address with its code'],
        ['resend-verification', 'POST', `${apiPrefix}/resend-verification`, 'Send a new verification code'],
      ] as const) {
        ctx.advertise({ group: 'verification', name, method, path, label });
      }
    },
  };
}
