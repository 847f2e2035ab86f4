import type { Transporter } from 'nodemailer';
import { mailProblem, safeFileName } from '../../domain/mail/mail-rules.js';
import type { MailMessage, Mailer } from '../../ports/mailer.js';

/**
 * Delivers mail over SMTP with nodemailer.
 *
 * `url` is `smtp://host:port` (plain, upgraded with STARTTLS when the server offers it) or
 * `smtps://host:port` (implicit TLS), optionally with percent-encoded `user:pass@`.
 * Errors never carry the host, the port or the credentials: a refused delivery rejects with
 * `smtp delivery failed (<nodemailer code or 'error'>)`.
 *
 * @example
 * const mailer = new SmtpMailer('smtp://127.0.0.1:1025', 'Portico <noreply@example.com>');
 * await mailer.send({ to: 'a@b.c', subject: 'Hi', text: 'Hello', kind: 'Test' });
 * mailer.close();
 */
export class SmtpMailer implements Mailer {
  private transport?: Promise<Transporter>;
  private readonly options: ReturnType<typeof parseSmtpUrl>;

  constructor(url: string, private readonly from: string) {
    this.options = parseSmtpUrl(url); // a malformed address fails at construction, not at the first mail
  }

  /** nodemailer is loaded with the first message, so apps that never mail never load it. */
  private connect(): Promise<Transporter> {
    return (this.transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ ...this.options, logger: false, debug: false, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
    ));
  }

  async send(message: MailMessage): Promise<void> {
    const problem = mailProblem(message);
    if (problem) throw new Error(`mail refused: ${problem}`);
    const attachments = message.attachments?.map((a) => ({ filename: safeFileName(a.filename), contentType: a.contentType, content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength) }));
    try {
      await (await this.connect()).sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html === undefined ? {} : { html: message.html }),
        ...(attachments && attachments.length > 0 ? { attachments } : {}),
      });
    } catch (err) {
      throw new SmtpDeliveryError(errorCode(err));
    }
  }

  /** Closes the transport (and any open connection); later `send` calls are not supported. */
  close(): void {
    void this.transport?.then((t) => t.close());
  }
}

/** Rejection of {@link SmtpMailer.send}; `code` is nodemailer's error code (for example `EENVELOPE`) or `error`. */
export class SmtpDeliveryError extends Error {
  override readonly name = 'SmtpDeliveryError';

  constructor(readonly code: string) {
    super(`smtp delivery failed (${code})`);
  }
}

interface SmtpConnection {
  host: string;
  port?: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}

/** Parses an `smtp://` / `smtps://` url; the thrown error never repeats the url (it may hold a password). */
function parseSmtpUrl(url: string): SmtpConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('invalid SMTP url: expected smtp://[user:pass@]host[:port] or smtps://...');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new Error(`invalid SMTP url: unsupported scheme ${JSON.stringify(parsed.protocol.replace(/:$/, ''))}, expected smtp or smtps`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new Error('invalid SMTP url: missing host');
  const connection: SmtpConnection = { host, secure: parsed.protocol === 'smtps:' };
  if (parsed.port !== '') connection.port = Number(parsed.port);
  if (parsed.username !== '') {
    connection.auth = { user: safeDecode(parsed.username), pass: safeDecode(parsed.password) };
  }
  return connection;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Only a well-formed code (like `EENVELOPE`) is copied; anything else becomes `error`. */
function errorCode(err: unknown): string {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,31}$/.test(code) ? code : 'error';
}
