import type { Identity } from '../../domain/auth/identity.js';

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
