import type { ChangePassword } from '../../../application/auth/change-password.js';
import type { ConfirmPasswordReset } from '../../../application/auth/confirm-password-reset.js';
import { hashToken } from '../../../application/auth/secrets.js';
import type { LogIn } from '../../../application/auth/log-in.js';
import type { RequestPasswordReset } from '../../../application/auth/request-password-reset.js';
import type { ResendVerification } from '../../../application/auth/resend-verification.js';
import type { SignUp } from '../../../application/auth/sign-up.js';
import type { TokenManager } from '../../../application/auth/token-manager.js';
import type { VerifyEmail } from '../../../application/auth/verify-email.js';
import type { LinkedAccounts } from '../../../application/social/linked-accounts.js';
import { publicUser } from '../../../domain/auth/user-view.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Row } from '../../../domain/model/types.js';
import type { RecordStore, Write } from '../../../ports/record-store.js';
import { bearerToken } from '../authentication.js';
import type { HttpRequest, HttpResponse, RouteDef } from '../http-route.js';

export interface JsonAuthDeps {
  readonly prefix: string;
  readonly store: RecordStore;
  readonly logIn: LogIn;
  readonly signUp: SignUp;
  readonly tokens: TokenManager;
  readonly verifyEmail: VerifyEmail;
  readonly resend: ResendVerification;
  readonly requestReset: RequestPasswordReset;
  readonly confirmReset: ConfirmPasswordReset;
  readonly changePassword: ChangePassword;
  /** The provider accounts linked to the user, listed by `me`. */
  readonly linkedAccounts: LinkedAccounts;
  /** Runs work after the response without awaiting it (errors are logged). */
  readonly background: (work: Promise<unknown>) => void;
}

/** The JSON object body, or a 400 naming what is wrong. */
function object(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('invalid_input', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function strings(body: Record<string, unknown>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const errors = names.filter((n) => typeof body[n] !== 'string').map((n) => ({ field: n, message: 'required string' }));
  if (errors.length > 0) throw new DomainError('invalid_input', `missing or invalid: ${errors.map((e) => e.field).join(', ')}`, errors);
  for (const n of names) out[n] = body[n] as string;
  return out;
}

/**
 * JSON authentication and email verification under `/api/auth` (SPEC "Email verification",
 * DESIGN §3 "bearer tokens"): login → `{user, token}`, logout, me, signup, verify-email (204 /
 * 400 with one body), resend-verification (always 202 with one body).
 */
export function jsonAuthRoutes(deps: JsonAuthDeps): RouteDef[] {
  const p = deps.prefix;

  const login = async (req: HttpRequest): Promise<HttpResponse> => {
    const fields = strings(object(req.body), ['username', 'password']);
    // A refusal (invalid_credentials 401, email_unverified 403) is thrown and mapped like any domain error.
    let token = '';
    // The token's row is written with the last_login stamp, in one atomic step.
    const grant = (found: Row): Write => {
      const minted = deps.tokens.mint(found.id ?? null);
      token = minted.token;
      return minted.write;
    };
    const user = await deps.logIn.execute({ username: fields.username ?? '', password: fields.password ?? '', ip: req.ip, grant });
    return { status: 200, body: { user: publicUser(user), token } };
  };

  const logout = async (req: HttpRequest): Promise<HttpResponse> => {
    const header = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
    const token = bearerToken(header);
    if (token) {
      if (!(await deps.tokens.revoke(token))) throw new DomainError('not_authenticated', 'invalid or revoked token');
      return { status: 204 };
    }
    if (req.session && (await req.session.user())) {
      await req.session.logout();
      return { status: 204 };
    }
    throw new DomainError('not_authenticated', 'not signed in');
  };

  const me = async (req: HttpRequest): Promise<HttpResponse> => {
    const identity = await req.identity();
    const user = identity.isAuthenticated ? await deps.store.getById('auth_user', identity.id) : null;
    if (!user) throw new DomainError('not_authenticated', 'not signed in');
    return { status: 200, body: { user: publicUser(user), social_accounts: await deps.linkedAccounts.execute(user.id ?? null) }, headers: { 'Cache-Control': 'no-store' } };
  };

  const signup = async (req: HttpRequest): Promise<HttpResponse> => {
    const body = object(req.body);
    // A refusal is thrown: invalid_input (400) listing every field problem.
    const result = await deps.signUp.execute({ username: body.username, email: body.email, password: body.password, ip: req.ip });
    const user = publicUser(result.user);
    if (result.verificationPending) return { status: 201, body: { user } };
    return { status: 201, body: { user, token: await deps.tokens.issue(result.user.id ?? null) } };
  };

  const verify = async (req: HttpRequest): Promise<HttpResponse> => {
    const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
    // Every failure is thrown as the same invalid_code (400).
    await deps.verifyEmail.execute({ email: body.email, code: body.code, ip: req.ip });
    return { status: 204 };
  };

  const resend = async (req: HttpRequest): Promise<HttpResponse> => {
    const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
    // Answered before any lookup, so neither the body nor the timing tells whether the address exists.
    deps.background(deps.resend.execute({ email: body.email, ip: req.ip }));
    return { status: 202, body: { status: 'accepted' } };
  };

  return [
    ...passwordRoutes(deps),
    { method: 'POST', path: `${p}/login`, body: 'json', handler: login },
    { method: 'POST', path: `${p}/logout`, body: 'json', handler: logout },
    { method: 'GET', path: `${p}/me`, handler: me },
    { method: 'POST', path: `${p}/signup`, body: 'json', handler: signup },
    { method: 'POST', path: `${p}/verify-email`, body: 'json', handler: verify },
    { method: 'POST', path: `${p}/resend-verification`, body: 'json', handler: resend },
  ];
}

/** The password routes: reset request (always 202), reset with the mailed token, change when signed in. */
function passwordRoutes(deps: JsonAuthDeps): RouteDef[] {
  const p = deps.prefix;
  const requestReset = async (req: HttpRequest): Promise<HttpResponse> => {
    const body = typeof req.body === 'object' && req.body !== null ? (req.body as Record<string, unknown>) : {};
    // Answered before any lookup, so neither the body nor the timing tells whether the address exists.
    deps.background(deps.requestReset.execute({ email: body.email, ip: req.ip }));
    return { status: 202, body: { status: 'accepted' } };
  };

  const confirmReset = async (req: HttpRequest): Promise<HttpResponse> => {
    const body = object(req.body);
    // Every unusable token is the same invalid_code (400); a weak password is invalid_input naming the rules.
    await deps.confirmReset.execute({ token: body.token, password: body.password, ip: req.ip });
    return { status: 204 };
  };

  const changePassword = async (req: HttpRequest): Promise<HttpResponse> => {
    const identity = await req.identity();
    if (!identity.isAuthenticated) throw new DomainError('not_authenticated', 'not signed in');
    const body = object(req.body);
    const header = typeof req.headers.authorization === 'string' ? req.headers.authorization : undefined;
    const bearer = bearerToken(header);
    const session = req.session ? await req.session.id() : null;
    await deps.changePassword.execute({
      userId: identity.id,
      current: body.current_password,
      next: body.new_password,
      ip: req.ip,
      keep: { ...(bearer ? { tokenHash: hashToken(bearer) } : {}), ...(session !== null ? { session } : {}) },
    });
    return { status: 204 };
  };

  return [
    { method: 'POST', path: `${p}/change-password`, body: 'json', handler: changePassword },
    { method: 'POST', path: `${p}/password-reset`, body: 'json', handler: requestReset },
    { method: 'POST', path: `${p}/password-reset/confirm`, body: 'json', handler: confirmReset },
  ];
}
