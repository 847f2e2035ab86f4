import type { Identity } from '../../domain/auth/identity.js';
import type { Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';

/** What an audit row records. */
export type AuditAction = 'add' | 'change' | 'delete' | 'restore' | 'set_password';

/** The built-in table of the admin's history (created by the first built-in migration). */
export const AUDIT_TABLE = 'admin_audit_log';

/**
 * Writes one history row on the caller's transaction: who, when, which row, what action, and the
 * NAMES of the changed columns, never their values (so no secret column's value is ever copied).
 */
export async function writeAudit(tx: RecordStore, identity: Identity, action: AuditAction, table: string, id: Value, columns: readonly string[]): Promise<void> {
  await tx.insert(AUDIT_TABLE, {
    user_id: identity.id,
    action,
    table_name: table,
    row_id: id instanceof Date ? id.toISOString() : String(id),
    changes: { columns: [...columns] },
  });
}
