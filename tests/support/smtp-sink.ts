import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the sink received: its recipients and its raw text (headers, blank line, body). */
export interface Delivered {
  readonly to: string[];
  readonly raw: string;
}

/** A real SMTP server on loopback that keeps what it receives (smtp-server, no TLS, no auth). */
export class SmtpSink {
  readonly delivered: Delivered[] = [];
  private server: SMTPServer | undefined;

  /** A sink for a loopback port nothing listens on yet: `url` is known before `start()`. */
  static async reserve(): Promise<SmtpSink> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return new SmtpSink(port);
  }

  /** A sink listening now. */
  static async started(): Promise<SmtpSink> {
    const sink = await SmtpSink.reserve();
    await sink.start();
    return sink;
  }

  private constructor(readonly port: number) {}

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          this.delivered.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
  }

  /** The messages to `email` whose subject matches. */
  to(email: string, subject: RegExp): Delivered[] {
    return this.delivered.filter((d) => d.to.includes(email) && new RegExp(`^Subject: ${subject.source}`, 'm').test(d.raw));
  }

  /** Waits (bounded by `limitMs`) for the first message to `email` whose subject matches. */
  async waitFor(email: string, subject: RegExp, limitMs = 30_000): Promise<Delivered | undefined> {
    for (let waited = 0; waited < limitMs && this.to(email, subject).length === 0; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    return this.to(email, subject)[0];
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The body of a raw message: what follows the first blank line. */
export const bodyOf = (message: Delivered | undefined): string => message?.raw.split(/\r?\n\r?\n/).slice(1).join('\n\n') ?? '';

/** The bytes of a quoted-printable text (soft line breaks and `=XX` escapes undone). */
export function quotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === '=' ? /^[0-9A-F]{2}/.exec(soft.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] as string));
  }
  return Buffer.from(bytes);
}
