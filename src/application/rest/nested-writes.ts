import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { Value } from '../../domain/model/types.js';
import { presentRow } from '../../domain/rest/field-policy.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Presented } from './hydrate-includes.js';
import { updateNestedTreeGated, writeNestedTreeGated, type NestedSpec, type NestedWriteGate, type WrittenTree } from './nested-tree.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';
import { checkCreateKey, withServerFields, writableFields } from '../write/write-body.js';

/**
 * Nested writes through REST (SPEC "Nested writes"): the tree writer behind the gate that keeps
 * the field policy at every level (hidden stripped, privileged refused), each child's create or
 * change permission, and the object scope of updated children; one transaction for the whole
 * request.
 */
export class NestedWrites {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
    readonly spec: NestedSpec,
    private readonly resourceOf: (table: string) => RestResource,
  ) {}

  /**
   * True when the body (an object) names one of the resource's declared nested keys or one of
   * its model's many-to-many relations (their links are written through the owning resource).
   */
  applies(resource: RestResource, body: unknown): boolean {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
    const declared = this.spec.get(resource.model.table) ?? [];
    return declared.some((d) => d.key in body) || resource.model.manyToMany.some((rel) => rel.name in body && resource.policy.writable(rel.name));
  }

  async create(resource: RestResource, identity: Identity, body: unknown): Promise<Presented> {
    const tree = await this.store.transaction((tx) => writeNestedTreeGated(tx, this.registry, this.spec, resource.model.table, body, this.gate(identity)));
    return this.present(tree, resource.model.table);
  }

  async update(resource: RestResource, identity: Identity, id: Value, body: unknown): Promise<Presented> {
    const tree = await this.store.transaction((tx) => updateNestedTreeGated(tx, this.registry, this.spec, resource.model.table, id, body, this.gate(identity)));
    return this.present(tree, resource.model.table);
  }

  private gate(identity: Identity): NestedWriteGate {
    return {
      fields: (table, node, mode) => {
        const r = this.resourceOf(table);
        if (mode === 'create') checkCreateKey(r.model, node); // DESIGN §3 "keys in write bodies", at every level
        const fields = writableFields(r, node);
        return mode === 'create' ? withServerFields(r.model, identity, fields) : fields;
      },
      mayCreate: (table) => authorize(this.resourceOf(table), identity, 'add'),
      mayUpdate: async (table, id, tx) => {
        const r = this.resourceOf(table);
        authorize(r, identity, 'change');
        await findScoped(tx, r, identity, id);
      },
      // A relation the resource hides (`hide: ['tags']`) is stripped like a hidden column.
      linkable: (table, relation) => this.resourceOf(table).policy.writable(relation),
    };
  }

  private present(tree: WrittenTree, table: string): Presented {
    const r = this.resourceOf(table);
    const out: Presented = presentRow(r.model, tree.row, r.policy, r.config, true);
    for (const [key, child] of Object.entries(tree.children)) out[key] = child.rows.map((t) => this.present(t, child.table));
    for (const [relation, ids] of Object.entries(tree.links)) out[relation] = [...ids];
    return out;
  }
}
