import type { ChangePassword } from '../../../application/auth/change-password.js';
import type { ConfirmPasswordReset } from '../../../application/auth/confirm-password-reset.js';
import type { LogIn } from '../../../application/auth/log-in.js';
import type { RequestPasswordReset } from '../../../application/auth/request-password-reset.js';
import { SignUpRefused, type SignUp, type SignUpResult } from '../../../application/auth/sign-up.js';
import { isWellFormedResetToken } from '../../../domain/auth/password-reset.js';
import { failureTarget, successTarget } from '../../../domain/auth/redirect-guard.js';
import type { ErrorCode } from '../../../domain/errors/codes.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Row } from '../../../domain/model/types.js';
import type { HttpRequest, HttpResponse, RouteDef, SessionHandle } from '../http-route.js';

export interface FormAuthDeps {
  readonly prefix: string;
  readonly logIn: LogIn;
  readonly signUp: SignUp;
  readonly requestReset: RequestPasswordReset;
  readonly confirmReset: ConfirmPasswordReset;
  readonly changePassword: ChangePassword;
  /** The host's reset page (`/reset-password`): a weak password goes back there with its token, which stays usable. */
  readonly resetPage: string;
  /** Runs work after the response without awaiting it (errors are logged). */
  readonly background: (work: Promise<unknown>) => void;
}

/** What a reset request answers, known address or not. */
export const RESET_REQUESTED = 'If an account has this address, we sent it a link to choose a new password.';

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};

/** The flash shown for each login refusal; any other error (Throttled: 429) propagates. */
const LOGIN_REFUSALS: Partial<Record<ErrorCode, string>> = {
  invalid_credentials: 'Invalid username or password.',
  email_unverified: 'Please verify your email address before logging in.',
};

/** The flash of a login refusal, or undefined when `error` is not one. */
function loginRefusal(error: unknown): string | undefined {
  return error instanceof DomainError ? LOGIN_REFUSALS[error.code] : undefined;
}

/** DESIGN §3 "form redirects": always 303 See Other. */
const seeOther = (location: string): HttpResponse => ({ status: 303, headers: { Location: location }, body: '', type: 'text/plain' });

function requireSession(req: HttpRequest): SessionHandle {
  if (!req.session) throw new Error('form authentication needs the sessions plugin');
  return req.session;
}

function targets(req: HttpRequest): { success: string; failure: string } {
  const redirect = first(req.query.redirect);
  const referer = first(req.headers.referer);
  return { success: successTarget(redirect), failure: failureTarget(referer, req.host, redirect) };
}

/**
 * The form-auth POST handlers (SPEC "Form authentication"): login, signup and logout answer
 * 303 redirects guarded against open redirects; failures go back with a flash message. Only
 * POST is routed, so any other method answers 405 with `Allow: POST`.
 */
export function formAuthRoutes(deps: FormAuthDeps): RouteDef[] {
  const login = async (req: HttpRequest): Promise<HttpResponse> => {
    const session = requireSession(req);
    const to = targets(req);
    let user: Row;
    try {
      user = await deps.logIn.execute({ username: field(req.body, 'username'), password: field(req.body, 'password'), ip: req.ip });
    } catch (error) {
      const body = loginRefusal(error);
      if (body === undefined) throw error;
      await session.flash({ level: 'error', body });
      return seeOther(to.failure);
    }
    await session.login(user.id ?? null);
    return seeOther(to.success);
  };

  const signup = async (req: HttpRequest): Promise<HttpResponse> => {
    const session = requireSession(req);
    const to = targets(req);
    let result: SignUpResult;
    try {
      result = await deps.signUp.execute({
        username: field(req.body, 'username'),
        email: field(req.body, 'email'),
        password: field(req.body, 'password'),
        ip: req.ip,
      });
    } catch (error) {
      // Only the signup's own refusal goes back as flashes; a store-level invalid_input or Throttled propagates.
      if (!(error instanceof SignUpRefused)) throw error;
      for (const e of error.errors) await session.flash({ level: 'error', body: `${e.field}: ${e.message}` });
      return seeOther(to.failure);
    }
    if (result.verificationPending) {
      await session.flash({ level: 'info', body: 'We sent a 6-digit code to your email address. Verify it to log in.' });
      return seeOther(to.success);
    }
    await session.login(result.user.id ?? null);
    return seeOther(to.success);
  };

  const logout = async (req: HttpRequest): Promise<HttpResponse> => {
    await requireSession(req).logout();
    return seeOther(targets(req).success);
  };

  return [
    ...passwordRoutes(deps),
    { method: 'POST', path: `${deps.prefix}/login`, body: 'form', handler: login },
    { method: 'POST', path: `${deps.prefix}/signup`, body: 'form', handler: signup },
    { method: 'POST', path: `${deps.prefix}/logout`, body: 'form', handler: logout },
  ];
}

/** The password forms: reset request, reset with the mailed token, change when signed in. */
function passwordRoutes(deps: FormAuthDeps): RouteDef[] {
  const requestReset = async (req: HttpRequest): Promise<HttpResponse> => {
    // Answered before any lookup: neither the answer nor its timing tells whether the address exists.
    deps.background(deps.requestReset.execute({ email: field(req.body, 'email'), ip: req.ip }));
    await requireSession(req).flash({ level: 'info', body: RESET_REQUESTED });
    return seeOther(targets(req).success);
  };

  const confirmReset = async (req: HttpRequest): Promise<HttpResponse> => {
    const session = requireSession(req);
    const to = targets(req);
    try {
      await deps.confirmReset.execute({ token: field(req.body, 'token'), password: field(req.body, 'password'), ip: req.ip });
    } catch (error) {
      if (!(error instanceof DomainError) || (error.code !== 'invalid_code' && error.code !== 'invalid_input')) throw error;
      const lines = error.code === 'invalid_input' && error.errors.length > 0 ? error.errors.map((e) => `${e.field}: ${e.message}`) : [error.detail];
      for (const body of lines) await session.flash({ level: 'error', body });
      // The page sends no Referer (its address holds the token): a weak password goes back to it.
      const token = field(req.body, 'token');
      return seeOther(error.code === 'invalid_input' && isWellFormedResetToken(token) ? `${deps.resetPage}?token=${token}` : to.failure);
    }
    await session.flash({ level: 'info', body: 'Your password was changed, and every session and token of the account ended. Log in with the new password.' });
    return seeOther(to.success);
  };

  const changePassword = async (req: HttpRequest): Promise<HttpResponse> => {
    const session = requireSession(req);
    const to = targets(req);
    const user = await session.user();
    if (!user) {
      await session.flash({ level: 'error', body: 'Log in to change your password.' });
      return seeOther(to.failure);
    }
    try {
      const id = await session.id();
      await deps.changePassword.execute({ userId: user.id ?? null, current: field(req.body, 'current_password'), next: field(req.body, 'new_password'), ip: req.ip, keep: id !== null ? { session: id } : {} });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'invalid_input') throw error;
      for (const e of error.errors) await session.flash({ level: 'error', body: `${e.field}: ${e.message}` });
      return seeOther(to.failure);
    }
    await session.flash({ level: 'info', body: 'Your password was changed; every other session and token of the account ended.' });
    return seeOther(to.success);
  };

  return [
    { method: 'POST', path: `${deps.prefix}/change-password`, body: 'form', handler: changePassword },
    { method: 'POST', path: `${deps.prefix}/password-reset`, body: 'form', handler: requestReset },
    { method: 'POST', path: `${deps.prefix}/password-reset/confirm`, body: 'form', handler: confirmReset },
  ];
}
