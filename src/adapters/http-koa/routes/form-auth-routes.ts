import type { LogIn } from '../../../application/auth/log-in.js';
import { SignUpRefused, type SignUp, type SignUpResult } from '../../../application/auth/sign-up.js';
import { failureTarget, successTarget } from '../../../domain/auth/redirect-guard.js';
import type { ErrorCode } from '../../../domain/errors/codes.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Row } from '../../../domain/model/types.js';
import type { HttpRequest, HttpResponse, RouteDef, SessionHandle } from '../http-route.js';

export interface FormAuthDeps {
  readonly prefix: string;
  readonly logIn: LogIn;
  readonly signUp: SignUp;
}

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
    { method: 'POST', path: `${deps.prefix}/login`, body: 'form', handler: login },
    { method: 'POST', path: `${deps.prefix}/signup`, body: 'form', handler: signup },
    { method: 'POST', path: `${deps.prefix}/logout`, body: 'form', handler: logout },
  ];
}
