import type { Identity } from '../../domain/auth/identity.js';
import type { Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { DeleteRecord } from '../write/delete-record.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';

/** The REST Delete action (a soft-delete model gets `deleted_at` stamped and leaves every live read). */
export class DeleteRow {
  private readonly remove = new DeleteRecord();

  constructor(private readonly store: RecordStore) {}

  async execute(resource: RestResource, identity: Identity, id: Value, parent?: ParentScope): Promise<void> {
    authorize(resource, identity, 'delete');
    await this.remove.execute(this.store, resource.model, id, async (tx) => void (await findScoped(tx, resource, identity, id, parent)), identity);
  }
}
