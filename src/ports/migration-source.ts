import type { ActualTable } from '../domain/model/schema-state.js';

/** Reads the state of schema migrations and of the schema itself (readiness, drift at start). */
export interface MigrationSource {
  /** Names of migrations defined but not yet applied. */
  pending(): Promise<string[]>;
  /** Names of migrations already applied, oldest first. */
  executed(): Promise<string[]>;
  /** The tables the database holds, with their columns (compared with the registry at start and by readiness). */
  schema(): Promise<ReadonlyMap<string, ActualTable>>;
}
