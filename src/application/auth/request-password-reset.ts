import { RESET_LIFETIME_MS, RESET_TOKEN_BYTES } from '../../domain/auth/password-reset.js';
import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import { textProblem } from '../../domain/model/values.js';
import type { Clock } from '../../ports/clock.js';
import type { MailTemplates } from '../../ports/mail-templates.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { MailQueue } from '../mail/mail-queue.js';
import { endResetLinks } from './revoke-credentials.js';
import { encodeToken, keyedHash } from './secrets.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface RequestPasswordResetDeps {
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly throttle: ThrottleGate;
  readonly mail: MailQueue;
  readonly templates: MailTemplates;
  /** The app secret keying the stored token digest. */
  readonly secret: string;
  /** The page a mailed link opens, the token appended as `?token=` (from the configured public URL, never a request's Host). */
  readonly resetPage: () => string;
  /** The site's name in the mail. */
  readonly site: string;
}

/** The stored form of a reset token: keyed by the app secret. */
export const resetTokenHash = (secret: string, token: string): string => keyedHash(secret, `reset:${token}`);

/**
 * Mails a password reset link to an active account with this address (issue 50): a 256-bit
 * token, stored only as a keyed digest, valid one hour; the user's earlier live tokens end in
 * the same transaction, and the mail is queued in it. An unknown, inactive or over-budget
 * address does nothing, and the caller cannot tell which (the route answers 202 before this runs).
 */
export class RequestPasswordReset {
  constructor(private readonly deps: RequestPasswordResetDeps) {}

  async execute(input: { email: unknown; ip: string }): Promise<void> {
    const { store, clock, random, throttle, secret } = this.deps;
    const email = typeof input.email === 'string' ? input.email.trim() : '';
    if (!email || email.length > 254 || textProblem(email)) return;
    if (!(await throttle.allows(`reset-client:${input.ip}`, AUTH_RATES.resetClient))) return;
    // Per address whatever the client: no one mails an inbox more than the budget.
    if (!(await throttle.allows(`reset:${email.toLowerCase()}`, AUTH_RATES.resetRequest))) return;
    const [user] = await store.find('auth_user', { where: { column: 'email', op: 'iexact', value: email }, limit: 1 });
    if (!user || user.is_active !== true) return;
    const token = encodeToken(random.bytes(RESET_TOKEN_BYTES));
    const now = clock.now();
    const body = this.deps.templates.render('auth/email/password_reset', {
      username: String(user.username ?? ''),
      link: `${this.deps.resetPage()}?token=${token}`,
      minutes: String(RESET_LIFETIME_MS / 60_000),
      site: this.deps.site,
    });
    await store.transaction(async (tx) => {
      await endResetLinks(tx, user.id ?? null, now);
      await tx.insert('auth_password_reset', { user_id: user.id ?? null, token_hash: resetTokenHash(secret, token), created_at: now, expires_at: new Date(now.getTime() + RESET_LIFETIME_MS) });
      // The mail row carries the link (it is the message): a task sends it after the commit.
      await this.deps.mail.send(tx, { to: String(user.email), ...body, kind: 'PasswordReset', data: {} });
    });
  }
}
