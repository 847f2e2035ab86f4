import type { BeginSocialLogin } from '../../../application/social/begin-social-login.js';
import type { CompleteSocialLogin } from '../../../application/social/complete-social-login.js';
import type { UnlinkSocialAccount } from '../../../application/social/unlink-social-account.js';
import { SOCIAL_PENDING_LIFETIME_MS } from '../../../domain/auth/social-login.js';
import { successTarget } from '../../../domain/auth/redirect-guard.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Row } from '../../../domain/model/types.js';
import { cookieValue, serializeCookie } from '../cookies.js';
import type { HttpRequest, HttpResponse, RouteDef, SessionHandle } from '../http-route.js';

export interface SocialAuthDeps {
  /** The form prefix (`/auth`): routes are `<prefix>/social/<provider>/login|callback|link|unlink`. */
  readonly prefix: string;
  readonly providers: readonly string[];
  readonly begin: BeginSocialLogin;
  readonly complete: CompleteSocialLogin;
  readonly unlink: UnlinkSocialAccount;
  /** Where a failed login lands, with a flash (`/login`). */
  readonly loginPage: string;
  /** Mark the browser's cookie Secure (production). */
  readonly secure: boolean;
}

/** The cookie holding the sealed pending login from the login to the callback. */
export const SOCIAL_COOKIE = 'portico_social';

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The refusals a social step answers with a flash (the rest propagate). */
const FLASHED = new Set(['social_login_failed', 'unique_violation']);

/** The pieces every social route shares: the pending cookie, redirects, refusals as flashes, a login's start. */
function socialKit(deps: SocialAuthDeps) {
  const pendingCookie = (value: string, maxAge: number): string => serializeCookie(SOCIAL_COOKIE, value, { httpOnly: true, sameSite: 'Lax', secure: deps.secure, path: `${deps.prefix}/social/`, maxAge });
  const cleared = pendingCookie('', 0);
  const session = (req: HttpRequest): SessionHandle => {
    if (!req.session) throw new Error('social login needs the sessions plugin');
    return req.session;
  };
  const redirect = (status: 302 | 303, location: string, cookie?: string): HttpResponse => ({
    status,
    headers: { Location: location, 'Cache-Control': 'no-store', ...(cookie ? { 'Set-Cookie': cookie } : {}) },
    body: '',
    type: 'text/plain',
  });
  /** A refusal: its flash, back to `to`, the pending cookie gone. */
  const refused = async (req: HttpRequest, error: unknown, to: string): Promise<HttpResponse> => {
    if (!(error instanceof DomainError) || !FLASHED.has(error.code)) throw error;
    const body = error.code === 'social_login_failed' ? error.detail : 'That account changed while signing in. Try again.';
    await session(req).flash({ level: 'error', body });
    return redirect(303, to, cleared);
  };
  const start = async (req: HttpRequest, provider: string, status: 302 | 303, linkUserId?: unknown): Promise<HttpResponse> => {
    try {
      const begun = await deps.begin.execute({ provider, redirect: first(req.query.redirect), ...(linkUserId !== undefined ? { linkUserId: linkUserId as string | number } : {}) });
      return redirect(status, begun.location, pendingCookie(begun.pending, SOCIAL_PENDING_LIFETIME_MS / 1000));
    } catch (error) {
      return refused(req, error, deps.loginPage);
    }
  };
  /** The signed-in user of a link or unlink, or the 303 to the login page that asks for one. */
  const signedIn = async (req: HttpRequest, what: string): Promise<{ user: Row } | { answer: HttpResponse }> => {
    const user = await session(req).user();
    if (user) return { user };
    await session(req).flash({ level: 'error', body: `Log in to ${what}.` });
    return { answer: redirect(303, deps.loginPage) };
  };
  return { cleared, session, redirect, refused, start, signedIn };
}

/** The callback's query as the provider sent it. */
function searchOf(req: HttpRequest): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(req.query)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, v);
  return search.toString();
}

/**
 * Social login (issue 50): `GET login` 302s to the provider with the pending login sealed in a
 * short-lived HttpOnly cookie scoped to the social routes; `GET callback` completes it, signs
 * the user in on a new session and 303s to the guarded `redirect`; `POST link` (signed in,
 * CSRF-checked) starts a login that links the account to the caller; `POST unlink` removes one.
 * Every refusal is a 303 to the login page with a flash, the cookie cleared.
 */
export function socialAuthRoutes(deps: SocialAuthDeps): RouteDef[] {
  const { cleared, session, redirect, refused, start, signedIn } = socialKit(deps);
  const routes: RouteDef[] = [];
  for (const provider of deps.providers) {
    const base = `${deps.prefix}/social/${provider}`;
    routes.push(
      { method: 'GET', path: `${base}/login`, handler: (req) => start(req, provider, 302) },
      {
        method: 'GET',
        path: `${base}/callback`,
        handler: async (req) => {
          try {
            const result = await deps.complete.execute({ provider, search: searchOf(req), pending: cookieValue(first(req.headers.cookie), SOCIAL_COOKIE) });
            await session(req).login(result.user.id ?? null);
            if (result.outcome === 'linked') await session(req).flash({ level: 'info', body: `Your ${provider} account is now linked.` });
            return redirect(303, result.redirect, cleared);
          } catch (error) {
            return refused(req, error, deps.loginPage);
          }
        },
      },
      {
        method: 'POST',
        path: `${base}/link`,
        body: 'form',
        handler: async (req) => {
          const caller = await signedIn(req, `link a ${provider} account`);
          return 'answer' in caller ? caller.answer : start(req, provider, 303, caller.user.id ?? null);
        },
      },
      {
        method: 'POST',
        path: `${base}/unlink`,
        body: 'form',
        handler: async (req) => {
          const caller = await signedIn(req, `unlink a ${provider} account`);
          if ('answer' in caller) return caller.answer;
          const back = successTarget(first(req.query.redirect));
          try {
            await deps.unlink.execute({ userId: caller.user.id ?? null, provider });
          } catch (error) {
            return refused(req, error, back);
          }
          await session(req).flash({ level: 'info', body: `Your ${provider} account is no longer linked.` });
          return redirect(303, back);
        },
      },
    );
  }
  return routes;
}
