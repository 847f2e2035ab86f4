import type { Identity } from '../../domain/auth/identity.js';
import { ownRow } from '../../domain/model/row-policy.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import { atIndex, PresentedBulkWrite } from './bulk-writes.js';
import type { RestResource } from './rest-resource.js';
import type { RecordStore } from '../../ports/record-store.js';
import { callerScope, outOfReach, requireInScope } from '../write/row-access.js';
import { checkCreateKey, withServerFields, writableFields } from '../write/write-body.js';

/**
 * Bulk create (SPEC "Bulk endpoints"): one transaction; every item passes the field policy
 * (hidden stripped, privileged refused); any failing item rolls the whole batch back and the
 * error names its index. Under a parent, the parent key is injected into each item.
 */
export class BulkCreate extends PresentedBulkWrite {
  protected readonly action = 'add';

  protected async write(resource: RestResource, identity: Identity, items: readonly unknown[], parent?: ParentScope): Promise<Row[]> {
    const rows = items.map((item, i) => {
      try {
        checkCreateKey(resource.model, item, i);
        const row = withServerFields(resource.model, identity, writableFields(resource, item, i, parent), parent);
        const owned = ownRow(resource.model.rowPolicy, identity, row);
        if (owned === 'foreign') throw outOfReach(resource.model);
        return owned;
      } catch (error) {
        return atIndex(error, i);
      }
    });
    const { model } = resource;
    const table = model.table;
    // One multi-row INSERT; only when it fails are the rows replayed one by one to name the failing index.
    const insert = (store: RecordStore) => store.insertMany(table, rows).catch((error: unknown) => this.locate(store, error, table, rows));
    const scope = callerScope(model, identity);
    if (!scope || !model.rowPolicy?.scope) return insert(this.store);
    // A scope function is a filter: every stored row must pass it, in the inserting transaction.
    return this.store.transaction(async (tx) => {
      const stored = await insert(tx);
      for (const [i, row] of stored.entries()) await requireInScope(tx, model, row[model.primaryKey] as Value, scope).catch(() => atIndex(outOfReach(model), i));
      return stored;
    });
  }

  /** Re-raises a failed batch's error with the index of the first failing row; writes nothing. */
  private async locate(store: RecordStore, error: unknown, table: string, rows: readonly Row[]): Promise<never> {
    await store.transaction(async (tx) => {
      for (const [i, row] of rows.entries()) await tx.insert(table, row).catch((e: unknown) => atIndex(e, i));
      throw error; // every row went in alone: the batch failed for another reason; roll back all the same
    });
    throw error;
  }
}
