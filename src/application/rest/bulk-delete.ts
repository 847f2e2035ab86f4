import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf } from '../../domain/model/model-registry.js';
import type { Value } from '../../domain/model/types.js';
import { normalizeValue } from '../../domain/model/values.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { atIndex, checkBatch } from './bulk-writes.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';
import { DeleteRecord } from '../write/delete-record.js';

/**
 * Bulk delete (SPEC "Bulk endpoints"): body `{ids: [...]}`, one transaction; an unknown or
 * out-of-scope id rolls everything back (404 naming its index); soft-delete models get
 * `deleted_at` stamped. Every id goes through the shared delete path (`DeleteRecord`) in the one transaction.
 */
export class BulkDelete {
  private readonly remove = new DeleteRecord();

  constructor(private readonly store: RecordStore) {}

  async execute(resource: RestResource, identity: Identity, body: unknown, parent?: ParentScope): Promise<void> {
    authorize(resource, identity, 'delete');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('invalid_input', 'the body must be {"ids": [...]}');
    const model = resource.model;
    const pkCol = columnOf(model, model.primaryKey);
    const ids: Value[] = checkBatch((body as Record<string, unknown>).ids, 'ids').map((raw, i) => {
      const id = pkCol ? normalizeValue(pkCol, raw) : undefined;
      if (!id || !id.ok || id.value === null) return atIndex(new DomainError('not_found', `${model.table} ${String(raw)} not found`), i);
      return id.value;
    });
    await this.store.transaction(async (tx) => {
      for (const [i, id] of ids.entries()) {
        // The shared delete path; its guard reads the row within the caller's scope (and the parent).
        const guard = async (t: RecordStore): Promise<void> => void (await findScoped(t, resource, identity, id, parent));
        await this.remove.execute(tx, model, id, { guard, guardChecksScope: true, caller: identity }).catch((e: unknown) => atIndex(e, i));
      }
    });
  }
}
