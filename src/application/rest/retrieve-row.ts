import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { HydrateIncludes, Presented } from './hydrate-includes.js';
import { and, authorize, scopeOf, type RestResource } from './rest-resource.js';

/** The live row `id` within the caller's scope, or a 404 (also for an id of another scope). */
export async function findScoped(store: RecordStore, resource: RestResource, identity: Identity, id: Value, parent?: ParentScope): Promise<Row> {
  const model = resource.model;
  const where = and({ column: model.primaryKey, op: 'eq', value: id }, scopeOf(resource, identity, parent));
  const [row] = where ? await store.find(model.table, { where, limit: 1 }) : [];
  if (!row) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
  return row;
}

/** The Retrieve action. */
export class RetrieveRow {
  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
  ) {}

  async execute(resource: RestResource, identity: Identity, id: Value, include: readonly (readonly string[])[] = [], parent?: ParentScope): Promise<Presented> {
    authorize(resource, identity, 'read');
    const row = await findScoped(this.store, resource, identity, id, parent);
    const [presented] = await this.hydrate.execute(resource, [row], include);
    return presented as Presented;
  }
}
