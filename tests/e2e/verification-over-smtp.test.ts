import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/** The reference app mails through a real SMTP server on loopback (SMTP_URL); the code is read out of the delivered message. */
describe('verification mail over SMTP', () => {
  const delivered: { to: string[]; raw: string }[] = [];
  let smtp: SMTPServer;
  let ref: RunningReference;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          delivered.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    ref = await startReference('sqlite', { env: { THROTTLE: 'off', REQUIRE_VERIFIED_EMAIL: '1', SMTP_URL: `smtp://127.0.0.1:${port}` }, realMailer: true });
  });
  afterAll(async () => {
    await ref.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('signup delivers a message carrying the code, and that code verifies the address', async () => {
    const c = new HttpClient(ref.url);
    const email = `smtp-${Date.now()}@example.com`;
    expect((await c.json('/api/auth/signup', 'POST', { username: `smtp${Date.now()}`, email, password: 'correct horse battery staple' })).status).toBe(201);
    for (let i = 0; i < 50 && !delivered.some((d) => d.to.includes(email) && /^Subject: Your verification code/m.test(d.raw)); i++) await new Promise((r) => setTimeout(r, 50));
    // The welcome mail (a background task) goes to the same address.
    const message = delivered.find((d) => d.to.includes(email) && /^Subject: Your verification code/m.test(d.raw));
    expect(message).toBeDefined();
    expect(message?.raw).toMatch(/^Subject: Your verification code/m);
    const body = message?.raw.split(/\r?\n\r?\n/).slice(1).join('\n\n') ?? '';
    const code = /\b(\d{6})\b/.exec(body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect((await c.json('/api/auth/verify-email', 'POST', { email, code })).status).toBe(204);
  });
});
