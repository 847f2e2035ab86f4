import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf } from '../../domain/model/model-registry.js';
import type { Row, Value } from '../../domain/model/types.js';
import { normalizeValue } from '../../domain/model/values.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import { atIndex, PresentedBulkWrite } from './bulk-writes.js';
import type { RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';
import { writableFields } from '../write/write-body.js';

/**
 * Bulk partial update (SPEC "Bulk endpoints"): each item carries its primary key plus the
 * fields to change; a missing key (400), an unknown or out-of-scope key (404) or a privileged
 * field (400) rolls the whole batch back, naming the item's index.
 */
export class BulkUpdate extends PresentedBulkWrite {
  protected readonly action = 'change';

  protected async write(resource: RestResource, identity: Identity, batch: readonly unknown[], parent?: ParentScope): Promise<Row[]> {
    const model = resource.model;
    const pkCol = columnOf(model, model.primaryKey);
    const items = batch.map((item, i) => {
      const key = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[model.primaryKey] : undefined;
      const id = pkCol && key !== undefined && key !== null ? normalizeValue(pkCol, key) : undefined;
      if (!id || !id.ok || id.value === null) {
        throw new DomainError('invalid_input', `item ${i}: "${model.primaryKey}" is required`, [{ field: model.primaryKey, message: 'required', index: i }]);
      }
      try {
        const changes = writableFields(resource, item, i, parent);
        delete changes[model.primaryKey];
        return { id: id.value as Value, changes };
      } catch (error) {
        return atIndex(error, i);
      }
    });
    return this.store.transaction(async (tx) => {
      const out = [];
      for (const [i, item] of items.entries()) {
        await findScoped(tx, resource, identity, item.id, parent).catch((e: unknown) => atIndex(e, i));
        const row = await tx.update(model.table, item.id, item.changes).catch((e: unknown) => atIndex(e, i));
        if (!row) atIndex(new DomainError('not_found', `${model.table} ${String(item.id)} not found`), i);
        out.push(row as NonNullable<typeof row>);
      }
      return out;
    });
  }
}
