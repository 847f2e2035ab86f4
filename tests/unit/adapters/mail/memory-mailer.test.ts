import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../../../src/ports/mailer.js';
import { MemoryMailer } from '../../../../src/adapters/mail/memory-mailer.js';
import { ConsoleMailer } from '../../../../src/adapters/mail/console-mailer.js';

const mail = (to: string, code = '000000'): MailMessage => ({ to, subject: 'Your code', text: `Code ${code}`, kind: 'EmailVerification', data: { code } });

describe('MemoryMailer', () => {
  it('keeps sent messages in the outbox, oldest first, until cleared', async () => {
    const mailer = new MemoryMailer();
    await mailer.send(mail('a@example.com'));
    await mailer.send(mail('b@example.com'));

    expect(mailer.outbox.map((m) => m.to)).toEqual(['a@example.com', 'b@example.com']);
    mailer.clear();
    expect(mailer.outbox).toEqual([]);
  });

  it('waitFor resolves with a message already sent', async () => {
    const mailer = new MemoryMailer();
    await mailer.send(mail('a@example.com', '111111'));

    await expect(mailer.waitFor((m) => m.to === 'a@example.com')).resolves.toMatchObject({ data: { code: '111111' } });
  });

  it('waitFor resolves with the first matching message sent after the call', async () => {
    const mailer = new MemoryMailer();
    const waiting = mailer.waitFor((m) => m.to === 'b@example.com');

    await mailer.send(mail('a@example.com'));
    setTimeout(() => {
      void mailer.send(mail('b@example.com', '222222'));
      void mailer.send(mail('b@example.com', '333333'));
    }, 20);

    await expect(waiting).resolves.toMatchObject({ to: 'b@example.com', data: { code: '222222' } });
  });

  it('waitFor rejects when nothing matches in time', async () => {
    const mailer = new MemoryMailer();
    await mailer.send(mail('a@example.com'));

    await expect(mailer.waitFor((m) => m.to === 'z@example.com', 30)).rejects.toThrow(/no matching message within 30 ms/);
  });

  it('waitFor rejects when the predicate throws', async () => {
    const mailer = new MemoryMailer();
    const waiting = mailer.waitFor(() => {
      throw new Error('boom');
    });
    await mailer.send(mail('a@example.com'));

    await expect(waiting).rejects.toThrow('boom');
  });
});

describe('ConsoleMailer', () => {
  it('writes a readable block', async () => {
    const chunks: string[] = [];
    const mailer = new ConsoleMailer({ write: (chunk: string) => chunks.push(chunk) });

    await mailer.send({ to: 'a@example.com', subject: 'Your code', text: 'Code 123456\n', kind: 'EmailVerification' });

    expect(chunks.join('')).toBe('--- mail to a@example.com: Your code ---\nCode 123456\n---\n');
  });
});
