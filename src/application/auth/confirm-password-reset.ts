import { isWellFormedResetToken } from '../../domain/auth/password-reset.js';
import { newPasswordProblems } from '../../domain/auth/password-rules.js';
import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore } from '../../ports/record-store.js';
import { resetTokenHash } from './request-password-reset.js';
import { endResetLinks, revokeCredentials } from './revoke-credentials.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface ConfirmPasswordResetDeps {
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  readonly throttle: ThrottleGate;
  readonly secret: string;
}

/** One refusal for every token that cannot reset a password: malformed, unknown, used, ended or expired. */
const refused = (): DomainError => new DomainError('invalid_code', 'invalid or expired password reset link: ask for a new one');

/**
 * Sets a new password with a mailed reset token (issue 50). The token must be live: unused, not
 * ended (by a newer request, a login or a password change) and under an hour old, for an active
 * account; any other answers the same `invalid_code`. The password follows the signup rules (a
 * weak one is `invalid_input` naming each rule, and the token stays usable). Then, in one
 * transaction: the password is stored (argon2id), the token used, the user's other tokens
 * ended, and every session and bearer token of the user deleted (their streams end, in every
 * process). Spends the client's reset budget (429 when over).
 */
export class ConfirmPasswordReset {
  constructor(private readonly deps: ConfirmPasswordResetDeps) {}

  async execute(input: { token: unknown; password: unknown; ip: string }): Promise<void> {
    const { store, clock, hasher, throttle, secret } = this.deps;
    await throttle.consume(`reset-client:${input.ip}`, AUTH_RATES.resetClient);
    if (!isWellFormedResetToken(input.token)) throw refused();
    const hash = resetTokenHash(secret, input.token);
    const live = async (tx: RecordStore, lock: boolean): Promise<{ reset: Row; user: Row }> => {
      const [reset] = await tx.find('auth_password_reset', { where: { column: 'token_hash', op: 'eq', value: hash }, limit: 1, ...(lock ? { lock: 'update' as const } : {}) });
      if (!reset || reset.used_at !== null || reset.invalidated_at !== null || !(reset.expires_at instanceof Date) || reset.expires_at <= clock.now()) throw refused();
      const user = await tx.getById('auth_user', reset.user_id ?? null);
      // A login since the request ends the link, as a newer request does.
      const loggedInSince = user?.last_login instanceof Date && reset.created_at instanceof Date && user.last_login > reset.created_at;
      if (!user || user.is_active !== true || loggedInSince) throw refused();
      return { reset, user };
    };
    const { user } = await live(store, false);
    const password = typeof input.password === 'string' ? input.password : '';
    const problems = newPasswordProblems(input.password, user);
    if (problems.length > 0) throw new DomainError('invalid_input', `password ${problems.join('; ')}`, problems.map((message) => ({ field: 'password', message })));
    // Hashed before the transaction: argon2 holds no lock.
    const passwordHash = await hasher.hash(password);
    await store.transaction(async (tx) => {
      const { reset } = await live(tx, true);
      const now = clock.now();
      await tx.update('auth_user', user.id ?? null, { password_hash: passwordHash });
      await tx.update('auth_password_reset', reset.id ?? null, { used_at: now });
      await endResetLinks(tx, user.id ?? null, now);
      await revokeCredentials(tx, user.id ?? null);
    });
  }
}
