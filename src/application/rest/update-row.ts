import type { Identity } from '../../domain/auth/identity.js';
import type { Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { UpdateRecord, updateChanges } from '../write/update-record.js';
import type { HydrateIncludes, Presented } from './hydrate-includes.js';
import type { NestedWrites } from './nested-writes.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';

/** The REST Update action: PUT replaces (400 listing missing required columns), PATCH changes what it names; both answer the re-read row. */
export class UpdateRow {
  private readonly update = new UpdateRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
    private readonly nested?: NestedWrites,
  ) {}

  async execute(resource: RestResource, identity: Identity, id: Value, body: unknown, partial: boolean, parent?: ParentScope): Promise<Presented> {
    authorize(resource, identity, 'change');
    // The nested writer's gate checks the scoped row inside the transaction.
    if (!parent && this.nested?.applies(resource, body)) {
      updateChanges(resource, body, !partial, undefined, id);
      return this.nested.update(resource, identity, id, body);
    }
    const updated = await this.update.execute(this.store, resource, identity, id, body, {
      replace: !partial,
      ...(parent ? { parent } : {}),
      guard: async (tx) => void (await findScoped(tx, resource, identity, id, parent)),
    });
    const [presented] = await this.hydrate.execute(resource, [updated], []);
    return presented as Presented;
  }
}
