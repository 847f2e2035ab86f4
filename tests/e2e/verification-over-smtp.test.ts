import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { bodyOf, SmtpSink } from '../support/smtp-sink.js';

/** The reference app mails through a real SMTP server on loopback (SMTP_URL); the code is read out of the delivered message. */
describe('verification mail over SMTP', () => {
  let smtp: SmtpSink;
  let ref: RunningReference;

  beforeAll(async () => {
    smtp = await SmtpSink.started();
    ref = await startReference('sqlite', { env: { THROTTLE: 'off', REQUIRE_VERIFIED_EMAIL: '1', SMTP_URL: smtp.url }, realMailer: true });
  });
  afterAll(async () => {
    await ref.close();
    await smtp.close();
  });

  it('signup delivers a message carrying the code, and that code verifies the address', async () => {
    const c = new HttpClient(ref.url);
    const email = `smtp-${Date.now()}@example.com`;
    expect((await c.json('/api/auth/signup', 'POST', { username: `smtp${Date.now()}`, email, password: 'correct horse battery staple' })).status).toBe(201);
    // The welcome mail (a background task) goes to the same address.
    const message = await smtp.waitFor(email, /Your verification code/);
    expect(message).toBeDefined();
    const code = /\b(\d{6})\b/.exec(bodyOf(message))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await c.json('/api/auth/verify-email', 'POST', { email, code })).status).toBe(204);
  });
});
