import type { Identity } from '../auth/identity.js';
import { DomainError } from '../errors/domain-error.js';
import type { ColumnDef, ModelDef } from '../model/types.js';
import { PASSWORD_HASH } from '../rest/field-policy.js';

/** A gate on the caller's identity. */
export type IdentityGate = (identity: Identity) => boolean;

/** What the GraphQL plugin was told (SPEC "GraphQL" configuration options). */
export interface GraphqlConfig {
  /** Exposed tables, each with its gate (undefined: exposed to everyone). */
  readonly exposed: ReadonlyMap<string, IdentityGate | undefined>;
  /** Columns removed from the schema per table. */
  readonly hidden: ReadonlyMap<string, ReadonlySet<string>>;
  /** Private columns readable when the gate passes, per table. */
  readonly unlocks: ReadonlyMap<string, ReadonlyMap<string, IdentityGate>>;
}

/**
 * GraphQL's read policy (SPEC "GraphQL" 1-4): which tables and columns appear (`expose`,
 * `hide`, `allowPrivateIf`), and who may read them (`exposeIf` gates, unlock rules).
 */
export interface ReadPolicy {
  /** The table is in the schema. */
  exposed(table: string): boolean;
  /** Throws FORBIDDEN unless the table's gate (if any) passes for the caller. */
  checkGate(table: string, identity: Identity): void;
  /** The column is a field of its type (never `password_hash`, hidden ones, or a private one without an unlock rule). */
  visible(model: ModelDef, col: ColumnDef): boolean;
  /** A relation named `name` (a many-to-many one) is a field of its type: not hidden by name. */
  relationVisible(model: ModelDef, name: string): boolean;
  /** The gate that unlocks a private column (undefined for a public one). */
  unlockOf(model: ModelDef, col: ColumnDef): IdentityGate | undefined;
  /** The table has a gate (its query fields are nullable). */
  gated(table: string): boolean;
}

/**
 * A refused gate: `forbidden` for every caller, anonymous or not (a gate is a yes/no on the
 * identity); the GraphQL adapter gives it its `extensions.code`.
 */
const forbidden = (table: string) => new DomainError('forbidden', `not allowed to read ${table}`);

/** The read policy of a GraphQL configuration. */
export function readPolicy(config: GraphqlConfig): ReadPolicy {
  const gatePasses = (table: string, identity: Identity) => {
    const gate = config.exposed.get(table);
    return gate === undefined || gate(identity);
  };
  return {
    exposed: (table) => config.exposed.has(table),
    checkGate: (table, identity) => {
      if (!gatePasses(table, identity)) throw forbidden(table);
    },
    visible: (model, col) => {
      if (col.name === PASSWORD_HASH || col.hidden || config.hidden.get(model.table)?.has(col.name)) return false;
      return !col.private || config.unlocks.get(model.table)?.has(col.name) === true;
    },
    relationVisible: (model, name) => config.hidden.get(model.table)?.has(name) !== true,
    unlockOf: (model, col) => (col.private ? config.unlocks.get(model.table)?.get(col.name) : undefined),
    gated: (table) => config.exposed.get(table) !== undefined,
  };
}
