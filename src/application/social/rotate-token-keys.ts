import { tokenContext } from '../../domain/auth/social-login.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { TokenCipher } from '../../ports/token-cipher.js';

/**
 * Re-seals every stored provider token with the current (first) key (`portico rotate-keys`), a
 * row per transaction, `batch` rows read at a time; a token already under the current key is
 * left alone, so a second run does nothing. Returns how many rows were re-sealed. Old keys can
 * be dropped from the key set once it has run.
 */
export class RotateTokenKeys {
  constructor(
    private readonly store: RecordStore,
    private readonly cipher: TokenCipher,
  ) {}

  async execute(batch = 200): Promise<{ resealed: number; accounts: number }> {
    const { store, cipher } = this;
    let resealed = 0;
    let accounts = 0;
    let after: unknown = null;
    for (;;) {
      const rows = await store.find('social_account', {
        ...(after === null ? {} : { where: { column: 'id', op: 'gt', value: after as number } }),
        orderBy: [{ column: 'id', direction: 'asc' }],
        limit: batch,
      });
      for (const row of rows) {
        accounts++;
        const stale = (['access_token', 'refresh_token'] as const).filter((c) => typeof row[c] === 'string' && !cipher.isCurrent(row[c] as string));
        if (stale.length === 0) continue;
        const changes: Record<string, string> = {};
        for (const column of stale) {
          const context = tokenContext(String(row.provider), row.user_id ?? null, column === 'access_token' ? 'access' : 'refresh');
          changes[column] = cipher.seal(cipher.open(row[column] as string, context), context);
        }
        await store.update('social_account', row.id ?? null, changes);
        resealed++;
      }
      if (rows.length < batch) return { resealed, accounts };
      after = rows[rows.length - 1]?.id ?? null;
    }
  }
}
