import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
});
afterAll(async () => ref.close());

const client = () => new HttpClient(ref.url);
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${seq++}`;

describe('form auth routes answer only POST', () => {
  it.each(['/auth/login', '/auth/signup', '/auth/logout'])('GET %s answers 405 with Allow: POST', async (path) => {
    const res = await client().request(path);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await client().request(path, { method: 'HEAD' })).status).toBe(405);
  });
});

describe('CSRF on form posts', () => {
  it('the CSRF cookie is set by pages that render a form, not by API reads', async () => {
    expect((await client().request('/api/author/')).headers.getSetCookie()).toEqual([]);
    expect((await client().request('/healthz')).headers.getSetCookie()).toEqual([]);
    const page = await client().request('/login');
    expect(page.headers.getSetCookie().some((l) => l.startsWith('portico_csrf=') && !/HttpOnly/i.test(l))).toBe(true);
  });

  it('a login form without the CSRF input is rejected with 403 and signs nobody in', async () => {
    const c = client();
    await c.csrf();
    const res = await c.form('/auth/login', { username: 'alice', password: 'alice-password-1' }, { csrf: null });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'csrf_failed' });
    expect(c.cookies.has('portico_session')).toBe(false);
  });

  it('a token that does not match the cookie, or a forged cookie, is rejected', async () => {
    const c = client();
    const token = await c.csrf();
    expect((await c.form('/auth/login', { username: 'alice', password: 'x' }, { csrf: `${token}x` })).status).toBe(403);
    const [nonce] = token.split('.');
    const forged = `${nonce}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    c.cookies.set('portico_csrf', forged);
    expect((await c.form('/auth/login', { username: 'alice', password: 'x' }, { csrf: forged })).status).toBe(403);
  });

  it('another client\'s token does not work with my cookie', async () => {
    const mine = client();
    await mine.csrf();
    const theirs = await client().csrf();
    expect((await mine.form('/auth/login', { username: 'alice', password: 'alice-password-1' }, { csrf: theirs })).status).toBe(403);
  });
});

describe('login', () => {
  it('valid credentials: 303 to /, an HttpOnly SameSite=Lax session cookie, the home page shows the user', async () => {
    const c = client();
    const res = await c.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('portico_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await c.home()).who).toBe('Signed in as alice.');
  });

  it('the username matches case-insensitively', async () => {
    const c = client();
    await c.form('/auth/login', { username: 'ALICE', password: 'alice-password-1' });
    expect((await c.home()).who).toBe('Signed in as alice.');
  });

  it('the database keeps only a SHA-256 of the session token', async () => {
    const c = client();
    await c.form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    const token = c.cookies.get('portico_session') as string;
    const rows = await ref.app.store.find('session', { where: { column: 'token_hash', op: 'eq', value: createHash('sha256').update(token).digest('hex') } });
    expect(rows).toHaveLength(1);
    expect(await ref.app.store.count('session', { column: 'token_hash', op: 'eq', value: token })).toBe(0);
  });

  it('login rotates the session (fixation defence): the pre-login session stops working', async () => {
    const c = client();
    await c.form('/auth/login', { username: 'alice', password: 'wrong-password' });
    const before = c.cookies.get('portico_session');
    expect(before).toBeDefined();
    await c.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    const after = c.cookies.get('portico_session');
    expect(after).not.toBe(before);
    const attacker = client();
    attacker.cookies.set('portico_session', before as string);
    expect((await attacker.home()).who).toBe('You are not signed in.');
  });

  it('a safe redirect target is followed', async () => {
    const res = await client().form('/auth/login?redirect=%2Fdashboard%3Ftab%3D1', { username: 'alice', password: 'alice-password-1' });
    expect(res.headers.get('location')).toBe('/dashboard?tab=1');
  });

  it.each(['//evil.com', 'https://evil.com', '/\\evil.com', '/\t/evil.com', '/\r\nLocation: http://evil.com', 'javascript:alert(1)', 'http:/evil.com', '\\\\evil.com'])(
    'the redirect %j lands on a site path',
    async (target) => {
      const res = await client().form(`/auth/login?redirect=${encodeURIComponent(target)}`, { username: 'alice', password: 'alice-password-1' });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    },
  );

  it('a failure goes back to the same-host Referer with a flash message', async () => {
    const c = client();
    const res = await c.form('/auth/login', { username: 'alice', password: 'nope' }, { headers: { referer: `${ref.url}/login?next=1` } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=1');
    const home = await c.home();
    expect(home.flash).toEqual(['Invalid username or password.']);
    expect(home.who).toBe('You are not signed in.');
    expect((await c.home()).flash).toEqual([]);
  });

  it.each([
    'http://127.0.0.1.evil.com/login',
    'https://evil.com/login',
    'http://evil.com//login',
    'not a url',
  ])('a Referer %s on another host is ignored', async (referer) => {
    const res = await client().form('/auth/login?redirect=/retry', { username: 'alice', password: 'nope' }, { headers: { referer } });
    expect(res.headers.get('location')).toBe('/retry');
  });

  it('unknown user and wrong password look identical', async () => {
    const a = client();
    const b = client();
    const ra = await a.form('/auth/login', { username: 'alice', password: 'wrong-password' });
    const rb = await b.form('/auth/login', { username: 'no-such-user-xyz', password: 'wrong-password' });
    expect([ra.status, ra.headers.get('location')]).toEqual([rb.status, rb.headers.get('location')]);
    expect((await a.home()).flash).toEqual((await b.home()).flash);
  });
});

describe('signup', () => {
  it('creates the user, signs them in and redirects; the password is stored as argon2id', async () => {
    const c = client();
    const username = unique('carol');
    const res = await c.form('/auth/signup?redirect=/welcome', { username, email: `${username}@example.com`, password: 'correct horse battery staple' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/welcome');
    expect((await c.home()).who).toBe(`Signed in as ${username}.`);
    const [user] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: username } });
    expect(String(user?.password_hash)).toMatch(/^\$argon2id\$/);
    expect(user?.email_verified_at).toBeNull();
    expect(user?.is_staff).toBe(false);
  });

  it('refuses a username or email differing only by case', async () => {
    const c = client();
    const res = await c.form('/auth/signup', { username: 'ALICE', email: 'Bob@Example.com', password: 'correct horse battery staple' });
    expect(res.status).toBe(303);
    const { flash, who } = await c.home();
    expect(flash).toEqual(['username: a user with this username already exists', 'email: a user with this email already exists']);
    expect(who).toBe('You are not signed in.');
  });

  it('reports every password problem together', async () => {
    const c = client();
    await c.form('/auth/signup', { username: unique('dave'), email: `${unique('d')}@example.com`, password: '1234567' });
    const { flash } = await c.home();
    expect(flash).toEqual(expect.arrayContaining(['password: must be at least 8 characters', 'password: must not be entirely numeric', 'password: is too common']));
  });

  it('refuses a password too similar to the username', async () => {
    const c = client();
    const username = unique('evelyn');
    await c.form('/auth/signup', { username, email: `${username}@example.com`, password: `${username}1` });
    expect((await c.home()).flash).toEqual(['password: is too similar to the username or email']);
  });

  it('cannot make itself staff or superuser through extra fields', async () => {
    const c = client();
    const username = unique('frank');
    await c.form('/auth/signup', { username, email: `${username}@example.com`, password: 'correct horse battery staple', is_staff: 'true', is_superuser: '1' });
    const [user] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: username } });
    expect([user?.is_staff, user?.is_superuser]).toEqual([false, false]);
  });
});

describe('logout', () => {
  it('destroys the session, clears the cookie and redirects', async () => {
    const c = client();
    await c.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    const stolen = c.cookies.get('portico_session') as string;
    const res = await c.form('/auth/logout', {}, { csrf: await c.csrf('/') });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.getSetCookie().find((l) => l.startsWith('portico_session='))).toMatch(/Max-Age=0/);
    expect((await c.home()).who).toBe('You are not signed in.');
    const replay = client();
    replay.cookies.set('portico_session', stolen);
    expect((await replay.home()).who).toBe('You are not signed in.');
  });

  it('without the CSRF input is refused while signed in', async () => {
    const c = client();
    await c.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    expect((await c.form('/auth/logout', {}, { csrf: null })).status).toBe(403);
    expect((await c.home()).who).toBe('Signed in as alice.');
  });
});

describe('hardening headers', () => {
  it('are on every response; personal responses are not cached', async () => {
    const c = client();
    const anon = await c.request('/');
    expect(anon.headers.get('x-content-type-options')).toBe('nosniff');
    expect(anon.headers.get('x-frame-options')).toBe('DENY');
    expect(anon.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(anon.headers.get('referrer-policy')).toBe('same-origin');
    expect(anon.headers.get('strict-transport-security')).toBeNull();
    await c.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    expect((await c.request('/')).headers.get('cache-control')).toBe('no-store');
  });

  it('are on error answers too (404, 405, 401, a refused body), and over a route\'s own Cache-Control for a caller with credentials', async () => {
    const answers = [
      await client().request('/no/such/page'),
      await client().request('/api/author/1', { method: 'POST' }),
      await client().request('/api/post/', { headers: { authorization: 'Bearer not-a-token-at-all-xxxxxxxx' } }),
      await client().request('/api/tag/', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    ];
    expect(answers.map((res) => res.status)).toEqual([404, 405, 401, 415]);
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    }
    expect(answers[2]?.headers.get('cache-control')).toBe('no-store');
    const asset = '/api/docs/swagger-ui.css';
    expect((await client().request(asset)).headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await client().request(asset, { headers: { authorization: 'Bearer x' } })).headers.get('cache-control')).toBe('no-store');
  });

  it('include HSTS in production only on a secure request (RFC 6797 §7.2), read from X-Forwarded-Proto only through a trusted proxy', async () => {
    const hsts = 'max-age=31536000; includeSubDomains';
    const https = { headers: { 'x-forwarded-proto': 'https' } };
    const direct = await startReference('sqlite', { env: { THROTTLE: 'off', NODE_ENV: 'production' } });
    const proxied = await startReference('sqlite', { env: { THROTTLE: 'off', NODE_ENV: 'production', TRUSTED_PROXY_HOPS: '1' } });
    try {
      const header = async (url: string, init?: RequestInit) => (await fetch(`${url}/api/author/1`, init)).headers.get('strict-transport-security');
      expect(await header(direct.url)).toBeNull();
      expect(await header(direct.url, https)).toBeNull();
      expect(await header(proxied.url)).toBeNull();
      expect(await header(proxied.url, { headers: { 'x-forwarded-proto': 'http' } })).toBeNull();
      expect(await header(proxied.url, https)).toBe(hsts);
      expect((await fetch(`${proxied.url}/no/such/page`, https)).headers.get('strict-transport-security')).toBe(hsts);
      expect(await header(ref.url, https)).toBeNull();
      // Every surface answers through the same finisher: the admin, GraphQL over POST and over SSE.
      const admin = await fetch(`${proxied.url}/admin/`, { ...https, redirect: 'manual' });
      expect([admin.status, admin.headers.get('strict-transport-security')]).toEqual([303, hsts]);
      const graphqlPost = { method: 'POST', body: JSON.stringify({ query: '{ __typename }' }) };
      const json = { 'content-type': 'application/json' };
      const gql = await fetch(`${proxied.url}/graphql`, { ...graphqlPost, headers: { ...https.headers, ...json } });
      expect([gql.status, gql.headers.get('strict-transport-security')]).toEqual([200, hsts]);
      const sse = (headers: Record<string, string>) =>
        fetch(`${proxied.url}/graphql/sse`, { method: 'POST', body: JSON.stringify({ query: 'subscription { postDeleted }' }), headers: { ...headers, ...json, accept: 'text/event-stream' } });
      for (const [headers, expected] of [[https.headers, hsts], [{}, null]] as const) {
        const stream = await sse(headers);
        expect([stream.status, stream.headers.get('content-type'), stream.headers.get('strict-transport-security')]).toEqual([200, 'text/event-stream; charset=utf-8', expected]);
        await stream.body?.cancel();
      }
    } finally {
      await Promise.all([direct.close(), proxied.close()]);
    }
  });

  it('are not on the probes, which answer before the plugins\' middleware', async () => {
    const probe = await client().request('/healthz');
    expect(probe.status).toBe(200);
    expect(probe.headers.get('x-frame-options')).toBeNull();
    expect(probe.headers.get('x-request-id')).toMatch(/^[\w.-]+$/);
  });
});
