import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { HydrateIncludes, Presented } from './hydrate-includes.js';
import type { NestedWrites } from './nested-writes.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';
import { writableFields } from './write-body.js';

/** Columns a full update (PUT) must carry: writable, NOT NULL, without default, not the key. */
export function requiredForPut(resource: RestResource): string[] {
  return resource.model.columns
    .filter((c) => !c.primary && !c.nullable && !c.default && resource.policy.writable(c.name) && !resource.policy.privileged(c.name))
    .filter((c) => !resource.config.setOnCreate?.[c.name])
    .map((c) => c.name);
}

/** The Update action: PUT replaces (400 listing missing required columns), PATCH changes what it names; both answer the re-read row. */
export class UpdateRow {
  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
    private readonly nested?: NestedWrites,
  ) {}

  async execute(resource: RestResource, identity: Identity, id: Value, body: unknown, partial: boolean, parent?: ParentScope): Promise<Presented> {
    authorize(resource, identity, 'change');
    const changes = writableFields(resource, body, undefined, parent);
    delete changes[resource.model.primaryKey];
    if (!partial) {
      const missing = requiredForPut(resource).filter((name) => changes[name] === undefined && name !== parent?.column);
      if (missing.length > 0) {
        throw new DomainError('invalid_input', `missing required fields: ${missing.join(', ')}`, missing.map((field) => ({ field, message: 'required' })));
      }
    }
    const table = resource.model.table;
    // The nested writer's gate checks the scoped row inside the transaction.
    if (!parent && this.nested?.applies(resource, body)) return this.nested.update(resource, identity, id, body);
    const updated = await this.store.transaction(async (tx) => {
      await findScoped(tx, resource, identity, id, parent);
      return tx.update(table, id, changes);
    });
    if (!updated) throw new DomainError('not_found', `${table} ${String(id)} not found`);
    const [presented] = await this.hydrate.execute(resource, [updated], []);
    return presented as Presented;
  }
}
