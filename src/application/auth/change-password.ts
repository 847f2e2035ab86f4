import { newPasswordProblems } from '../../domain/auth/password-rules.js';
import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Value } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore } from '../../ports/record-store.js';
import { endResetLinks, revokeCredentials, type KeptCredential } from './revoke-credentials.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface ChangePasswordDeps {
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly hasher: PasswordHasher;
  readonly throttle: ThrottleGate;
}

export interface ChangePasswordInput {
  readonly userId: Value;
  readonly current: unknown;
  readonly next: unknown;
  readonly ip: string;
  /** The credential this request came with: it stays valid. */
  readonly keep: KeptCredential;
}

/**
 * Changes a signed-in user's password (issue 50). The current password must match (a wrong one
 * is 400 naming `current_password` and spends the login throttle of the user, 429 when over);
 * the new one follows the signup rules (400 naming `new_password`). Then, in one transaction: the
 * new hash is stored, the user's reset links end, and every session and bearer token of the user
 * but the caller's own is deleted (their streams end, in every process).
 */
export class ChangePassword {
  constructor(private readonly deps: ChangePasswordDeps) {}

  async execute(input: ChangePasswordInput): Promise<void> {
    const { store, clock, hasher, throttle } = this.deps;
    const user = await store.getById('auth_user', input.userId);
    if (!user || user.is_active !== true) throw new DomainError('not_authenticated', 'not signed in');
    const key = `login:${input.ip}:${String(user.username).toLowerCase()}`;
    await throttle.consume(key, AUTH_RATES.login);
    const current = typeof input.current === 'string' ? input.current : '';
    if (typeof user.password_hash !== 'string' || !(await hasher.verify(user.password_hash, current))) {
      throw new DomainError('invalid_input', 'current_password is not the current password', [{ field: 'current_password', message: 'is not the current password' }]);
    }
    const next = typeof input.next === 'string' ? input.next : '';
    const problems = newPasswordProblems(input.next, user);
    if (problems.length > 0) throw new DomainError('invalid_input', `new_password ${problems.join('; ')}`, problems.map((message) => ({ field: 'new_password', message })));
    const passwordHash = await hasher.hash(next);
    await throttle.reset(key);
    await store.transaction(async (tx) => {
      await tx.update('auth_user', user.id ?? null, { password_hash: passwordHash });
      await endResetLinks(tx, user.id ?? null, clock.now());
      await revokeCredentials(tx, user.id ?? null, input.keep);
    });
  }
}
