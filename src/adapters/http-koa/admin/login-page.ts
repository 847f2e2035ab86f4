import { isSafePath } from '../../../domain/auth/redirect-guard.js';
import { identityOf } from '../../../domain/auth/user-view.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Row } from '../../../domain/model/types.js';
import { sessionAuthentication } from '../authentication.js';
import type { HttpRequest, HttpResponse, RouteDef } from '../http-route.js';
import { loginPagePath, loginRedirect, redirect, type AdminDeps } from './admin-context.js';
import { csrfInput } from './csrf.js';
import { firstParam, html, layout, queryString } from './html.js';
import type { SafeHtml } from '../safe-html.js';

/** The one refusal of the admin login: a wrong password, an unknown, inactive or non-staff user alike (Django's text). */
export const ADMIN_LOGIN_REFUSED = 'Please enter the correct username and password for a staff account.';
/** Only reached with the right password, so it tells nothing about which accounts exist (form login says the same). */
const EMAIL_UNVERIFIED = 'Please verify your email address before logging in.';

const field = (body: unknown, name: string): string => {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
};

/** The requested way back (`redirect`, or Django's `next`) when it is a safe site-relative path. */
function requested(req: HttpRequest): string | undefined {
  const target = firstParam(req.query.redirect) ?? firstParam(req.query.next);
  return isSafePath(target) ? target : undefined;
}

/** The login form; `username` is kept after a refusal, the password never is. */
function loginForm(req: HttpRequest, deps: AdminDeps, options: { username?: string; error?: string; notice?: SafeHtml; status?: number } = {}): HttpResponse {
  const action = `${deps.prefix}/login/${queryString({ redirect: requested(req) })}`;
  const error = options.error ? html`<p class="flash error" role="alert" id="login-error">${options.error}</p>` : '';
  const described = options.error ? html` aria-describedby="login-error"` : '';
  const body = html`${options.notice ?? ''}<form method="post" action="${action}" id="login-form" class="group">${csrfInput(req)}
${error}
<div class="field"><label for="id_username">Username</label><input type="text" name="username" id="id_username" value="${options.username ?? ''}" autocomplete="username" autocapitalize="none" required autofocus${described}></div>
<div class="field"><label for="id_password">Password</label><input type="password" name="password" id="id_password" autocomplete="current-password" required${described}></div>
<div class="actions"><button type="submit">Log in</button></div>
</form>`;
  const page = layout({ title: 'Log in', prefix: deps.prefix, username: null, logout: html``, crumbs: [], body, script: false });
  return { status: options.status ?? 200, type: 'text/html; charset=utf-8', headers: { 'cache-control': 'no-store' }, body: page };
}

/** GET: the form; staff already signed in go straight on, a signed-in non-staff user is told why they are here. */
async function showLogin(req: HttpRequest, deps: AdminDeps): Promise<HttpResponse> {
  const identity = await req.identity(sessionAuthentication());
  if (identity.isStaff) return redirect(requested(req) ?? `${deps.prefix}/`);
  const notice = identity.isAuthenticated
    ? html`<p class="flash error" role="status">You are signed in as <strong>${identity.username ?? ''}</strong>, who may not use the admin. Log in as a staff user to go on.</p>`
    : undefined;
  return loginForm(req, deps, notice ? { notice } : {});
}

/**
 * POST: the app's login use case (its throttle: Throttled propagates as the 429 form login
 * answers; its argon2 check against a dummy hash for unknown users), then the staff check. A
 * refusal renders the form again (400) and leaves any existing session alone; a non-staff user
 * is refused before a session is made. Staff get a new session (fixation defence) and a 303.
 */
async function submitLogin(req: HttpRequest, deps: AdminDeps): Promise<HttpResponse> {
  const username = field(req.body, 'username');
  const refuse = (error: string) => loginForm(req, deps, { username, error, status: 400 });
  let user: Row;
  try {
    user = await deps.logIn.execute({ username, password: field(req.body, 'password'), ip: req.ip });
  } catch (e) {
    if (e instanceof DomainError && e.code === 'invalid_credentials') return refuse(ADMIN_LOGIN_REFUSED);
    if (e instanceof DomainError && e.code === 'email_unverified') return refuse(EMAIL_UNVERIFIED);
    throw e;
  }
  if (!identityOf(user, 'session').isStaff) return refuse(ADMIN_LOGIN_REFUSED);
  if (!req.session) throw new Error('the admin login needs the sessions plugin');
  await req.session.login(user.id ?? null);
  return redirect(requested(req) ?? `${deps.prefix}/`);
}

/** POST: ends the session (CSRF checked by the security plugin's middleware) and goes to the login page. */
async function logout(req: HttpRequest, deps: AdminDeps): Promise<HttpResponse> {
  await req.session?.logout();
  return redirect(loginPagePath(deps));
}

/**
 * The admin's login and logout routes, registered before the table routes (a table named
 * `login` or `logout` is shadowed by them). Without `loginUrl`, `<prefix>/login/` serves the
 * admin's own form; with it, the address sends the caller to the host's page instead, so there
 * is one way to sign in. `<prefix>/logout/` is served in both cases.
 */
export function adminLoginRoutes(deps: AdminDeps): RouteDef[] {
  const p = deps.prefix;
  const logoutRoute: RouteDef = { method: 'POST', path: `${p}/logout`, body: 'form', handler: (req) => logout(req, deps) };
  if (deps.loginUrl !== undefined) {
    return [{ method: 'GET', path: `${p}/login`, handler: (req) => redirect(loginRedirect(deps, requested(req))) }, logoutRoute];
  }
  return [
    { method: 'GET', path: `${p}/login`, handler: (req) => showLogin(req, deps) },
    { method: 'POST', path: `${p}/login`, body: 'form', handler: (req) => submitLogin(req, deps) },
    logoutRoute,
  ];
}
