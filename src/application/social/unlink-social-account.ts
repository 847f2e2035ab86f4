import { DomainError } from '../../domain/errors/domain-error.js';
import type { Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { socialRefusal } from './social-providers.js';

/**
 * Removes a user's linked provider account (its sealed tokens with it). Refused when it is the
 * user's only way to sign in (no password and no other linked account): set a password first.
 */
export class UnlinkSocialAccount {
  constructor(private readonly store: RecordStore) {}

  async execute(input: { userId: Value; provider: string }): Promise<void> {
    await this.store.transaction(async (tx) => {
      const [user] = await tx.find('auth_user', { where: { column: 'id', op: 'eq', value: input.userId }, limit: 1, lock: 'update' });
      if (!user) throw new DomainError('not_authenticated', 'not signed in');
      const accounts = await tx.find('social_account', { where: { column: 'user_id', op: 'eq', value: input.userId } });
      const account = accounts.find((a) => a.provider === input.provider);
      if (!account) throw socialRefusal(`No ${input.provider} account is linked to yours.`);
      if (typeof user.password_hash !== 'string' && accounts.length === 1) throw socialRefusal(`${input.provider} is your only way to sign in: set a password (reset it by email) before unlinking it.`);
      await tx.delete('social_account', account.id ?? null);
    });
  }
}
