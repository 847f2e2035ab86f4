import type { Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';

/** One linked provider account as its owner sees it: never a token. */
export interface LinkedAccount {
  readonly provider: string;
  readonly email: string | null;
  readonly linked_at: Value;
}

/** The provider accounts linked to a user, by provider name (`GET /api/auth/me`). */
export class LinkedAccounts {
  constructor(private readonly store: RecordStore) {}

  async execute(userId: Value): Promise<LinkedAccount[]> {
    const rows = await this.store.find('social_account', { where: { column: 'user_id', op: 'eq', value: userId }, columns: ['provider', 'email', 'created_at'], orderBy: [{ column: 'provider', direction: 'asc' }] });
    return rows.map((r) => ({ provider: String(r.provider), email: typeof r.email === 'string' ? r.email : null, linked_at: r.created_at ?? null }));
  }
}
