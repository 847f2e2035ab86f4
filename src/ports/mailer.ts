/** A file sent with a message: its name (sanitised when sent), content type and bytes. */
export interface MailAttachment {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Uint8Array;
}

/**
 * One outgoing message. `kind` names the event (for example `EmailVerification`); `data` carries
 * its values (for example the raw `code`). Attachments: at most 10, 10 MB each and 20 MB in all;
 * a recipient or subject holding a line break is refused (`mailProblem`).
 */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  readonly kind: string;
  readonly data?: Readonly<Record<string, string>>;
  readonly attachments?: readonly MailAttachment[];
}

/**
 * Sends mail (SMTP in production, an in-memory outbox in tests, the console in development).
 *
 * @example
 * await mailer.send({ to: 'a@b.c', subject: 'Your code', text: '123456', kind: 'EmailVerification', data: { code: '123456' } });
 */
export interface Mailer {
  /** Delivers `message`; rejects when the transport refuses it. */
  send(message: MailMessage): Promise<void>;
}
