import type { Identity } from '../../domain/auth/identity.js';
import { ownRow } from '../../domain/model/row-policy.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { callerScope, outOfReach, requireInScope, type RowAccess } from './row-access.js';
import { checkCreateKey, withServerFields, writableFields, type WriteSurface } from './write-body.js';

/**
 * The one create path of every surface (SPEC "GraphQL" 8: mutations go through the same write
 * path as REST and admin): the field policy on the body (stripped and privileged columns), the
 * server-set columns, the model's row policy (the owner column is the caller's when left out; a
 * row the caller would not reach is refused, 403), then the store's insert (defaults, value
 * checks, signals).
 *
 * @example
 * const row = await new CreateRecord().execute(store, { model, policy: fieldPolicy(model) }, identity, { title: 'Hi', author_id: 1 });
 */
export class CreateRecord {
  async execute(store: RecordStore, surface: WriteSurface, identity: Identity, body: unknown, parent?: ParentScope, access: RowAccess = {}): Promise<Row> {
    checkCreateKey(surface.model, body);
    const row = withServerFields(surface.model, identity, writableFields(surface, body, undefined, parent), parent);
    const { model } = surface;
    const scope = callerScope(model, identity, access);
    if (!scope) return store.insert(model.table, row, { caller: identity });
    const owned = ownRow(model.rowPolicy, identity, row);
    if (owned === 'foreign') throw outOfReach(model);
    if (!model.rowPolicy?.scope) return store.insert(model.table, owned, { caller: identity });
    // A scope function is a filter: the stored row must pass it, in the inserting transaction.
    return store.transaction(async (tx) => {
      const stored = await tx.insert(model.table, owned, { caller: identity });
      await requireInScope(tx, model, stored[model.primaryKey] as Value, scope).catch(() => {
        throw outOfReach(model);
      });
      return stored;
    });
  }
}
