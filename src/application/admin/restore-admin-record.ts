import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelDef, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { writeAudit } from './admin-audit.js';
import { adminScope } from './admin-rows.js';

/**
 * The admin's restore of a soft-deleted row: `deleted_at` cleared (save signals fire) and a
 * history row, in one transaction. For a caller who is not a superuser, a row out of the model's
 * row policy is `not_found`, as a missing one.
 */
export class RestoreAdminRecord {
  constructor(private readonly store: RecordStore) {}

  async execute(model: ModelDef, identity: Identity, id: Value): Promise<void> {
    await this.store.transaction(async (tx) => {
      const scope = adminScope(model, identity);
      const reached = !scope || (await tx.find(model.table, { where: { all: [{ column: model.primaryKey, op: 'eq', value: id }, scope] }, limit: 1, withDeleted: true, columns: [model.primaryKey] })).length > 0;
      const row = reached ? await tx.restore(model.table, id) : null;
      if (!row) throw new DomainError('not_found', `${model.table} ${String(id)} is not a deleted row`);
      await writeAudit(tx, identity, 'restore', model.table, id, ['deleted_at']);
    });
  }
}
