import { safeFileName } from '../../domain/mail/mail-rules.js';
import type { MailMessage, Mailer } from '../../ports/mailer.js';

/** Where {@link ConsoleMailer} writes; `process.stdout` fits. */
export interface MailSink {
  write(chunk: string): unknown;
}

/**
 * Writes each message as a readable block instead of sending it. For development only: the
 * block carries the whole text, verification codes included.
 *
 * @example
 * new ConsoleMailer().send({ to: 'a@b.c', subject: 'Your code', text: '123456', kind: 'EmailVerification' });
 * // --- mail to a@b.c: Your code ---
 * // 123456
 * // ---
 */
export class ConsoleMailer implements Mailer {
  constructor(private readonly out: MailSink = process.stdout) {}

  async send(message: MailMessage): Promise<void> {
    const files = (message.attachments ?? []).map((a) => `[attachment ${safeFileName(a.filename)}, ${a.contentType}, ${a.content.byteLength} bytes]\n`).join('');
    this.out.write(`--- mail to ${message.to}: ${message.subject} ---\n${message.text.replace(/\n+$/, '')}\n${files}---\n`);
  }
}
