import { CODE_LIFETIME_MS, formatCode } from '../../domain/auth/verification-code.js';
import type { Row } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { MailTemplates } from '../../ports/mail-templates.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { MailQueue } from '../mail/mail-queue.js';
import { keyedHash } from './secrets.js';

export interface IssueCodeDeps {
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  /** Portico's mail, queued in the transaction that issues the code. */
  readonly mail: MailQueue;
  readonly templates: MailTemplates;
  /** The app secret keying the stored code hash. */
  readonly secret: string;
}

/** The stored form of a code: keyed by the app secret and bound to its user. */
export function codeHash(secret: string, userId: unknown, code: string): string {
  return keyedHash(secret, `${String(userId)}:${code}`);
}

/**
 * Issues a verification code (SPEC "Verification code"): six CSPRNG digits, valid 15 minutes,
 * one active per user (the previous active code is invalidated in the same transaction), and
 * mails it as an `EmailVerification` message carrying the raw code, queued in that transaction
 * (sealed: only the keyed hash of the code is stored in clear). With `tx`, all of it joins the
 * caller's transaction (a signup's).
 */
export class IssueVerificationCode {
  constructor(private readonly deps: IssueCodeDeps) {}

  async execute(user: Row, tx?: RecordStore): Promise<void> {
    const { store, clock, random, secret } = this.deps;
    const code = formatCode(random.int(1_000_000));
    const now = clock.now();
    const body = this.deps.templates.render('auth/email/verify_code', {
      code,
      username: String(user.username ?? ''),
      minutes: String(CODE_LIFETIME_MS / 60_000),
    });
    await (tx ?? store).transaction(async (t) => {
      await t.updateWhere(
        'auth_email_code',
        {
          all: [
            { column: 'user_id', op: 'eq', value: user.id ?? null },
            { column: 'used_at', op: 'isnull', value: true },
            { column: 'invalidated_at', op: 'isnull', value: true },
          ],
        },
        { invalidated_at: now },
      );
      await t.insert('auth_email_code', {
        user_id: user.id ?? null,
        code_hash: codeHash(secret, user.id, code),
        attempts: 0,
        created_at: now,
        expires_at: new Date(now.getTime() + CODE_LIFETIME_MS),
      });
      await this.deps.mail.send(t, { to: String(user.email), ...body, kind: 'EmailVerification', data: { code } });
    });
  }
}
