import type { ModelRegistry } from '../domain/model/model-registry.js';
import { registryState, schemaDrift } from '../domain/model/schema-state.js';
import type { MigrationSource } from '../ports/migration-source.js';

/** How many differences one line names (a fresh database lacks every table). */
const SHOWN = 8;

/** What to do about drift, said after every report of it. */
export const DRIFT_ADVICE = 'run portico makemigrations, then portico migrate';

/**
 * Compares the registry with the schema the database holds: the drift that a model change not
 * yet migrated leaves (a column the model has and the table lacks, or the reverse). Checked at
 * start (refused in production, warned about in development) and by readiness.
 *
 * @example
 * const drift = await new CheckSchema(registry, database).execute();
 * drift; // ['table post: column pages is missing']
 */
export class CheckSchema {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly source: MigrationSource,
  ) {}

  /** One line per difference; empty when the schema matches the registry. */
  async execute(): Promise<string[]> {
    return schemaDrift(registryState(this.registry), await this.source.schema());
  }

  /** The drift as one line ("schema drift: …; … (run portico makemigrations, then portico migrate)"), or undefined. */
  async summary(): Promise<string | undefined> {
    const drift = await this.execute();
    if (drift.length === 0) return undefined;
    const shown = drift.length > SHOWN ? [...drift.slice(0, SHOWN), `and ${drift.length - SHOWN} more`] : drift;
    return `schema drift: ${shown.join('; ')} (${DRIFT_ADVICE})`;
  }
}
