import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelDef, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';

/**
 * The one delete path of every surface: the guard and the delete in one transaction (a
 * soft-delete model gets `deleted_at` stamped); a missing row is `not_found`.
 */
export class DeleteRecord {
  async execute(store: RecordStore, model: ModelDef, id: Value, guard?: (tx: RecordStore) => Promise<void>, caller?: Identity): Promise<void> {
    const done = await store.transaction(async (tx) => {
      await guard?.(tx);
      return tx.delete(model.table, id, caller ? { caller } : undefined);
    });
    if (!done) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
  }
}
