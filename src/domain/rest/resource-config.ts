import type { Identity } from '../auth/identity.js';
import type { Row, Value } from '../model/types.js';

/** The built-in CRUD actions a resource may serve (SPEC "View scope"). */
export type CrudAction = 'List' | 'Retrieve' | 'Create' | 'Update' | 'Delete';
export const CRUD_ACTIONS: readonly CrudAction[] = ['List', 'Retrieve', 'Create', 'Update', 'Delete'];

/** What a permission class is asked about: reads, or Add / Change / Delete (SPEC "Authentication" 6). */
export type PermissionAction = 'read' | 'add' | 'change' | 'delete';

/** A permission decision: allowed, or refused as unauthenticated (401) or forbidden (403). */
export type PermissionDecision = 'allow' | 'unauthenticated' | 'forbidden';

/** A permission class: decides per caller and action (DRF's has_permission). */
export interface PermissionClass {
  readonly name: string;
  decide(identity: Identity, action: PermissionAction): PermissionDecision;
}

export type { ScopeFn } from '../model/row-policy.js';

/** Rewrites a column's value on the way out. */
export type TransformFn = (value: Value, row: Row) => Value;
/** Adds a read-only field computed from the row. */
export type ComputedFn = (row: Row) => Value;

/** The part of a table's REST configuration that decides its field policy. */
export interface FieldConfig {
  readonly table: string;
  /** Columns stripped from responses and write bodies. */
  readonly hide?: readonly string[];
  /** Columns stripped from write bodies only. */
  readonly noform?: readonly string[];
  /** Columns never assigned from an untrusted body, besides those the model marks privileged. */
  readonly privileged?: readonly string[];
  readonly transform?: Readonly<Record<string, TransformFn>>;
  readonly computed?: Readonly<Record<string, ComputedFn>>;
}

/** The parent of a parent-scoped request: rows must have `column = value`. */
export interface ParentScope {
  readonly column: string;
  readonly value: Value;
}
