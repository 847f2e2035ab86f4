import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { Row, Value } from '../../domain/model/types.js';
import { presentRow } from '../../domain/rest/field-policy.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Presented } from './hydrate-includes.js';
import { updateNestedTreeGated, writeNestedTreeGated, type NestedSpec, type NestedWriteGate, type WrittenTree } from './nested-tree.js';
import { authorize, type RestResource } from './rest-resource.js';
import { findScoped } from './retrieve-row.js';

/** A nested write's answer: the tree presented, and its root row as stored (for its entity tag). */
export interface WrittenRoot {
  readonly body: Presented;
  readonly row: Row;
}

/** A check of the root row of a nested update, made on the row as its transaction reads it (locked when `lock`). */
export interface RootCheck {
  readonly lock: 'update' | undefined;
  readonly check: (row: Row) => void;
}

/**
 * Nested writes through REST (SPEC "Nested writes"): the tree writer behind the gate that writes
 * every node through the shared create/update path on its table's resource (field policy at every
 * level, server-set columns, the model's row policy), checks each child's create or change
 * permission and keeps updated children inside the object scope; one transaction for the whole
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

  /** Writes the tree in one transaction; answers it presented, and the root row as stored. */
  async create(resource: RestResource, identity: Identity, body: unknown): Promise<WrittenRoot> {
    const tree = await this.store.transaction((tx) => writeNestedTreeGated(tx, this.registry, this.spec, resource.model.table, body, this.gate(identity)));
    return { body: this.present(tree, resource.model.table), row: tree.row };
  }

  /**
   * Updates the tree in one transaction; answers it presented, and the root row as stored.
   * `root` checks the root row as the transaction reads it first (`lock`ed when asked), before
   * anything is written: an If-Match precondition.
   */
  async update(resource: RestResource, identity: Identity, id: Value, body: unknown, root?: RootCheck): Promise<WrittenRoot> {
    const tree = await this.store.transaction((tx) => updateNestedTreeGated(tx, this.registry, this.spec, resource.model.table, id, body, this.gate(identity, root)));
    return { body: this.present(tree, resource.model.table), row: tree.row };
  }

  private gate(identity: Identity, root?: RootCheck): NestedWriteGate {
    // The tree writer asks about the root row first, before any child: the check is for that call only.
    let pending = root;
    return {
      identity,
      // Each node is written through the shared create/update path on its table's resource (its field policy; the model's row policy).
      surface: (table, mode) => {
        const r = this.resourceOf(table);
        authorize(r, identity, mode === 'create' ? 'add' : 'change');
        return r;
      },
      mayUpdate: async (table, id, tx) => {
        const check = pending;
        pending = undefined;
        const row = await findScoped(tx, this.resourceOf(table), identity, id, undefined, check?.lock);
        check?.check(row);
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
