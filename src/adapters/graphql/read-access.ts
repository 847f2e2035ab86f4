import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ColumnDef, ModelDef } from '../../domain/model/types.js';
import { PASSWORD_HASH } from '../../domain/rest/field-policy.js';
import type { GraphqlConfig, IdentityGate } from './graphql-config.js';

/** What the read schema asks of the GraphQL configuration: which tables and columns appear, and who may read them. */
export interface ReadAccess {
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
 * identity); its `extensions.code` comes from GRAPHQL_CODE_BY_CODE through formatGraphqlError.
 */
const forbidden = (table: string) => new DomainError('forbidden', `not allowed to read ${table}`);

/** The read access rules of a GraphQL configuration. */
export function readAccess(config: GraphqlConfig): ReadAccess {
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
