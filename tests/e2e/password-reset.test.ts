import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { RealtimeSocket } from '../support/realtime-clients.js';
import { ManualClock } from '../support/open-test-database.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { quotedPrintable, SmtpSink, type Delivered } from '../support/smtp-sink.js';

/**
 * Issue 50, "password reset" (REFERENCE-APP "Identity"), on SQLite and PostgreSQL, the mail
 * through a real SMTP server on loopback: 202 with one body for any address, a single-use token
 * of an hour mailed as `<PUBLIC_URL>/reset-password?token=…` whatever the request's Host, the
 * signup rules for the new password (a weak one leaves the token usable), and every session and
 * bearer token of the user revoked, in a second app on the same database too.
 */
const pg = await postgresAvailable();
const PUBLIC_URL = 'https://public.example';
const SUBJECT = /Reset your Portico password/;

/** A raw message with its quoted-printable parts undone. */
const decoded = (message: Delivered | undefined): string => quotedPrintable(message?.raw ?? '').toString();

describe.each<'sqlite' | 'postgresql'>(['sqlite', ...(pg ? (['postgresql'] as const) : [])])('password reset on %s', (backend) => {
  let smtp: SmtpSink;
  let ref: RunningReference;
  const clock = new ManualClock(new Date());
  let n = 0;
  const schema = backend === 'postgresql' ? freshPgSchema() : undefined;

  beforeAll(async () => {
    smtp = await SmtpSink.started();
    ref = await startReference(backend, { ...(schema ? { database: schema.url } : {}), env: { THROTTLE: 'off', SMTP_URL: smtp.url, PUBLIC_URL }, realMailer: true, clock });
  }, 60_000);
  afterAll(async () => {
    await ref?.close();
    await smtp?.close();
    await schema?.drop();
  });

  /** A fresh verified user: its address, password, and a way to log in. */
  async function newUser(): Promise<{ username: string; email: string; password: string }> {
    const username = `reset${Date.now()}${n++}`;
    const email = `${username}@example.com`;
    const password = 'correct horse battery staple';
    const res = await new HttpClient(ref.url).json('/api/auth/signup', 'POST', { username, email, password });
    expect(res.status).toBe(201);
    return { username, email, password };
  }
  const login = async (username: string, password: string) => new HttpClient(ref.url).json('/api/auth/login', 'POST', { username, password });

  /** The token of the link in the next reset mail to `email` after `before` of them. */
  async function mailedToken(email: string, before: number): Promise<string> {
    for (let waited = 0; smtp.to(email, SUBJECT).length === before && waited < 30_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const body = decoded(smtp.to(email, SUBJECT)[before]);
    const link = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}/reset-password\\?token=([A-Za-z0-9_-]+)`).exec(body);
    expect(body).not.toContain('evil.example');
    expect(link?.[1]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return link?.[1] as string;
  }

  /** Asks for a reset of `email` (with a forged Host) and returns the token of the link mailed. */
  async function requestToken(email: string): Promise<string> {
    const before = smtp.to(email, SUBJECT).length;
    const res = await fetch(`${ref.url}/api/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json', host: 'evil.example', 'x-forwarded-host': 'evil.example' }, body: JSON.stringify({ email }) });
    expect(res.status).toBe(202);
    return mailedToken(email, before);
  }
  const confirm = (token: unknown, password: unknown) => new HttpClient(ref.url).json('/api/auth/password-reset/confirm', 'POST', { token, password });

  it('answers 202 with the same body for a known and an unknown address, and mails only the known one', async () => {
    const { email } = await newUser();
    const known = await fetch(`${ref.url}/api/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    const unknown = await fetch(`${ref.url}/api/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: `nobody-${email}` }) });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(await known.text()).toBe(await unknown.text());
    expect(await smtp.waitFor(email, SUBJECT)).toBeDefined();
    expect(smtp.to(`nobody-${email}`, SUBJECT)).toEqual([]);
    // The stored row holds a digest, never the token; the queued mail is sealed.
    const token = await requestToken(email);
    const rows = await ref.app.store.find('auth_password_reset');
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(await ref.app.store.find('task_row'))).not.toContain(token);
  });

  it('a weak password answers 400 naming the rule and leaves the token usable; the token then works once', async () => {
    const { username, email, password } = await newUser();
    const token = await requestToken(email);
    const weak = await confirm(token, '12345678');
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({ code: 'invalid_input', errors: expect.arrayContaining([{ field: 'password', message: 'must not be entirely numeric' }]) });
    expect((await confirm(token, 'a much better passphrase')).status).toBe(204);
    expect((await login(username, password)).status).toBe(401);
    expect((await login(username, 'a much better passphrase')).status).toBe(200);
    const again = await confirm(token, 'yet another passphrase');
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: 'invalid_code' });
  });

  it('revokes every session and bearer token of the user, in a second app on the same database too', async () => {
    const { username, email, password } = await newUser();
    const { token: bearer } = (await (await login(username, password)).json()) as { token: string };
    const browser = new HttpClient(ref.url);
    expect((await browser.form('/auth/login', { username, password })).status).toBe(303);
    const me = (headers: Record<string, string>, url = ref.url) => fetch(`${url}/api/auth/me`, { headers });
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // Its worker may claim the reset mail's job: it mails through the same SMTP server, as a second process would.
    const second = schema ? await startReference('postgresql', { database: schema.url, env: { THROTTLE: 'off', SMTP_URL: smtp.url, PUBLIC_URL }, realMailer: true }) : undefined;
    try {
      expect((await me({ authorization: `Bearer ${bearer}` })).status).toBe(200);
      expect((await me({ cookie })).status).toBe(200);
      // The second process caches the token it resolved (5 s): the revocation must reach it over the bus.
      if (second) expect((await me({ authorization: `Bearer ${bearer}` }, second.url)).status).toBe(200);
      expect((await confirm(await requestToken(email), 'a brand new passphrase')).status).toBe(204);
      expect((await me({ authorization: `Bearer ${bearer}` })).status).toBe(401);
      expect((await me({ cookie })).status).toBe(401);
      if (second) {
        let status = 200;
        for (let waited = 0; status === 200 && waited < 10_000; waited += 50) {
          status = (await me({ authorization: `Bearer ${bearer}` }, second.url)).status;
          if (status === 200) await new Promise((r) => setTimeout(r, 50));
        }
        expect(status).toBe(401);
      }
    } finally {
      await second?.close();
    }
  });

  it('ends the user\'s open realtime stream when the password is reset', async () => {
    const { username, email, password } = await newUser();
    const { token: bearer } = (await (await login(username, password)).json()) as { token: string };
    const ws = await RealtimeSocket.open(`${ref.url.replace('http://', 'ws://')}/realtime/ws`, { authorization: `Bearer ${bearer}` });
    expect(await ws.subscribe('chat/1')).toEqual({ type: 'subscribed', channel: 'chat/1' });
    expect((await confirm(await requestToken(email), 'a reset ends the stream')).status).toBe(204);
    expect(await Promise.race([ws.closed, new Promise((r) => setTimeout(() => r('still open after 10 s'), 10_000))])).toEqual({ code: 1008, reason: 'credential revoked' });
  });

  it('refuses a malformed, unknown, used, superseded, expired or logged-in-since token with one body', async () => {
    const { username, email, password } = await newUser();
    const first = await requestToken(email);
    const second = await requestToken(email);
    const answers = [
      await confirm('', 'a fine new passphrase'),
      await confirm('x'.repeat(43), 'a fine new passphrase'),
      await confirm(`${second.slice(0, 42)}\u0000`, 'a fine new passphrase'),
      await confirm(12, 'a fine new passphrase'),
      await confirm('A'.repeat(10_000), 'a fine new passphrase'),
      await confirm('x'.repeat(43), 'p'.repeat(10_000)),
      await confirm(first, 'a fine new passphrase'), // superseded by the second request
    ];
    // A login since the request ends the link.
    clock.advance(1000);
    expect((await login(username, password)).status).toBe(200);
    answers.push(await confirm(second, 'a fine new passphrase'));
    // An hour later the link has expired.
    const third = await requestToken(email);
    clock.advance(60 * 60 * 1000 + 1000);
    answers.push(await confirm(third, 'a fine new passphrase'));
    const bodies = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.json() })));
    for (const { status, body } of bodies) {
      expect(status).toBe(400);
      expect(body).toEqual(bodies[0]?.body);
    }
    expect(bodies[0]?.body).toMatchObject({ code: 'invalid_code' });
    // None of them changed the password.
    expect((await login(username, password)).status).toBe(200);
  });

  it('has form twins that answer 303 with a flash, and a reset page that sends no referrer and is not cached', async () => {
    const { username, email } = await newUser();
    const browser = new HttpClient(ref.url);
    const csrf = await browser.csrf('/forgot-password');
    const before = smtp.to(email, SUBJECT).length;
    const asked = await browser.form('/auth/password-reset?redirect=/login', { email }, { csrf });
    expect(asked.status).toBe(303);
    expect(asked.headers.get('location')).toBe('/login');
    const token = await mailedToken(email, before);
    // The link moves its token out of the address (a cookie) before the form page is shown.
    const link = await browser.request(`/reset-password?token=${token}`);
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/reset-password');
    expect(link.headers.get('referrer-policy')).toBe('no-referrer');
    expect(link.headers.get('cache-control')).toBe('no-store');
    const page = await browser.request('/reset-password');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain(`name="token" value="${token}"`);
    const pageCsrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const weak = await browser.form('/auth/password-reset/confirm?redirect=/login', { token, password: 'password' }, { csrf: pageCsrf });
    expect(weak.status).toBe(303);
    expect(weak.headers.get('location')).toBe(`/reset-password?token=${token}`);
    const done = await browser.form('/auth/password-reset/confirm?redirect=/login', { token, password: 'form chosen passphrase' }, { csrf: pageCsrf });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/login');
    expect((await browser.home()).flash.join(' ')).toMatch(/Your password was changed/);
    expect((await login(username, 'form chosen passphrase')).status).toBe(200);
  });

  it('change-password keeps the caller\'s credential and revokes the others; a wrong current password is 400', async () => {
    const { username, email, password } = await newUser();
    const tokenOf = async (pw: string) => ((await (await login(username, pw)).json()) as { token: string }).token;
    const [mine, other] = [await tokenOf(password), await tokenOf(password)];
    const browser = new HttpClient(ref.url);
    expect((await browser.form('/auth/login', { username, password })).status).toBe(303);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const resetLink = await requestToken(email);
    const change = (headers: Record<string, string>, body: unknown) => fetch(`${ref.url}/api/auth/change-password`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const me = (headers: Record<string, string>) => fetch(`${ref.url}/api/auth/me`, { headers }).then((r) => r.status);

    expect((await change({}, { current_password: password, new_password: 'x' })).status).toBe(401);
    const wrong = await change({ authorization: `Bearer ${mine}` }, { current_password: 'not it at all', new_password: 'a changed passphrase' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: 'invalid_input', errors: [{ field: 'current_password', message: 'is not the current password' }] });
    const weak = await change({ authorization: `Bearer ${mine}` }, { current_password: password, new_password: '11111111' });
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({ errors: expect.arrayContaining([{ field: 'new_password', message: 'must not be entirely numeric' }]) });

    expect((await change({ authorization: `Bearer ${mine}` }, { current_password: password, new_password: 'a changed passphrase' })).status).toBe(204);
    expect(await me({ authorization: `Bearer ${mine}` })).toBe(200);
    expect(await me({ authorization: `Bearer ${other}` })).toBe(401);
    expect(await me({ cookie })).toBe(401);
    expect((await login(username, 'a changed passphrase')).status).toBe(200);
    // A change ends the reset links of the user.
    expect((await confirm(resetLink, 'a passphrase by link')).status).toBe(400);

    // From a session (with its CSRF token), the session stays and the bearer tokens end.
    const again = new HttpClient(ref.url);
    expect((await again.form('/auth/login', { username, password: 'a changed passphrase' })).status).toBe(303);
    const sessionCookie = [...again.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = again.cookies.get('portico_csrf') ?? '';
    expect((await change({ cookie: sessionCookie }, { current_password: 'a changed passphrase', new_password: 'the third passphrase' })).status).toBe(403);
    expect((await change({ cookie: sessionCookie, 'x-csrf-token': csrf }, { current_password: 'a changed passphrase', new_password: 'the third passphrase' })).status).toBe(204);
    expect(await me({ cookie: sessionCookie })).toBe(200);
    expect(await me({ authorization: `Bearer ${mine}` })).toBe(401);
  });

  it('a wrong current password spends the login throttle (429 after five); reset mails to an address are capped', async () => {
    const throttled = await startReference(backend, { env: {} });
    try {
      const c = new HttpClient(throttled.url);
      const username = `throttled${Date.now()}`;
      expect((await c.json('/api/auth/signup', 'POST', { username, email: `${username}@example.com`, password: 'correct horse battery staple' })).status).toBe(201);
      const { token } = (await (await c.json('/api/auth/login', 'POST', { username, password: 'correct horse battery staple' })).json()) as { token: string };
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await c.json('/api/auth/change-password', 'POST', { current_password: `wrong ${i}`, new_password: 'whatever passphrase' }, { authorization: `Bearer ${token}` })).status);
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      // Reset requests for one address: five mails an hour, whatever the client; the answer never changes.
      const email = `${username}@example.com`;
      const answers: number[] = [];
      for (let i = 0; i < 7; i++) answers.push((await fetch(`${throttled.url}/api/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` }, body: JSON.stringify({ email }) })).status);
      expect(answers).toEqual([202, 202, 202, 202, 202, 202, 202]);
      const resets = () => throttled.mailer.outbox.filter((m) => m.to === email && SUBJECT.test(m.subject)).length;
      for (let waited = 0; resets() < 5 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      // A sixth mail would come from the same burst of background work: give it time to show.
      await new Promise((r) => setTimeout(r, 300));
      expect(resets()).toBe(5);
    } finally {
      await throttled.close();
    }
  });
});
