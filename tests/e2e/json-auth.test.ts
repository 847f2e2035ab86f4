import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
});
afterAll(async () => ref.close());
const c = () => new HttpClient(ref.url);
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${seq++}`;

const login = async (username = 'alice', password = 'alice-password-1') => {
  const res = await c().json('/api/auth/login', 'POST', { username, password });
  return { res, body: (await res.json()) as { user: Record<string, unknown>; token: string } };
};

describe('JSON login, me and logout with bearer tokens', () => {
  it('login answers {user, token} without the password hash', async () => {
    const { res, body } = await login();
    expect(res.status).toBe(200);
    expect(body.user).toMatchObject({ id: 1, username: 'alice', email: 'alice@example.com', is_staff: false, is_superuser: false });
    expect(JSON.stringify(body)).not.toMatch(/password|argon2/);
    expect(body.token).toMatch(/^[\w-]{40,}$/);
  });

  it('tokens are stored only as SHA-256', async () => {
    const { body } = await login('bob', 'bob-password-1');
    const hash = createHash('sha256').update(body.token).digest('hex');
    expect(await ref.app.store.count('auth_token', { column: 'token_hash', op: 'eq', value: hash })).toBe(1);
    expect(await ref.app.store.count('auth_token', { column: 'token_hash', op: 'eq', value: body.token })).toBe(0);
  });

  it('GET /api/auth/me with the bearer token returns the user; logout revokes the token', async () => {
    const { body } = await login('staff', 'staff-password-1');
    const auth = { authorization: `Bearer ${body.token}` };
    const me = await c().request('/api/auth/me', { headers: auth });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { username: 'staff', is_staff: true } });
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect((await c().request('/api/auth/logout', { method: 'POST', headers: auth })).status).toBe(204);
    const after = await c().request('/api/auth/me', { headers: auth });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'not_authenticated' });
  });

  it('me without credentials answers 401; a malformed or unknown token answers 401', async () => {
    expect((await c().request('/api/auth/me')).status).toBe(401);
    expect((await c().request('/api/auth/me', { headers: { authorization: 'Bearer short' } })).status).toBe(401);
    expect((await c().request('/api/auth/me', { headers: { authorization: `Bearer ${'x'.repeat(43)}` } })).status).toBe(401);
  });

  it('me works with the session cookie of a form login', async () => {
    const client = c();
    await client.form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    const me = await client.request('/api/auth/me');
    expect(await me.json()).toMatchObject({ user: { username: 'bob' } });
  });

  it('a JSON write carrying the session cookie needs the CSRF header', async () => {
    const client = c();
    await client.form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    expect((await client.json('/api/auth/logout', 'POST', {})).status).toBe(403);
    const token = client.cookies.get('portico_csrf') as string;
    expect((await client.json('/api/auth/logout', 'POST', {}, { 'x-csrf-token': token })).status).toBe(204);
    expect((await client.request('/api/auth/me')).status).toBe(401);
  });

  it('unknown user and wrong password answer the same 401', async () => {
    const a = await c().json('/api/auth/login', 'POST', { username: 'alice', password: 'wrong-password' });
    const b = await c().json('/api/auth/login', 'POST', { username: 'nobody-here', password: 'wrong-password' });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(await a.json()).toEqual(await b.json());
  });

  it('malformed requests answer precise 4xx', async () => {
    expect((await c().json('/api/auth/login', 'POST', { username: 'alice' })).status).toBe(400);
    expect((await c().json('/api/auth/login', 'POST', ['alice'])).status).toBe(400);
    const text = await c().request('/api/auth/login', { method: 'POST', body: 'username=alice', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const broken = await c().request('/api/auth/login', { method: 'POST', body: '{"username":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ code: 'malformed_json' });
    const huge = await c().request('/api/auth/login', { method: 'POST', body: JSON.stringify({ username: 'a'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
    expect(huge.status).toBe(413);
  });
});

describe('JSON signup', () => {
  it('creates the account and answers 201 {user, token}', async () => {
    const username = unique('json');
    const res = await c().json('/api/auth/signup', 'POST', { username, email: `${username}@example.com`, password: 'correct horse battery staple' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: Record<string, unknown>; token: string };
    expect(body.user.username).toBe(username);
    const me = await c().request('/api/auth/me', { headers: { authorization: `Bearer ${body.token}` } });
    expect(me.status).toBe(200);
  });

  it('reports every problem with the fields named', async () => {
    const res = await c().json('/api/auth/signup', 'POST', { username: 'Alice', email: 'not-an-email', password: '123' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: { field: string; message: string }[] };
    expect(body.code).toBe('invalid_input');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'username', message: 'a user with this username already exists' },
        { field: 'email', message: 'must be a valid email address' },
        { field: 'password', message: 'must be at least 8 characters' },
        { field: 'password', message: 'must not be entirely numeric' },
      ]),
    );
  });

  it('ignores privileged fields in the body', async () => {
    const username = unique('priv');
    const res = await c().json('/api/auth/signup', 'POST', { username, email: `${username}@example.com`, password: 'correct horse battery staple', is_superuser: true, is_staff: true });
    const body = (await res.json()) as { user: Record<string, unknown> };
    expect([body.user.is_staff, body.user.is_superuser]).toEqual([false, false]);
  });
});
