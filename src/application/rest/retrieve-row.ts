import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { EntityTags, TaggedRow } from './entity-tags.js';
import type { HydrateIncludes } from './hydrate-includes.js';
import { and, authorize, scopeOf, type RestResource } from './rest-resource.js';

/**
 * The live row `id` within the caller's scope, or a 404 (also for an id of another scope).
 * `lock: 'update'` locks it until the caller's transaction ends (a read-check-write).
 */
export async function findScoped(store: RecordStore, resource: RestResource, identity: Identity, id: Value, parent?: ParentScope, lock?: 'update'): Promise<Row> {
  const model = resource.model;
  const where = and({ column: model.primaryKey, op: 'eq', value: id }, scopeOf(resource, identity, parent));
  const [row] = where ? await store.find(model.table, lock ? { where, limit: 1, lock } : { where, limit: 1 }) : [];
  if (!row) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
  return row;
}

/** The Retrieve action: the presented row and its entity tag. */
export class RetrieveRow {
  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
    private readonly tags: EntityTags,
  ) {}

  async execute(resource: RestResource, identity: Identity, id: Value, include: readonly (readonly string[])[] = [], parent?: ParentScope): Promise<TaggedRow> {
    authorize(resource, identity, 'read');
    const row = await findScoped(this.store, resource, identity, id, parent);
    const [presented] = await this.hydrate.execute(resource, [row], include);
    return { body: presented as TaggedRow['body'], etag: this.tags.of(resource.model, row) };
  }
}
