import { CreateSuperuser, type CreateSuperuserInput } from '../application/auth/create-superuser.js';
import { purgeEndedResetLinks } from '../application/auth/revoke-credentials.js';
import { SessionManager } from '../application/auth/session-manager.js';
import { MakeMigrations } from '../application/make-migrations.js';
import type { RotateTokenKeys } from '../application/social/rotate-token-keys.js';
import { migrationFiles, writeMigrationFile } from '../adapters/persistence/migration-files.js';
import type { MigrationPlanEntry } from '../adapters/persistence/sql/mikro-orm-database.js';
import type { MigrationOperation } from '../domain/model/migration.js';
import type { ModelRegistry } from '../domain/model/model-registry.js';
import { MigrationError, type ColumnRename } from '../domain/model/schema-state.js';
import type { Row } from '../domain/model/types.js';
import type { Database } from '../adapters/persistence/open-database.js';
import type { Clock } from '../ports/clock.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RandomSource } from '../ports/random-source.js';
import type { MigrationDef } from '../domain/model/migration.js';
import type { OpenApiDocument } from '../adapters/openapi/build-openapi-document.js';
import { generateClient } from '../adapters/openapi/generate-client.js';
import { collectStatic } from '../adapters/storage/collect-static.js';
import type { StaticFilesSettings } from './plugins/static-files.js';

/** What `portico makemigrations` wrote, or would write with `check`. */
export interface MadeMigrations {
  readonly written: readonly { readonly file: string; readonly name: string }[];
  readonly operations: readonly (readonly MigrationOperation[])[];
  /** Dropped and added columns of one definition that may be renames (declare them with `renames`). */
  readonly possibleRenames: readonly ColumnRename[];
}

/** A migration and whether the database has applied it (`portico showmigrations`). */
export interface MigrationStatus {
  readonly name: string;
  readonly applied: boolean;
}

/**
 * The management commands of an opened app, each a use case on the app's own ports: the
 * `portico` command calls these, so it runs no second copy of Portico beside the host's.
 */
export interface Management {
  /** Compares the models with the app's migrations and writes what changed to `dir` (nothing with `check`). */
  makeMigrations(options: { readonly dir: string; readonly renames?: readonly ColumnRename[]; readonly name?: string; readonly check?: boolean }): Promise<MadeMigrations>;
  /** Every migration in ledger order with whether it is applied, then applied ones the app no longer defines. */
  showMigrations(): Promise<MigrationStatus[]>;
  /** The full name of a migration given as a name, an app migration's number (`2`, `0002`) or `zero` (before the app's first). */
  migrationTarget(to: string): string;
  /** What `migrate(to)` would run. */
  plan(to?: string): Promise<MigrationPlanEntry[]>;
  /** Creates a staff superuser under the signup rules. */
  createSuperuser(input: CreateSuperuserInput): Promise<Row>;
  /** Removes expired sessions, and password reset links that can no longer be used; returns how many sessions. */
  clearSessions(): Promise<number>;
  /** Writes the collected static folder (hashed names, compressed copies, the manifest) of staticFiles(). */
  collectStatic(): Promise<{ files: number; root: string }>;
  /** Re-seals every stored provider token with the first of the `tokenKeys` (`portico rotate-keys`). */
  rotateKeys(): Promise<{ resealed: number; accounts: number }>;
  /** The source of a typed REST client (`portico gen-client`), from the app's OpenAPI document. */
  client(): string;
}

/** The parts of an app the management commands use. */
export interface ManagedApp {
  readonly registry: ModelRegistry;
  /** The database, opened on first use (makemigrations may do without it). */
  db(): Promise<Database>;
  readonly hasher: PasswordHasher;
  readonly clock: Clock;
  readonly random: RandomSource;
  frameworkMigrations(): readonly MigrationDef[];
  hostMigrations(): readonly MigrationDef[];
  appTables(): string[];
  /** What staticFiles() serves; undefined without it. */
  staticFiles(): StaticFilesSettings | undefined;
  /** The token key rotation of socialLogin(); undefined without it. */
  rotateTokenKeys(): RotateTokenKeys | undefined;
  /** The OpenAPI document of the app's REST surface; undefined without rest(). */
  openApiDocument(): OpenApiDocument | undefined;
}

/** The management commands of `app` (opened). */
export function management(app: ManagedApp): Management {
  const all = () => [...app.frameworkMigrations(), ...app.hostMigrations()];
  return {
    async makeMigrations({ dir, renames = [], name, check = false }) {
      const found = await new MakeMigrations(app.registry, app.db).execute({ defs: app.hostMigrations(), tables: new Set(app.appTables()) }, renames);
      if (check) return { written: [], operations: found.migrations, possibleRenames: found.possibleRenames };
      if (found.migrations.length > 0 && migrationFiles(dir).length > 0 && app.hostMigrations().every((d) => d.createTables)) {
        throw new MigrationError(`${dir} holds migration files the app does not load: pass the folder as the app's migrations option (or --dir)`);
      }
      const written = found.migrations.map((ops, i) => writeMigrationFile(dir, ops, i === found.migrations.length - 1 ? name : undefined));
      return { written, operations: found.migrations, possibleRenames: found.possibleRenames };
    },
    async showMigrations() {
      const done = await (await app.db()).executed();
      const defined = all().map((m) => m.name);
      return [...defined.map((n) => ({ name: n, applied: done.includes(n) })), ...done.filter((n) => !defined.includes(n)).map((n) => ({ name: n, applied: true }))];
    },
    migrationTarget(to) {
      const host = app.hostMigrations();
      if (to === 'zero') {
        const before = app.frameworkMigrations().at(-1);
        if (!before) throw new MigrationError('there is no migration before the app\'s first');
        return before.name;
      }
      if (/^\d{1,4}$/.test(to)) {
        const prefix = `app_${to.padStart(4, '0')}_`;
        const found = host.find((m) => m.name.startsWith(prefix));
        if (!found) throw new MigrationError(`no app migration numbered ${to}`);
        return found.name;
      }
      if (!all().some((m) => m.name === to)) throw new MigrationError(`no migration named ${to}`);
      return to;
    },
    plan: async (to) => (await app.db()).plan(to),
    createSuperuser: async (input) => new CreateSuperuser((await app.db()).store, app.hasher, app.clock).execute(input),
    clearSessions: async () => {
      const { store } = await app.db();
      // Ended password reset links go too: nothing reads them again.
      await purgeEndedResetLinks(store, app.clock.now());
      return new SessionManager(store, app.clock, app.random).purgeExpired();
    },
    async collectStatic() {
      const settings = app.staticFiles();
      if (!settings) throw new Error('collectstatic collects the files staticFiles() serves, and this app mounts no staticFiles()');
      const manifest = await collectStatic(settings.source, settings.root);
      return { files: Object.keys(manifest.paths).length, root: settings.root };
    },
    async rotateKeys() {
      const rotate = app.rotateTokenKeys();
      if (!rotate) throw new Error('rotate-keys re-seals the tokens socialLogin() stores, and this app mounts no socialLogin()');
      return rotate.execute();
    },
    client() {
      const document = app.openApiDocument();
      if (!document) throw new Error('gen-client writes a client of the REST surface, and this app mounts no rest()');
      return generateClient(document);
    },
  };
}
