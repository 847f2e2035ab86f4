import type { Identity } from '../../domain/auth/identity.js';
import { passwordProblems } from '../../domain/auth/password-rules.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Value } from '../../domain/model/types.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore } from '../../ports/record-store.js';
import { writeAudit } from './admin-audit.js';

/**
 * The admin's "set password" of a user: the signup password rules (all problems reported
 * together), a fresh argon2id hash from the app's hasher, and a history row naming
 * `password_hash` (never its value). The hash is written by this trusted path only: no form or
 * body can carry `password_hash`.
 */
export class SetUserPassword {
  constructor(
    private readonly store: RecordStore,
    private readonly hasher: PasswordHasher,
  ) {}

  async execute(identity: Identity, userId: Value, password: string, confirmation: string, guard?: (user: Record<string, Value>) => void): Promise<void> {
    const user = await this.store.getById('auth_user', userId);
    if (!user) throw new DomainError('not_found', `auth_user ${String(userId)} not found`);
    guard?.(user);
    const problems = passwordProblems(password, { username: String(user.username ?? ''), email: String(user.email ?? '') });
    if (password !== confirmation) problems.push('the two passwords differ');
    if (problems.length > 0) throw new DomainError('invalid_input', problems.join('; '), problems.map((message) => ({ field: 'password', message })));
    const hash = await this.hasher.hash(password);
    await this.store.transaction(async (tx) => {
      await tx.update('auth_user', userId, { password_hash: hash });
      await writeAudit(tx, identity, 'set_password', 'auth_user', userId, ['password_hash']);
    });
  }
}
