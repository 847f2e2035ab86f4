import type { Identity } from '../../domain/auth/identity.js';
import type { Row } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { checkCreateKey, withServerFields, writableFields, type WriteSurface } from './write-body.js';

/**
 * The one create path of every surface (SPEC "GraphQL" 8: mutations go through the same write
 * path as REST and admin): the field policy on the body (stripped and privileged columns), the
 * server-set columns, then the store's insert (defaults, value checks, signals).
 *
 * @example
 * const row = await new CreateRecord().execute(store, { model, policy: fieldPolicy(model) }, identity, { title: 'Hi', author_id: 1 });
 */
export class CreateRecord {
  async execute(store: RecordStore, surface: WriteSurface, identity: Identity, body: unknown, parent?: ParentScope): Promise<Row> {
    checkCreateKey(surface.model, body);
    const row = withServerFields(surface.model, identity, writableFields(surface, body, undefined, parent), parent);
    return store.insert(surface.model.table, row, { caller: identity });
  }
}
