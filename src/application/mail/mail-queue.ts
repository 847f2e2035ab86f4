import { DomainError } from '../../domain/errors/domain-error.js';
import { mailProblem } from '../../domain/mail/mail-rules.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { MailMessage, Mailer } from '../../ports/mailer.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { TaskClient } from '../tasks/tasks.js';

/** The framework's mail task: one message, sealed in its payload (it may carry a code). */
export const MAIL_TASK = 'portico.send_mail';

/** The payload of a mail job: the message, sealed with the app secret's mail key. */
export interface MailJob {
  readonly sealed: string;
}

/**
 * How Portico sends its own mail (verification codes, and every later framework mail): in the
 * transaction of the request that causes it. With the tasks() plugin mounted the message becomes
 * a job written in that transaction (it exists iff the transaction commits, and is retried with
 * backoff while SMTP is down); the payload is sealed, so no code is stored in clear. Without
 * tasks() it is sent once the transaction commits, and a failure is logged.
 *
 * @example
 * await store.transaction(async (tx) => { await tx.insert('auth_user', row); await mail.send(tx, message); });
 */
export class MailQueue {
  constructor(
    private readonly deps: {
      readonly tasks: () => TaskClient | undefined;
      readonly mailer: Mailer;
      readonly events: EventBus;
      readonly box: SecretBox;
    },
  ) {}

  /** Queues `message` in `tx` (or sends it after `tx` commits when no task queue is mounted); a message that cannot be sent (`mailProblem`) throws here, in the transaction. */
  async send(tx: RecordStore, message: MailMessage): Promise<void> {
    const problem = mailProblem(message);
    if (problem) throw new DomainError('invalid_input', `mail to send: ${problem}`);
    const tasks = this.deps.tasks();
    if (tasks) {
      const job: MailJob = { sealed: this.deps.box.seal(encodeMail(message)) };
      await tasks.enqueueIn(tx, MAIL_TASK, job);
      return;
    }
    await this.deps.events.onCommit(() => this.deps.mailer.send(message));
  }

  /** The mail task's handler: opens the sealed message and sends it (a failure fails the attempt, which is retried). */
  async deliver(job: MailJob): Promise<void> {
    await this.deps.mailer.send(decodeMail(this.deps.box.open(job.sealed)));
  }
}

/** A message as JSON, attachment bytes as base64 (`{"$bytes": …}`). */
function encodeMail(message: MailMessage): string {
  return JSON.stringify(message, (_key, value: unknown) => (value instanceof Uint8Array ? { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } : value));
}

function decodeMail(text: string): MailMessage {
  return JSON.parse(text, (_key, value: unknown) => {
    const bytes = value && typeof value === 'object' ? (value as { $bytes?: unknown }).$bytes : undefined;
    return typeof bytes === 'string' ? new Uint8Array(Buffer.from(bytes, 'base64')) : value;
  }) as MailMessage;
}
