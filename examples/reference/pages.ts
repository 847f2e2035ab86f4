import { csrfInput, escapeHtml, type HttpRequest, type HttpResponse, type Plugin } from '../../src/index.js';

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
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}input{font:inherit}nav a{margin-right:1rem}.flash-error{color:#a00}</style>
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

/**
 * The reference app's own HTML pages (the framework serves none): home shows the signed-in user
 * and flash messages; login and signup render forms with `csrfInput()` posting to `/auth/...`.
 */
export function referencePages(): Plugin {
  return {
    name: 'reference-pages',
    install(ctx) {
      ctx.route({
        method: 'GET',
        path: '/',
        handler: (req) => page(req, 'Portico reference app', '<ul><li><a href="/healthz">/healthz</a></li><li><a href="/ready">/ready</a></li></ul>'),
      });
      ctx.route({ method: 'GET', path: '/login', handler: (req) => page(req, 'Log in', loginForm(req)) });
      ctx.route({ method: 'GET', path: '/signup', handler: (req) => page(req, 'Sign up', signupForm(req)) });
    },
  };
}
