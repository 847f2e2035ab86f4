import type { Identity } from '../../domain/auth/identity.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { HydrateIncludes, Presented } from './hydrate-includes.js';
import type { NestedWrites } from './nested-writes.js';
import { authorize, type RestResource } from './rest-resource.js';
import { withCallerFields, writableFields } from './write-body.js';

/** The Create action: the field policy on the way in and out; 201 with the stored row. */
export class CreateRow {
  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
    private readonly nested?: NestedWrites,
  ) {}

  async execute(resource: RestResource, identity: Identity, body: unknown, parent?: ParentScope): Promise<Presented> {
    authorize(resource, identity, 'add');
    if (!parent && this.nested?.applies(resource, body)) return this.nested.create(resource, identity, body);
    const row = withCallerFields(resource, identity, writableFields(resource, body, undefined, parent), parent);
    const stored = await this.store.insert(resource.model.table, row);
    const [presented] = await this.hydrate.execute(resource, [stored], []);
    return presented as Presented;
  }
}
