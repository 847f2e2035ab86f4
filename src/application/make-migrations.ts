import { DatabaseUnavailable } from '../domain/errors/domain-error.js';
import type { MigrationDef, MigrationOperation } from '../domain/model/migration.js';
import type { ModelRegistry } from '../domain/model/model-registry.js';
import { baselineFromDatabase, MigrationError, diffSchemas, registryState, renameCandidates, stateOf, type ColumnRename, type SchemaState } from '../domain/model/schema-state.js';
import type { MigrationSource } from '../ports/migration-source.js';

/** What `portico makemigrations` found: the migrations to write (usually one), and renames to ask about. */
export interface MigrationChanges {
  /** Operations per migration to write, in order; empty when the models and migrations agree. */
  readonly migrations: readonly (readonly MigrationOperation[])[];
  /** Dropped and added columns of one definition that may be renames (not declared). */
  readonly possibleRenames: readonly ColumnRename[];
}

/** The app's migrations as `makemigrations` reads them. */
export interface AppMigrations {
  /** The app's own migrations: generated ones, or the implicit first one (`app_0001_initial` from the models). */
  readonly defs: readonly MigrationDef[];
  /** The tables the app's migrations manage (its models and their junction tables). */
  readonly tables: ReadonlySet<string>;
}

/** The first migration an app gets without migrations of its own; the generated first one has its name. */
export const IMPLICIT_INITIAL = 'app_0001_initial';

/**
 * Compares the models with the state the app's migrations leave (Django's makemigrations). An app
 * without generated migrations gets its first one: the models' tables, or, when the database
 * already ran the implicit `app_0001_initial`, the tables as that database holds them, followed
 * by a migration with what it lacks.
 *
 * @example
 * const { migrations } = await new MakeMigrations(registry, database).execute(app, [{ table: 'post', from: 'pages', to: 'page_count' }]);
 */
export class MakeMigrations {
  /** `source` opens the database on demand: only an app without generated migrations needs it. */
  constructor(
    private readonly registry: ModelRegistry,
    private readonly source: () => Promise<MigrationSource>,
  ) {}

  async execute(app: AppMigrations, renames: readonly ColumnRename[] = []): Promise<MigrationChanges> {
    const target = registryState(this.registry, app.tables);
    let from: SchemaState;
    const migrations: MigrationOperation[][] = [];
    const implicit = app.defs.length === 0 || (app.defs.length === 1 && app.defs[0]?.name === IMPLICIT_INITIAL && app.defs[0].createTables !== undefined);
    if (!implicit && app.defs.some((d) => d.createTables)) {
      throw new MigrationError(`migration ${app.defs.find((d) => d.createTables)?.name ?? ''} creates tables from the models (createTables): generated migrations cannot follow it; keep one form`);
    }
    if (implicit) {
      // A database that does not exist yet has run nothing: the first migration creates every table.
      const source = await this.source().catch((error: unknown) => {
        if (error instanceof DatabaseUnavailable && error.missing) return undefined;
        throw error;
      });
      const applied = source !== undefined && (await source.executed()).includes(IMPLICIT_INITIAL);
      from = source && applied ? baselineFromDatabase(target, await source.schema()) : new Map();
      // The baseline becomes the first generated migration (already applied where it ran).
      if (applied) migrations.push(diffSchemas(new Map(), from));
    } else {
      from = new Map([...stateOf(app.defs, this.registry)].filter(([table]) => app.tables.has(table)));
    }
    const changes = diffSchemas(from, target, renames);
    if (changes.length > 0) migrations.push(changes);
    const declared = new Set(renames.map((r) => `${r.table}.${r.from}`));
    return { migrations, possibleRenames: renameCandidates(from, target).filter((r) => !declared.has(`${r.table}.${r.from}`)) };
  }
}
