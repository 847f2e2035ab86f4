import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createApp, MemoryMailer, sessions, tasks, where, type Row } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { bodyOf, SmtpSink } from '../support/smtp-sink.js';

/**
 * Issue 45 "Mail through the queue": the verification mail is a job written in the signup's
 * transaction. With the SMTP server down the signup answers as usual (201, 303); the mail arrives
 * once the server is up, within the retry window; the stored job does not hold the code (or the
 * address) in clear; a signup that fails leaves nothing behind.
 */
describe('framework mail through the task queue', () => {
  let smtp: SmtpSink;
  let ref: RunningReference;

  beforeAll(async () => {
    smtp = await SmtpSink.reserve(); // down until the test starts it
    ref = await startReference('sqlite', { env: { THROTTLE: 'off', REQUIRE_VERIFIED_EMAIL: '1', SMTP_URL: smtp.url }, realMailer: true });
  });
  afterAll(async () => {
    await ref.close();
    await smtp.close();
  });

  const mailJobs = async () => ref.app.store.find('task_row', { where: where.eq('name', 'portico.send_mail') });

  it('with SMTP down, signups answer 201 and 303; the codes arrive once SMTP is up, and verify', async () => {
    const stamp = Date.now();
    const json = { username: `q${stamp}`, email: `q${stamp}@example.com`, password: 'correct horse battery staple' };
    const res = await fetch(`${ref.url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
    expect(res.status).toBe(201);
    const form = new HttpClient(ref.url);
    const formEmail = `f${stamp}@example.com`;
    expect((await form.form('/auth/signup', { username: `f${stamp}`, email: formEmail, password: 'correct horse battery staple' })).status).toBe(303);
    expect((await ref.app.store.find('auth_user', { where: where.in('email', [json.email, formEmail]) })).length).toBe(2);

    // The stored jobs hold the message sealed: neither the address nor any six-digit code in clear.
    const jobs = await mailJobs();
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const job of jobs) {
      const payload = JSON.stringify(job.payload);
      expect(Object.keys(job.payload as object)).toEqual(['sealed']);
      expect(payload).not.toContain(json.email);
      expect(payload).not.toMatch(/\b\d{6}\b/);
    }

    await smtp.start();
    for (const email of [json.email, formEmail]) {
      // Bounded: 30 s, past the first two retries.
      const message = await smtp.waitFor(email, /Your verification code/);
      expect(message).toBeDefined();
      const code = /\b(\d{6})\b/.exec(bodyOf(message))?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const verified = await fetch(`${ref.url}/api/auth/verify-email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code }) });
      expect(verified.status).toBe(204);
    }
    // Each was delivered once.
    expect(smtp.to(json.email, /Your verification code/)).toHaveLength(1);
  }, 60_000);
});

describe('a signup that fails is rolled back whole', () => {
  it('an afterSignUp that throws leaves no user, no code and no mail job', async () => {
    const mailer = new MemoryMailer();
    const app = createApp({ database: 'sqlite::memory:', autoMigrate: true, logRequests: false, mailer })
      .use(sessions())
      .use(tasks())
      .use(
        auth({
          requireVerifiedEmail: true,
          throttle: false,
          afterSignUp: () => {
            throw new Error('the welcome step failed');
          },
        }),
      );
    const { url } = await app.listen(0);
    try {
      const res = await fetch(`${url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'zed', email: 'zed@example.com', password: 'correct horse battery staple' }) });
      expect(res.status).toBe(500);
      const count = async (table: 'auth_user' | 'auth_email_code' | 'task_row') => (await app.store.find(table)).length;
      expect({ users: await count('auth_user'), codes: await count('auth_email_code'), jobs: await count('task_row') }).toEqual({ users: 0, codes: 0, jobs: 0 });
      expect(mailer.outbox).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('without tasks() the code is mailed once the signup commits', async () => {
    const mailer = new MemoryMailer();
    const app = createApp({ database: 'sqlite::memory:', autoMigrate: true, logRequests: false, mailer }).use(sessions()).use(auth({ requireVerifiedEmail: true, throttle: false }));
    const { url } = await app.listen(0);
    try {
      const res = await fetch(`${url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'amy', email: 'amy@example.com', password: 'correct horse battery staple' }) });
      expect(res.status).toBe(201);
      const mail = await mailer.waitFor((m) => m.to === 'amy@example.com');
      expect(mail.kind).toBe('EmailVerification');
      expect((await app.store.find('task_row')) as Row[]).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
