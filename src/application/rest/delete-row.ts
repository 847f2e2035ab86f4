import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';

/** The Delete action (a soft-delete model gets `deleted_at` stamped and leaves every live read). */
export class DeleteRow {
  constructor(private readonly store: RecordStore) {}

  async execute(resource: RestResource, identity: Identity, id: Value, parent?: ParentScope): Promise<void> {
    authorize(resource, identity, 'delete');
    const table = resource.model.table;
    const done = await this.store.transaction(async (tx) => {
      await findScoped(tx, resource, identity, id, parent);
      return tx.delete(table, id);
    });
    if (!done) throw new DomainError('not_found', `${table} ${String(id)} not found`);
  }
}
