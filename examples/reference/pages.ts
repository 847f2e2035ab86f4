import type { HttpResponse, Plugin } from '../../src/index.js';

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

function page(title: string, body: string): HttpResponse {
  return {
    status: 200,
    type: 'text/html; charset=utf-8',
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escape(title)} · Portico reference</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}input{font:inherit}nav a{margin-right:1rem}</style>
</head>
<body>
<nav><a href="/">Home</a><a href="/login">Log in</a><a href="/signup">Sign up</a></nav>
<h1>${escape(title)}</h1>
${body}
</body>
</html>`,
  };
}

const loginForm = `<form method="post" action="/auth/login">
  <label>Username <input name="username" autocomplete="username" required></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Log in</button>
</form>`;

const signupForm = `<form method="post" action="/auth/signup">
  <label>Username <input name="username" autocomplete="username" required></label>
  <label>Email <input name="email" type="email" autocomplete="email" required></label>
  <label>Password <input name="password" type="password" autocomplete="new-password" required></label>
  <button type="submit">Sign up</button>
</form>`;

/**
 * The reference app's own HTML pages (the framework serves none): home, login and signup.
 * The forms post to the form-auth routes.
 */
export function referencePages(): Plugin {
  return {
    name: 'reference-pages',
    install(ctx) {
      ctx.route({
        method: 'GET',
        path: '/',
        handler: () =>
          page(
            'Portico reference app',
            `<p id="whoami">You are not signed in.</p>
<ul><li><a href="/healthz">/healthz</a></li><li><a href="/ready">/ready</a></li></ul>`,
          ),
      });
      ctx.route({ method: 'GET', path: '/login', handler: () => page('Log in', loginForm) });
      ctx.route({ method: 'GET', path: '/signup', handler: () => page('Sign up', signupForm) });
    },
  };
}
