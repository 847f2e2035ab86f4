import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, auth, createApp, security, sessions, where } from '../../src/index.js';
import { startAdminHost, hostPassword, type AdminHost } from '../support/admin-host.js';
import { HttpClient } from '../support/http-client.js';

/*
 * The admin's own login and logout pages (docs/admin.md "Who gets in") in a new host app that
 * writes no login page of its own: createApp + sessions() + security() + auth() + admin().
 */

const REFUSED = 'Please enter the correct username and password for a staff account.';
const LOGIN = '/admin/login/';

describe('the admin signs staff in on its own login page', () => {
  let host: AdminHost;
  beforeAll(async () => {
    host = await startAdminHost();
  });
  afterAll(async () => host?.close());

  const client = () => new HttpClient(host.url);
  /** Posts the admin's login form with the token of its page. */
  const logIn = async (c: HttpClient, username: string, password: string, query = '') => {
    const token = await c.csrf(`${LOGIN}${query}`);
    return c.form(`${LOGIN}${query}`, { username, password }, { csrf: token });
  };
  const sessionCount = () => host.app.store.count('session');

  it('an anonymous caller is sent to the admin login page with the way back', async () => {
    const index = await client().request('/admin/');
    expect(index.status).toBe(303);
    expect(index.headers.get('location')).toBe('/admin/login/?redirect=%2Fadmin%2F');
    const list = await client().request('/admin/note?q=First');
    expect(list.status).toBe(303);
    expect(list.headers.get('location')).toBe(`/admin/login/?redirect=${encodeURIComponent('/admin/note')}`);
  });

  it('the login page is a server-rendered form with the CSRF input, no script and nothing from elsewhere', async () => {
    for (const path of [`${LOGIN}?redirect=%2Fadmin%2Fnote`, '/admin/login?redirect=%2Fadmin%2Fnote']) {
      const res = await client().request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const text = await res.text();
      expect(text).toMatch(/<form method="post" action="\/admin\/login\/\?redirect=%2Fadmin%2Fnote"[^>]*>/);
      expect(text).toMatch(/<input type="hidden" name="csrf_token" value="[^"]+">/);
      expect(text).toMatch(/<label for="id_username">/);
      expect(text).toMatch(/<input type="password" name="password" id="id_password"/);
      expect(text).toContain('Portico admin');
      expect(text).not.toContain('<script');
      expect(text).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(text).not.toContain('Log out');
    }
  });

  it('a login POST without the CSRF field answers 403 and signs nobody in', async () => {
    const c = client();
    await c.csrf(LOGIN);
    const res = await c.form(LOGIN, { username: 'root', password: hostPassword('root') }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'csrf_failed' });
    expect(c.cookies.has('portico_session')).toBe(false);
  });

  it('a wrong password re-renders the form with the one message, the username kept and the password not', async () => {
    const c = client();
    const before = await sessionCount();
    const res = await logIn(c, 'root', 'not-the-password-9', '?redirect=%2Fadmin%2Fnote');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await res.text();
    expect(text).toContain(REFUSED);
    expect(text).toMatch(/name="username" id="id_username" value="root"/);
    expect(text).not.toContain('not-the-password-9');
    expect(text).toMatch(/action="\/admin\/login\/\?redirect=%2Fadmin%2Fnote"/);
    expect(c.cookies.has('portico_session')).toBe(false);
    expect(await sessionCount()).toBe(before);
    // An unknown user and an inactive staff account get the very same page.
    for (const [username, password] of [['nobody', 'whatever-it-is-1'], ['dora', hostPassword('dora')]] as const) {
      const other = await logIn(client(), username, password);
      expect(other.status).toBe(400);
      expect(await other.text()).toContain(REFUSED);
    }
  });

  it('a valid user who is not staff is refused the same way and gets no session', async () => {
    const c = client();
    const before = await sessionCount();
    const res = await logIn(c, 'alice', hostPassword('alice'));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(REFUSED);
    expect(c.cookies.has('portico_session')).toBe(false);
    expect(await sessionCount()).toBe(before);
    expect((await c.request('/admin/')).status).toBe(303);
  });

  it('staff sign in: 303 to the safe redirect, then the admin answers', async () => {
    const c = client();
    const res = await logIn(c, 'staff', hostPassword('staff'), '?redirect=%2Fadmin%2Fnote');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/note');
    expect(c.cookies.has('portico_session')).toBe(true);
    const list = await c.request('/admin/note');
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('First note');
    const index = await c.request('/admin/');
    expect(index.status).toBe(200);
    const text = await index.text();
    expect(text).toContain('Site administration');
    // The header's log-out button is a form POST to the admin's logout, with the CSRF input.
    expect(text).toMatch(/<form method="post" action="\/admin\/logout\/"><input type="hidden" name="csrf_token" value="[^"]+"><button type="submit"[^>]*>Log out<\/button><\/form>/);
    // Signed in, the login page sends staff on.
    const again = await c.request(`${LOGIN}?redirect=%2Fadmin%2Fnote`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/admin/note');
  });

  it('Django\'s `next` works too; without a target the admin index is the default', async () => {
    const next = await logIn(client(), 'root', hostPassword('root'), '?next=%2Fadmin%2Fnote%2Fadd');
    expect(next.headers.get('location')).toBe('/admin/note/add');
    const plain = await logIn(client(), 'root', hostPassword('root'));
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/admin/');
  });

  it('an absolute or protocol-relative redirect lands on the admin index, never on another host', async () => {
    for (const target of ['https://evil.example/', '//evil.example/', '/\\evil.example/']) {
      const c = client();
      const res = await logIn(c, 'root', hostPassword('root'), `?redirect=${encodeURIComponent(target)}`);
      expect(res.status, target).toBe(303);
      expect(res.headers.get('location'), target).toBe('/admin/');
      expect((await c.request('/admin/')).status).toBe(200);
    }
    // The form does not carry an unsafe target along either.
    const page = await (await client().request(`${LOGIN}?redirect=${encodeURIComponent('https://evil.example/')}`)).text();
    expect(page).not.toContain('evil.example');
  });

  it('logout destroys the session and goes back to the login page; it needs the CSRF field', async () => {
    const c = client();
    expect((await logIn(c, 'root', hostPassword('root'))).status).toBe(303);
    const cookie = c.cookies.get('portico_session') ?? '';
    expect(cookie).not.toBe('');
    const token = await c.csrf('/admin/');
    expect((await c.form('/admin/logout/', {}, { csrf: null })).status).toBe(403);
    expect((await c.request('/admin/')).status).toBe(200);
    const out = await c.form('/admin/logout/', {}, { csrf: token });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(LOGIN);
    expect(c.cookies.has('portico_session')).toBe(false);
    // The old cookie signs nobody in any more.
    const replay = await new HttpClient(host.url).request('/admin/', { headers: { cookie: `portico_session=${cookie}` } });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/admin/login/?redirect=%2Fadmin%2F');
  });

  it('the attempts share the form login\'s throttle: past the budget the admin login answers 429', async () => {
    // Three attempts through the app's form login, two through the admin's: one budget (5 per IP and username).
    for (let i = 0; i < 3; i++) {
      const c = client();
      expect((await c.form('/auth/login', { username: 'carol', password: 'wrong-password-1' }, { csrf: await c.csrf(LOGIN) })).status).toBe(303);
    }
    for (let i = 0; i < 2; i++) expect((await logIn(client(), 'carol', 'wrong-password-1')).status).toBe(400);
    const blocked = await logIn(client(), 'carol', hostPassword('carol'));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ code: 'throttled' });
    const users = await host.app.store.find('auth_user', { where: where.eq('username', 'carol') });
    expect(users[0]?.last_login ?? null).toBeNull();
  });
});

describe('an admin given `loginUrl` keeps the host\'s login page', () => {
  let host: AdminHost;
  beforeAll(async () => {
    host = await startAdminHost({ admin: { loginUrl: '/login' } });
  });
  afterAll(async () => host?.close());

  it('anonymous callers go to the host\'s page, and so does the admin\'s login address', async () => {
    const res = await new HttpClient(host.url).request('/admin/note');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?redirect=%2Fadmin%2Fnote');
    const own = await new HttpClient(host.url).request(`${LOGIN}?redirect=%2Fadmin%2Fnote`);
    expect(own.status).toBe(303);
    expect(own.headers.get('location')).toBe('/login?redirect=%2Fadmin%2Fnote');
    const unsafe = await new HttpClient(host.url).request(`${LOGIN}?redirect=${encodeURIComponent('https://evil.example/')}`);
    expect(unsafe.headers.get('location')).toBe('/login?redirect=%2Fadmin%2F');
  });
});

describe('admin() checks the plugins it needs when the app starts', () => {
  it.each([
    ['neither sessions() nor auth()', () => createApp({ database: 'memory:', logRequests: false }).use(admin()), 'admin() needs sessions() and auth() mounted before it'],
    ['sessions() without auth()', () => createApp({ database: 'memory:', logRequests: false }).use(sessions()).use(security()).use(admin()), 'admin() needs auth() mounted before it'],
  ])('%s: start rejects naming the missing plugins', async (_, build, message) => {
    const app = build();
    try {
      await expect(app.start()).rejects.toThrow(message);
    } finally {
      await app.close();
    }
  });

  it('auth() mounted after admin() is refused too', async () => {
    const app = createApp({ database: 'memory:', logRequests: false }).use(sessions()).use(security()).use(admin()).use(auth());
    try {
      await expect(app.start()).rejects.toThrow('admin() needs auth() mounted before it');
    } finally {
      await app.close();
    }
  });
});
