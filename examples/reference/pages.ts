import { cachePage, csrfInput, escapeHtml, type HttpRequest, type HttpResponse, type Plugin } from '../../src/index.js';

async function page(req: HttpRequest, title: string, body: string): Promise<HttpResponse> {
  const user = req.session ? await req.session.user() : null;
  const flash = req.session ? await req.session.takeFlash() : [];
  const flashHtml = flash.length
    ? `<ul class="flash">${flash.map((m) => `<li class="flash-${escapeHtml(m.level)}">${escapeHtml(m.body)}</li>`).join('')}</ul>`
    : '';
  const who = user
    ? `<p id="whoami">Signed in as <strong>${escapeHtml(String(user.username))}</strong>.</p>
<form method="post" action="/auth/logout">${csrfInput(req)}<button type="submit">Log out</button></form>`
    : '<p id="whoami">You are not signed in.</p>';
  return {
    status: 200,
    type: 'text/html; charset=utf-8',
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)} · Portico reference</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<nav><a href="/">Home</a><a href="/login">Log in</a><a href="/signup">Sign up</a></nav>
<h1>${escapeHtml(title)}</h1>
${flashHtml}
${who}
${body}
</body>
</html>`,
  };
}

/** `/login?redirect=/admin/…` signs in and goes back there (the form-auth route checks the path is site-relative). */
const loginAction = (req: HttpRequest) => {
  const target = typeof req.query.redirect === 'string' ? req.query.redirect : '';
  return target.startsWith('/') && !target.startsWith('//') ? `/auth/login?redirect=${encodeURIComponent(target)}` : '/auth/login';
};

/** The social sign-in links of the login page, back to the same target. */
const socialLinks = (req: HttpRequest, providers: readonly string[]): string => {
  if (providers.length === 0) return '';
  const target = typeof req.query.redirect === 'string' && req.query.redirect.startsWith('/') && !req.query.redirect.startsWith('//') ? req.query.redirect : '/account';
  return `<ul id="social">${providers.map((p) => `<li><a href="/auth/social/${escapeHtml(p)}/login?redirect=${escapeHtml(encodeURIComponent(target))}" id="social-${escapeHtml(p)}">Sign in with ${escapeHtml(p)}</a></li>`).join('')}</ul>`;
};

/** The account page: the signed-in user's linked providers, with a link or an unlink form each. */
async function accountPage(req: HttpRequest, providers: readonly string[], linked: (userId: unknown) => Promise<string[]>): Promise<HttpResponse> {
  const user = req.session ? await req.session.user() : null;
  if (!user) return { status: 303, headers: { Location: '/login?redirect=/account' }, body: '', type: 'text/plain' };
  const have = new Set(await linked(user.id));
  const rows = providers.map((p) => {
    const action = have.has(p) ? 'unlink' : 'link';
    return `<li id="account-${escapeHtml(p)}">${escapeHtml(p)}: ${have.has(p) ? 'linked' : 'not linked'}
<form method="post" action="/auth/social/${escapeHtml(p)}/${action}?redirect=/account">${csrfInput(req)}<button type="submit">${action === 'link' ? 'Link' : 'Unlink'} ${escapeHtml(p)}</button></form></li>`;
  });
  return page(req, 'Your account', `<p id="email">${escapeHtml(String(user.email))}</p><ul id="providers">${rows.join('')}</ul>`);
}

const loginForm = (req: HttpRequest) => `<form method="post" action="${escapeHtml(loginAction(req))}" id="login-form">
  ${csrfInput(req)}
  <label>Username <input name="username" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Log in</button>
</form>`;

const signupForm = (req: HttpRequest) => `<form method="post" action="/auth/signup" id="signup-form">
  ${csrfInput(req)}
  <label>Username <input name="username" autocomplete="username" required></label>
  <label>Email <input name="email" type="email" autocomplete="email" required></label>
  <label>Password <input name="password" type="password" autocomplete="new-password" required></label>
  <button type="submit">Sign up</button>
</form>`;

const forgotForm = (req: HttpRequest) => `<form method="post" action="/auth/password-reset?redirect=/login" id="forgot-form">
  ${csrfInput(req)}
  <label>Email <input name="email" type="email" autocomplete="email" required></label>
  <button type="submit">Mail me a link</button>
</form>`;

const resetForm = (req: HttpRequest, token: string) => `<form method="post" action="/auth/password-reset/confirm?redirect=/login" id="reset-form">
  ${csrfInput(req)}
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  <label>New password <input name="password" type="password" autocomplete="new-password" required></label>
  <button type="submit">Set the password</button>
</form>`;

/** Where the mailed link's token waits while the form is shown (never in the page's address). */
const RESET_COOKIE = 'reference_reset';
const cookieOf = (req: HttpRequest, name: string): string => {
  const header = typeof req.headers.cookie === 'string' ? req.headers.cookie : '';
  const found = header.split(/;\s*/).find((pair) => pair.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
};

/**
 * `GET /reset-password?token=…` (the mailed link): moves the token into a short-lived HttpOnly
 * cookie and answers 303 to `/reset-password`, with `Referrer-Policy: no-referrer` and `no-store`,
 * so the page showing the form holds no token in its address (nothing to leak as a Referer) and
 * keeps the default referrer policy: a form posted from a no-referrer page carries
 * `Origin: null`, which the CSRF origin check refuses (as Django's does).
 */
async function resetPage(req: HttpRequest): Promise<HttpResponse> {
  const token = typeof req.query.token === 'string' ? req.query.token : undefined;
  if (token !== undefined) {
    const secure = req.origin.startsWith('https:') ? '; Secure' : '';
    return {
      status: 303,
      body: '',
      type: 'text/plain',
      headers: {
        Location: '/reset-password',
        'Set-Cookie': `${RESET_COOKIE}=${encodeURIComponent(token)}; Path=/reset-password; Max-Age=3600; HttpOnly; SameSite=Lax${secure}`,
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
      },
    };
  }
  const shown = await page(req, 'Choose a new password', resetForm(req, cookieOf(req, RESET_COOKIE)));
  return { ...shown, headers: { ...shown.headers, 'Cache-Control': 'no-store' } };
}

/**
 * The reference app's own HTML pages (the framework serves none): home shows the signed-in user
 * and flash messages; login, signup, forgot-password and reset-password render forms with
 * `csrfInput()` posting to `/auth/...`; `/stats` is a cached page.
 */
export function referencePages(providers: readonly string[] = []): Plugin {
  return {
    name: 'reference-pages',
    install(ctx) {
      ctx.route({
        method: 'GET',
        path: '/',
        handler: (req) => page(req, 'Portico reference app', '<ul><li><a href="/healthz">/healthz</a></li><li><a href="/ready">/ready</a></li></ul>'),
      });
      ctx.route({ method: 'GET', path: '/login', handler: (req) => page(req, 'Log in', loginForm(req) + socialLinks(req, providers)) });
      const linked = async (userId: unknown): Promise<string[]> =>
        (await ctx.store.find('social_account', { where: { column: 'user_id', op: 'eq', value: userId as number }, columns: ['provider'] })).map((r) => String(r.provider));
      ctx.route({ method: 'GET', path: '/account', handler: (req) => accountPage(req, providers, linked) });
      ctx.route({ method: 'GET', path: '/signup', handler: (req) => page(req, 'Sign up', signupForm(req)) });
      ctx.route({ method: 'GET', path: '/forgot-password', handler: (req) => page(req, 'Forgot your password?', forgotForm(req)) });
      ctx.route({ method: 'GET', path: '/reset-password', handler: resetPage });
      // REFERENCE-APP.md "Caching": anonymous answers kept 30 s in the app's cache (CACHE_URL), dropped when a post changes.
      ctx.route({
        method: 'GET',
        path: '/stats',
        cache: cachePage({ ttl: 30, dependsOn: ['post'] }),
        handler: async () => ({ status: 200, body: { posts: await ctx.store.count('post'), generated_at: ctx.clock.now().toISOString() } }),
      });
    },
  };
}
