import { IssueVerificationCode } from '../../application/auth/issue-verification-code.js';
import { LogIn } from '../../application/auth/log-in.js';
import { ResendVerification } from '../../application/auth/resend-verification.js';
import { SignUp } from '../../application/auth/sign-up.js';
import { ThrottleGate } from '../../application/auth/throttle-gate.js';
import { TokenManager, type TokenCacheOptions } from '../../application/auth/token-manager.js';
import { VerifyEmail } from '../../application/auth/verify-email.js';
import { bearerAuthentication, chainAuthentication, sessionAuthentication, type AuthBackend } from '../../adapters/http-koa/authentication.js';
import { formAuthRoutes } from '../../adapters/http-koa/routes/form-auth-routes.js';
import { jsonAuthRoutes } from '../../adapters/http-koa/routes/json-auth-routes.js';
import type { Plugin } from '../plugin.js';
import { PROTECTED_PREFIXES } from './security.js';

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
      if (!ctx.lookup('sessions')) throw new Error('the auth plugin needs sessions() mounted before it');
      const requireVerifiedEmail = options.requireVerifiedEmail ?? false;
      const throttle = new ThrottleGate(ctx.throttleStore, options.throttle ?? true);
      const tokens = new TokenManager(ctx.store, ctx.random, ctx.clock, options.tokenCache);
      let dummy: Promise<string> | undefined;
      const dummyHash = () => (dummy ??= ctx.hasher.hash(Buffer.from(ctx.random.bytes(24)).toString('base64url')));
      void dummyHash().catch((err: unknown) => ctx.logger.error({ err }, 'could not prepare the dummy hash'));
      const issueCode = new IssueVerificationCode({
        store: ctx.store,
        clock: ctx.clock,
        random: ctx.random,
        mailer: ctx.mailer,
        templates: ctx.templates,
        secret: ctx.secret,
      });
      const logIn = new LogIn({ store: ctx.store, hasher: ctx.hasher, throttle, clock: ctx.clock, requireVerifiedEmail, dummyHash });
      const signUp = new SignUp({ store: ctx.store, hasher: ctx.hasher, throttle, issueCode, requireVerifiedEmail });
      ctx.provide('tokens', tokens);
      ctx.provide(PROTECTED_PREFIXES, [...(ctx.lookup<string[]>(PROTECTED_PREFIXES) ?? []), formPrefix]);
      ctx.authenticate(options.authenticate ?? chainAuthentication(sessionAuthentication(), bearerAuthentication()));
      for (const route of formAuthRoutes({ prefix: formPrefix, logIn, signUp })) ctx.route(route);
      const routes = jsonAuthRoutes({
        prefix: apiPrefix,
        store: ctx.store,
        logIn,
        signUp,
        tokens,
        verifyEmail: new VerifyEmail({ store: ctx.store, clock: ctx.clock, throttle, secret: ctx.secret }),
        resend: new ResendVerification(ctx.store, throttle, issueCode),
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
