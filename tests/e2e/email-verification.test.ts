import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { ManualClock } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${seq++}`;

function verification(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off', REQUIRE_VERIFIED_EMAIL: '1' }, clock });
  });
  afterAll(async () => ref.close());

  const c = () => new HttpClient(ref.url);
  const codeFor = async (email: string, after = 0): Promise<string> => {
    // The welcome mail (a background task) goes to the same address: wait for the code's mail.
    const mail = await ref.mailer.waitFor((m: MailMessage) => m.kind === 'EmailVerification' && m.to === email && ref.mailer.outbox.indexOf(m) >= after);
    expect(mail.kind).toBe('EmailVerification');
    expect(mail.data?.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain(mail.data?.code);
    return mail.data?.code as string;
  };
  const signUp = async () => {
    const username = unique('v');
    const email = `${username}@example.com`;
    const res = await c().json('/api/auth/signup', 'POST', { username, email, password: 'correct horse battery staple' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: Record<string, unknown>; token?: string };
    expect(body.token).toBeUndefined();
    expect(body.user).toMatchObject({ username, email, email_verified_at: null });
    expect(body.user).not.toHaveProperty('password_hash');
    return { username, email, password: 'correct horse battery staple', code: await codeFor(email) };
  };
  const verify = (email: string, code: string) => c().json('/api/auth/verify-email', 'POST', { email, code });
  const resend = (email: string) => c().json('/api/auth/resend-verification', 'POST', { email });
  const login = (username: string, password: string) => c().json('/api/auth/login', 'POST', { username, password });
  const invalidBody = { type: 'urn:portico:error:invalid_code', title: 'Bad Request', status: 400, detail: 'invalid or expired code', code: 'invalid_code' };
  const expectInvalid = async (res: Response) => {
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(invalidBody);
  };

  it('signup issues a 6-digit code by mail, and login is refused with 403 until it is used', async () => {
    const u = await signUp();
    const res = await login(u.username, u.password);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'email_unverified' });
    const [row] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: u.username } });
    expect(row?.email_verified_at).toBeNull();
  });

  it('the form login of an unverified account goes back with a flash and signs nobody in', async () => {
    const u = await signUp();
    const client = c();
    const res = await client.form('/auth/login', { username: u.username, password: u.password });
    expect(res.status).toBe(303);
    const home = await client.home();
    expect(home.flash).toEqual(['Please verify your email address before logging in.']);
    expect(home.who).toBe('You are not signed in.');
  });

  it('a wrong password on an unverified account looks like any other failure', async () => {
    const u = await signUp();
    const wrong = await login(u.username, 'not the password');
    const unknown = await login(unique('ghost'), 'not the password');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('the right code answers 204 with no body, sets email_verified_at, and login then works', async () => {
    const u = await signUp();
    const res = await verify(u.email, u.code);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const [row] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: u.username } });
    expect(row?.email_verified_at).toBeInstanceOf(Date);
    expect((await login(u.username, u.password)).status).toBe(200);
  });

  it('a used code answers 400 with the same body', async () => {
    const u = await signUp();
    expect((await verify(u.email, u.code)).status).toBe(204);
    await expectInvalid(await verify(u.email, u.code));
  });

  it('a wrong code answers 400 and counts an attempt; the fifth wrong guess burns the code', async () => {
    const u = await signUp();
    const wrong = u.code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) await expectInvalid(await verify(u.email, wrong));
    const [code] = await ref.app.store.find('auth_email_code', { orderBy: [{ column: 'id', direction: 'desc' }], limit: 1 });
    expect(code?.attempts).toBe(4);
    await expectInvalid(await verify(u.email, wrong));
    await expectInvalid(await verify(u.email, u.code));
    expect((await login(u.username, u.password)).status).toBe(403);
  });

  it('after a burned code, resend issues a new one that works', async () => {
    const u = await signUp();
    for (let i = 0; i < 5; i++) await verify(u.email, u.code === '000000' ? '111111' : '000000');
    const before = ref.mailer.outbox.length;
    expect((await resend(u.email)).status).toBe(202);
    const fresh = await codeFor(u.email, before);
    expect((await verify(u.email, fresh)).status).toBe(204);
  });

  it('resend invalidates the previous code', async () => {
    const u = await signUp();
    const before = ref.mailer.outbox.length;
    await resend(u.email);
    const fresh = await codeFor(u.email, before);
    if (fresh !== u.code) await expectInvalid(await verify(u.email, u.code));
    expect((await verify(u.email, fresh)).status).toBe(204);
  });

  it('a code expires after 15 minutes', async () => {
    const u = await signUp();
    clock.advance(15 * 60 * 1000 + 1000);
    await expectInvalid(await verify(u.email, u.code));
  });

  it('a code of another user, malformed codes and unknown addresses answer the same 400', async () => {
    const a = await signUp();
    const b = await signUp();
    if (a.code !== b.code) await expectInvalid(await verify(a.email, b.code));
    for (const code of ['12345', '1234567', 'abcdef', '', 123456]) await expectInvalid(await verify(a.email, code as string));
    await expectInvalid(await verify('nobody@example.com', a.code));
    await expectInvalid(await c().json('/api/auth/verify-email', 'POST', {}));
  });

  it('resend answers 202 with one body whether or not the address has an account, and mails only unverified accounts', async () => {
    const u = await signUp();
    const before = ref.mailer.outbox.length;
    const answers = await Promise.all([resend(u.email), resend('nobody-at-all@example.com'), resend('alice@example.com'), resend('')]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    expect(new Set(bodies).size).toBe(1);
    await codeFor(u.email, before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ref.mailer.outbox.slice(before).filter((m) => m.kind === 'EmailVerification').map((m) => m.to)).toEqual([u.email]);
  });

  it('two concurrent correct verifies succeed exactly once', async () => {
    const u = await signUp();
    const results = await Promise.all(Array.from({ length: 6 }, () => verify(u.email, u.code)));
    expect(results.map((r) => r.status).sort()).toEqual([204, 400, 400, 400, 400, 400]);
  });

  it('codes are stored only as keyed hashes', async () => {
    const u = await signUp();
    const rows = await ref.app.store.find('auth_email_code');
    expect(rows.some((r) => String(r.code_hash).includes(u.code))).toBe(false);
  });
}

describe('email verification with enforcement on: SQLite', () => verification('sqlite'));
describe.skipIf(!pg)('email verification with enforcement on: PostgreSQL', () => verification('postgresql'));

describe('email verification with enforcement off (the default)', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  it('signup signs in at once, no code is sent, and the verification routes still work', async () => {
    const c = new HttpClient(ref.url);
    const username = unique('off');
    const email = `${username}@example.com`;
    const res = await c.json('/api/auth/signup', 'POST', { username, email, password: 'correct horse battery staple' });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { token?: string }).token).toMatch(/^[\w-]{40,}$/);
    expect(ref.mailer.outbox.filter((m) => m.kind === 'EmailVerification')).toHaveLength(0);
    expect((await c.json('/api/auth/login', 'POST', { username, password: 'correct horse battery staple' })).status).toBe(200);
    expect((await c.json('/api/auth/resend-verification', 'POST', { email })).status).toBe(202);
    const mail = await ref.mailer.waitFor((m) => m.kind === 'EmailVerification' && m.to === email);
    expect((await c.json('/api/auth/verify-email', 'POST', { email, code: mail.data?.code })).status).toBe(204);
    const [row] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: username } });
    expect(row?.email_verified_at).toBeInstanceOf(Date);
  });
});
