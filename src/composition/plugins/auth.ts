import type { TokenCacheOptions } from '../../application/auth/token-manager.js';
import { bearerAuthentication, chainAuthentication, formAuthRoutes, jsonAuthRoutes, sessionAuthentication, type AuthBackend } from '../../adapters/http-koa/index.js';
import type { Row } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';
import { bindAuthUseCases } from './auth-bindings.js';
import { publicOrigin } from './public-origin.js';

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
  /**
   * The origin written into mailed links (`https://example.com`); default: the address the app
   * listens on. Never taken from a request's `Host` or `X-Forwarded-Host`.
   */
  readonly publicUrl?: string;
  /** The host's page a password reset mail links to, the token appended as `?token=` (default `/reset-password`). */
  readonly resetPage?: string;
  /** The site's name in Portico's mail (default `Portico`). */
  readonly siteName?: string;
}

/** Where a reset mail links: the public origin plus `resetPage`, checked at install. */
function resetPageOf(ctx: PluginContext, options: AuthOptions): () => string {
  if (options.resetPage !== undefined && !/^\/[A-Za-z0-9/_.-]*$/.test(options.resetPage)) throw new Error(`auth: resetPage is a site path such as /reset-password, got ${JSON.stringify(options.resetPage)}`);
  const origin = publicOrigin(ctx, options.publicUrl, 'auth');
  return () => `${origin()}${options.resetPage ?? '/reset-password'}`;
}

/**
 * Form authentication (`/auth/login`, `/auth/signup`, `/auth/logout`), JSON authentication with
 * bearer tokens (`/api/auth/login`, `logout`, `me`, `signup`), email verification
 * (`/api/auth/verify-email`, `resend-verification`), password reset (`password-reset`,
 * `password-reset/confirm`) and change (`change-password`), under both prefixes. Needs
 * `sessions()` mounted before it, and `security()` for CSRF.
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
      const resetPage = resetPageOf(ctx, options);
      bindAuthUseCases(ctx, {
        resetPage,
        site: options.siteName ?? 'Portico',
        requireVerifiedEmail: options.requireVerifiedEmail ?? false,
        throttle: options.throttle ?? true,
        ...(options.tokenCache ? { tokenCache: options.tokenCache } : {}),
        ...(options.afterSignUp ? { afterSignUp: options.afterSignUp } : {}),
      });
      ctx.get(TOKENS.CsrfProtectedPrefixes).add(formPrefix);
      ctx.authenticate(options.authenticate ?? chainAuthentication(sessionAuthentication(), bearerAuthentication()));
      const logIn = ctx.get(TOKENS.LogIn);
      const signUp = ctx.get(TOKENS.SignUp);
      const background = (work: Promise<unknown>): void => void work.catch((err: unknown) => ctx.logger.error({ err }, 'background auth work failed'));
      const requestReset = ctx.get(TOKENS.RequestPasswordReset);
      const confirmReset = ctx.get(TOKENS.ConfirmPasswordReset);
      const changePassword = ctx.get(TOKENS.ChangePassword);
      for (const route of formAuthRoutes({ prefix: formPrefix, logIn, signUp, requestReset, confirmReset, changePassword, resetPage: options.resetPage ?? '/reset-password', background })) ctx.route(route);
      const routes = jsonAuthRoutes({
        requestReset,
        confirmReset,
        changePassword,
        prefix: apiPrefix,
        store: ctx.store,
        logIn,
        signUp,
        tokens: ctx.get(TOKENS.BearerTokens),
        verifyEmail: ctx.get(TOKENS.VerifyEmail),
        resend: ctx.get(TOKENS.ResendVerification),
        linkedAccounts: ctx.get(TOKENS.LinkedAccounts),
        background,
      });
      for (const route of routes) ctx.route(route);
      for (const [name, method, path, label] of [
        ['login', 'POST', `${formPrefix}/login`, 'Log in (form)'],
        ['signup', 'POST', `${formPrefix}/signup`, 'Sign up (form)'],
        ['logout', 'POST', `${formPrefix}/logout`, 'Log out (form)'],
        ['change-password', 'POST', `${formPrefix}/change-password`, 'Change the password (form)'],
        ['password-reset', 'POST', `${formPrefix}/password-reset`, 'Mail a password reset link (form)'],
        ['password-reset-confirm', 'POST', `${formPrefix}/password-reset/confirm`, 'Choose a new password with the link (form)'],
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
        ['api-change-password', 'POST', `${apiPrefix}/change-password`, 'Change the password'],
        ['api-password-reset', 'POST', `${apiPrefix}/password-reset`, 'Mail a password reset link'],
        ['api-password-reset-confirm', 'POST', `${apiPrefix}/password-reset/confirm`, 'Choose a new password with the link'],
      ] as const) {
        ctx.advertise({ group: 'verification', name, method, path, label });
      }
    },
  };
}
