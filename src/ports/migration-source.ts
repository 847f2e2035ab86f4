/** Reads the state of schema migrations (for the opt-in readiness gate). */
export interface MigrationSource {
  /** Names of migrations defined but not yet applied. */
  pending(): Promise<string[]>;
  /** Names of migrations already applied, oldest first. */
  executed(): Promise<string[]>;
}
