import type { Identity } from '../../domain/auth/identity.js';
import { ownRow } from '../../domain/model/row-policy.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore, WriteOptions } from '../../ports/record-store.js';
import { atIndex } from './at-index.js';
import { callerScope, outOfReach, requireInScope, type RowAccess } from './row-access.js';
import { checkCreateKey, withServerFields, writableFields, type WriteSurface } from './write-body.js';

/**
 * The one create path of every surface (SPEC "GraphQL" 8: mutations go through the same write
 * path as REST and admin), one row or a batch: the key check and the field policy on the body
 * (stripped and privileged columns), the server-set columns, the model's row policy (the owner
 * column is the caller's when left out; a row the caller would not reach is refused, 403), then
 * the store's insert (defaults, value checks, signals).
 *
 * @example
 * const row = await new CreateRecord().execute(store, { model, policy: fieldPolicy(model) }, identity, { title: 'Hi', author_id: 1 });
 */
export class CreateRecord {
  async execute(store: RecordStore, surface: WriteSurface, identity: Identity, body: unknown, parent?: ParentScope, access: RowAccess = {}): Promise<Row> {
    const scope = callerScope(surface.model, identity, access);
    const row = prepare(surface, identity, body, scope, parent);
    const { model } = surface;
    const options = { caller: identity };
    if (!scope || !model.rowPolicy?.scope) return store.insert(model.table, row, options);
    // A scope function is a filter: the stored row must pass it, in the inserting transaction.
    return store.transaction(async (tx) => {
      const stored = await tx.insert(model.table, row, options);
      await requireInScope(tx, model, stored[model.primaryKey] as Value, scope).catch(() => Promise.reject(outOfReach(model)));
      return stored;
    });
  }

  /**
   * A batch (REST bulk create): the same steps for every body, a refusal naming the item's index
   * (`item 2: …`, each field error with `index: 2`), then one multi-row insert, all or nothing.
   * Only when that insert fails are the rows replayed one by one, in a transaction rolled back,
   * to name the index of the first failing row.
   */
  async executeMany(store: RecordStore, surface: WriteSurface, identity: Identity, bodies: readonly unknown[], parent?: ParentScope, access: RowAccess = {}): Promise<Row[]> {
    const { model } = surface;
    const scope = callerScope(model, identity, access);
    const rows = bodies.map((body, i) => {
      try {
        return prepare(surface, identity, body, scope, parent, i);
      } catch (error) {
        return atIndex(error, i);
      }
    });
    const options = { caller: identity };
    if (!scope || !model.rowPolicy?.scope) return store.insertMany(model.table, rows, options).catch((error: unknown) => locate(store, error, model, rows, options));
    // A scope function is a filter: every stored row must pass it, in the inserting transaction.
    let failed: unknown;
    return store
      .transaction(async (tx) => {
        const stored = await tx.insertMany(model.table, rows, options).catch((error: unknown) => Promise.reject((failed = error)));
        for (const [i, row] of stored.entries()) await requireInScope(tx, model, row[model.primaryKey] as Value, scope).catch(() => atIndex(outOfReach(model), i));
        return stored;
      })
      .catch((error: unknown) => (error === failed ? locate(store, error, model, rows, options) : Promise.reject(error)));
  }
}

/** The columns one create body writes: the key check, the field policy, the server-set columns and the parent key, the row policy's owner. */
function prepare(surface: WriteSurface, identity: Identity, body: unknown, scope: Condition | undefined, parent?: ParentScope, index?: number): Row {
  const { model } = surface;
  checkCreateKey(model, body, index);
  const row = withServerFields(model, identity, writableFields(surface, body, index, parent), parent);
  if (!scope) return row;
  const owned = ownRow(model.rowPolicy, identity, row);
  if (owned === 'foreign') throw outOfReach(model);
  return owned;
}

/** Re-raises a failed batch insert's error with the index of the first row failing alone; writes nothing. */
async function locate(store: RecordStore, error: unknown, model: ModelDef, rows: readonly Row[], options: WriteOptions): Promise<never> {
  await store.transaction(async (tx) => {
    for (const [i, row] of rows.entries()) await tx.insert(model.table, row, options).catch((e: unknown) => atIndex(e, i));
    throw error; // every row went in alone: the batch failed for another reason; roll back all the same
  });
  throw error;
}
