import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelDef, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { callerScope, requireInScope, type RowAccess } from './row-access.js';

/** How a delete is made. */
export interface DeleteOptions extends RowAccess {
  /** Runs inside the transaction before the delete (throws to refuse it). */
  readonly guard?: (tx: RecordStore) => Promise<void>;
  /** The guard reads the row within the caller's row scope already (REST's, with the parent, in one read): no second check. */
  readonly guardChecksScope?: boolean;
  /** Who deletes: the model's row policy applies to them, and hooks and signals see them. */
  readonly caller?: Identity;
}

/**
 * The one delete path of every surface: the model's row policy for the caller (another owner's
 * row is not found), the guard and the delete in one transaction (a soft-delete model gets
 * `deleted_at` stamped); a missing row is `not_found`.
 */
export class DeleteRecord {
  async execute(store: RecordStore, model: ModelDef, id: Value, options: DeleteOptions = {}): Promise<void> {
    const { guard, caller } = options;
    const scope = callerScope(model, caller, options);
    const done = await store.transaction(async (tx) => {
      if (scope && !options.guardChecksScope) await requireInScope(tx, model, id, scope);
      await guard?.(tx);
      return tx.delete(model.table, id, caller ? { caller } : undefined);
    });
    if (!done) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
  }
}
