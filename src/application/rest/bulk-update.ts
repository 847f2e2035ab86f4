import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf } from '../../domain/model/model-registry.js';
import type { Row, Value } from '../../domain/model/types.js';
import { normalizeValue } from '../../domain/model/values.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { atIndex, PresentedBulkWrite } from './bulk-writes.js';
import type { EntityTags } from './entity-tags.js';
import type { HydrateIncludes } from './hydrate-includes.js';
import type { RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';
import { UpdateRecord, updateChanges } from '../write/update-record.js';

/** The field of a bulk PATCH item naming the version of the row it changes (its ETag); never a column written. */
export const BULK_VERSION_FIELD = '_version';

/**
 * Bulk partial update (SPEC "Bulk endpoints"): each item carries its primary key plus the
 * fields to change, and optionally the version of the row it changes (`_version`: its ETag,
 * compared with the row read locked in the transaction); a missing key (400), an unknown or
 * out-of-scope key (404), a privileged field (400) or a stale version (412
 * `precondition_failed`) rolls the whole batch back, naming the item's index. Every item goes
 * through the shared update path (`UpdateRecord`: field policy, row policy) in the one transaction.
 */
export class BulkUpdate extends PresentedBulkWrite {
  protected readonly action = 'change';
  private readonly update = new UpdateRecord();

  constructor(
    store: RecordStore,
    hydrate: HydrateIncludes,
    private readonly tags: EntityTags,
  ) {
    super(store, hydrate);
  }

  protected async write(resource: RestResource, identity: Identity, batch: readonly unknown[], parent?: ParentScope): Promise<Row[]> {
    const model = resource.model;
    const pkCol = columnOf(model, model.primaryKey);
    const items = batch.map((item, i) => {
      const key = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[model.primaryKey] : undefined;
      const id = pkCol && key !== undefined && key !== null ? normalizeValue(pkCol, key) : undefined;
      if (!id || !id.ok || id.value === null) {
        throw new DomainError('invalid_input', `item ${i}: "${model.primaryKey}" is required`, [{ field: model.primaryKey, message: 'required', index: i }]);
      }
      const { [BULK_VERSION_FIELD]: version, ...columns } = item as Record<string, unknown>;
      delete columns[model.primaryKey]; // the key names the row (a normalised copy is `id`)
      if (version !== undefined && version !== null && typeof version !== 'string') {
        throw new DomainError('invalid_input', `item ${i}: "${BULK_VERSION_FIELD}" must be a string (the row's ETag)`, [{ field: BULK_VERSION_FIELD, message: 'must be a string', index: i }]);
      }
      // Every body passes the field policy before any database work.
      try {
        updateChanges(resource, columns, false, parent);
      } catch (error) {
        atIndex(error, i);
      }
      return { id: id.value as Value, columns, version: version ?? undefined };
    });
    return this.store.transaction(async (tx) => {
      const out: Row[] = [];
      for (const [i, item] of items.entries()) {
        const lock = item.version === undefined ? undefined : 'update';
        // The shared update path; its guard reads the row within the caller's scope (and the parent), locked when a version is compared.
        const guard = async (t: RecordStore): Promise<void> => {
          const current = await findScoped(t, resource, identity, item.id, parent, lock);
          if (item.version !== undefined && !this.tags.matches(model, current, item.version)) {
            const detail = `${model.table} ${String(item.id)} has changed since the version given: read it again (its ETag) and retry`;
            throw new DomainError('precondition_failed', detail, [{ field: BULK_VERSION_FIELD, message: 'not the current version' }]);
          }
        };
        const options = { ...(parent ? { parent } : {}), guard, guardChecksScope: true };
        out.push(await this.update.execute(tx, resource, identity, item.id, item.columns, options).catch((e: unknown) => atIndex(e, i)));
      }
      return out;
    });
  }
}
