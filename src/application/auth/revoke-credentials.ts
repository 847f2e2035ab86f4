import type { Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';

/** The credentials a revocation leaves standing: the caller's own session (its row key) and bearer token (its hash). */
export interface KeptCredential {
  readonly session?: Value;
  readonly tokenHash?: string;
}

/**
 * Ends every session and bearer token of `userId` on `tx` but the one `keep` names. Each row is
 * deleted through the store, so its `post_delete` reaches the token caches and the streams of
 * every process (`CredentialWatch`) once `tx` commits. Returns how many were ended.
 */
export async function revokeCredentials(tx: RecordStore, userId: Value, keep: KeptCredential = {}): Promise<number> {
  let ended = 0;
  for (const table of ['session', 'auth_token'] as const) {
    const rows = await tx.find(table, { where: { column: 'user_id', op: 'eq', value: userId } });
    const kept = (row: (typeof rows)[number]) => (table === 'session' ? keep.session !== undefined && row.id === keep.session : keep.tokenHash !== undefined && row.token_hash === keep.tokenHash);
    for (const row of rows) if (!kept(row) && (await tx.delete(table, row.id ?? null))) ended++;
  }
  return ended;
}

/** Ends the user's live password reset links on `tx` (a newer request, a reset, a password change). */
export async function endResetLinks(tx: RecordStore, userId: Value, now: Date): Promise<void> {
  await tx.updateWhere(
    'auth_password_reset',
    { all: [{ column: 'user_id', op: 'eq', value: userId }, { column: 'used_at', op: 'isnull', value: true }, { column: 'invalidated_at', op: 'isnull', value: true }] },
    { invalidated_at: now },
  );
}

/** Deletes the reset links that can no longer be used (expired, used or ended), `batch` at a time; returns how many (`portico clearsessions`). */
export async function purgeEndedResetLinks(store: RecordStore, now: Date, batch = 500): Promise<number> {
  const ended = { any: [{ column: 'expires_at', op: 'lte', value: now }, { column: 'used_at', op: 'isnull', value: false }, { column: 'invalidated_at', op: 'isnull', value: false }] } as const;
  let removed = 0;
  for (;;) {
    const rows = await store.find('auth_password_reset', { where: ended, limit: batch, columns: ['id'] });
    for (const row of rows) if (await store.delete('auth_password_reset', row.id ?? null)) removed++;
    if (rows.length < batch) return removed;
  }
}
