import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerOptions } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { renderMailTemplate } from '../../src/adapters/mail/templates.js';

interface RunningServer {
  readonly port: number;
  readonly messages: string[];
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real SMTP server on loopback collecting raw messages; `options` override the defaults. */
async function startServer(options: SMTPServerOptions = {}): Promise<RunningServer> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
    ...options,
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const running: RunningServer = { port, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  cleanups.push(() => running.close());
  return running;
}

function mailerFor(url: string): SmtpMailer {
  const mailer = new SmtpMailer(url, 'Portico <noreply@portico.test>');
  cleanups.push(() => mailer.close());
  return mailer;
}

/** The part of a raw message after its header block. */
function bodyOf(raw: string): string {
  const end = raw.indexOf('\r\n\r\n');
  return end < 0 ? raw : raw.slice(end + 4);
}

describe('SmtpMailer against a real SMTP server', () => {
  it('delivers to, subject and text', async () => {
    const server = await startServer();
    const mailer = mailerFor(`smtp://127.0.0.1:${server.port}`);

    await mailer.send({ to: 'ada@example.com', subject: 'Hello Ada', text: 'A plain body line.', kind: 'Test' });

    expect(server.messages).toHaveLength(1);
    const raw = server.messages[0] ?? '';
    expect(raw).toMatch(/^To: ada@example\.com\r?$/m);
    expect(raw).toMatch(/^From: Portico <noreply@portico\.test>\r?$/m);
    expect(raw).toMatch(/^Subject: Hello Ada\r?$/m);
    expect(raw).toContain('A plain body line.');
  });

  it('carries the raw verification code of the rendered auth/email/verify_code template', async () => {
    const server = await startServer();
    const mailer = mailerFor(`smtp://127.0.0.1:${server.port}`);
    const rendered = renderMailTemplate('auth/email/verify_code', { code: '123456', username: 'ada', minutes: '15' });

    await mailer.send({ to: 'ada@example.com', ...rendered, kind: 'EmailVerification', data: { code: '123456' } });

    const raw = server.messages[0] ?? '';
    expect(raw).toMatch(/^Subject: Your verification code\r?$/m);
    expect(raw).toContain('multipart/alternative');
    const match = /\b(\d{6})\b/.exec(bodyOf(raw));
    expect(match?.[1]).toBe('123456');
    expect(raw).toContain('<strong>123456</strong>');
  });

  it('rejects without naming host or port when the server refuses the recipient', async () => {
    const server = await startServer({
      onRcptTo(_address, _session, callback) {
        callback(new Error('no such mailbox'));
      },
    });
    const mailer = mailerFor(`smtp://127.0.0.1:${server.port}`);

    const error = await mailer.send({ to: 'nobody@example.com', subject: 'x', text: 'x', kind: 'Test' }).then(
      () => undefined,
      (err: unknown) => err,
    );

    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toBe('smtp delivery failed (EENVELOPE)');
    expect(message).not.toContain('127.0.0.1');
    expect(message).not.toContain(String(server.port));
    expect(server.messages).toHaveLength(0);
  });

  it('authenticates with the decoded url credentials and never repeats them when refused', async () => {
    const seen: Array<[string | null | undefined, string | null | undefined]> = [];
    const server = await startServer({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        seen.push([auth.username, auth.password]);
        callback(new Error('invalid credentials'));
      },
    });
    const mailer = mailerFor(`smtp://mailuser:s3cr%40t@127.0.0.1:${server.port}`);

    const error = await mailer.send({ to: 'ada@example.com', subject: 'x', text: 'x', kind: 'Test' }).then(
      () => undefined,
      (err: unknown) => err,
    );

    const text = `${(error as Error).message} ${(error as Error).stack ?? ''} ${JSON.stringify(error)}`;
    expect(seen).toEqual([['mailuser', 's3cr@t']]);
    expect((error as Error).message).toBe('smtp delivery failed (EAUTH)');
    for (const secret of ['mailuser', 's3cr', '127.0.0.1', String(server.port)]) expect(text).not.toContain(secret);
  });

  it('rejects without naming host or port when nothing listens', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);

    const error = await mailer.send({ to: 'ada@example.com', subject: 'x', text: 'x', kind: 'Test' }).then(
      () => undefined,
      (err: unknown) => err,
    );

    expect((error as Error).message).toMatch(/^smtp delivery failed \([A-Za-z0-9_]+\)$/);
    expect((error as Error).message).not.toContain(String(port));
  });

  it('refuses an url of another scheme without echoing it', () => {
    expect(() => new SmtpMailer('http://user:hunter2@example.com', 'a@b.c')).toThrow(/unsupported scheme "http"/);
    expect(() => new SmtpMailer('not a url hunter2', 'a@b.c')).toThrow(/^invalid SMTP url/);
    const thrown = (() => {
      try {
        new SmtpMailer('smtp://u:hunter2@exa mple.com', 'a@b.c');
        return undefined;
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(Error);
    expect(`${String(thrown)} ${JSON.stringify(thrown)}`).not.toContain('hunter2');
  });
});
