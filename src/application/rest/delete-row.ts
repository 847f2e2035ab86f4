import type { Identity } from '../../domain/auth/identity.js';
import type { Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { DeleteRecord } from '../write/delete-record.js';
import { comparesVersion, type EntityTags, type IfMatch } from './entity-tags.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';

/**
 * The REST Delete action (a soft-delete model gets `deleted_at` stamped and leaves every live
 * read). With `If-Match`, the row is read locked in the deleting transaction and its current tag
 * must be one of those named (else 412 `precondition_failed`, the row kept).
 */
export class DeleteRow {
  private readonly remove = new DeleteRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly tags: EntityTags,
  ) {}

  async execute(resource: RestResource, identity: Identity, id: Value, parent?: ParentScope, ifMatch?: IfMatch): Promise<void> {
    authorize(resource, identity, 'delete');
    const lock = comparesVersion(ifMatch) ? 'update' : undefined;
    await this.remove.execute(this.store, resource.model, id, {
      guard: async (tx) => this.tags.check(resource.model, await findScoped(tx, resource, identity, id, parent, lock), ifMatch),
      guardChecksScope: true,
      caller: identity,
    });
  }
}
