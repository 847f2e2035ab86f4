import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Container } from 'inversify';
import { IdempotentRequests } from '../application/idempotency/idempotent-requests.js';
import { MailQueue } from '../application/mail/mail-queue.js';
import { EntityTags } from '../application/rest/entity-tags.js';
import { AesGcmSecretBox } from '../adapters/crypto/aes-gcm-secret-box.js';
import { Argon2PasswordHasher, unknownUserArgon2Hash } from '../adapters/crypto/argon2-password-hasher.js';
import { BoundedPasswordHasher } from '../adapters/crypto/bounded-password-hasher.js';
import { DEFAULT_BODY_LIMIT } from '../adapters/http-koa/index.js';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { renderMailTemplate } from '../adapters/mail/templates.js';
import { parseDatabaseUrl } from '../adapters/persistence/database-url.js';
import { cryptoRandomSource } from '../adapters/system/crypto-random-source.js';
import { systemClock } from '../adapters/system/system-clock.js';
import type { MigrationDef } from '../domain/model/migration.js';
import type { ModelRegistry } from '../domain/model/model-registry.js';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RandomSource } from '../ports/random-source.js';
import { bindBackends, chooseBackends, type BackendOptions } from './backends.js';
import { TOKENS, type AppSettings } from './tokens.js';
import { bindFactory, bindValue, resolveOptional } from './typed-container.js';

/** The effects an app may replace (STYLE guideline 14); every one has a default. */
export interface Overrides extends BackendOptions {
  readonly clock?: Clock;
  readonly random?: RandomSource;
  readonly logger?: Logger;
  readonly hasher?: PasswordHasher;
  /** Where the host app overrides mail templates (`<dir>/auth/email/verify_code.txt`, `.html`). */
  readonly templatesDir?: string;
  /**
   * Create the PostgreSQL database or the SQLite file's folder when it does not exist (default
   * false: a missing one is an error at start naming it, so a typo never serves an empty schema).
   */
  readonly createDatabase?: boolean;
}

/** What the container is built from: the address, the models and migrations, the options. */
export interface ContainerInput {
  readonly url: string;
  readonly registry: ModelRegistry;
  readonly migrations: readonly MigrationDef[];
  readonly overrides: Overrides;
  readonly settings: Partial<AppSettings>;
}

/**
 * The one Inversify container of an app (DESIGN §2: only the composition root imports it).
 * Domain and application classes stay plain; they are bound here, in `backends.ts` and by the
 * plugins, with factories on typed tokens (`tokens.ts`). Resolving `TOKENS.Database` (and
 * `TOKENS.ThrottleStore`) is asynchronous: the app does it once, before anything else uses them.
 * Throws when a backend choice is impossible (`chooseBackends`), before anything is opened.
 */
export function buildContainer(input: ContainerInput, env: Readonly<Record<string, string | undefined>> = process.env): Container {
  const { overrides } = input;
  const database = parseDatabaseUrl(input.url);
  const backends = chooseBackends(overrides, database, env);
  const container = new Container({ defaultScope: 'Singleton' });
  bindValue(container, TOKENS.DatabaseConfig, database);
  bindValue(container, TOKENS.Registry, input.registry);
  bindValue(container, TOKENS.MigrationDefs, input.migrations);
  bindValue(container, TOKENS.Clock, overrides.clock ?? systemClock);
  bindValue(container, TOKENS.Random, overrides.random ?? cryptoRandomSource);
  bindFactory(container, TOKENS.Logger, () => overrides.logger ?? createPinoLogger());
  bindFactory(container, TOKENS.Hasher, () => overrides.hasher ?? new BoundedPasswordHasher(new Argon2PasswordHasher()));
  bindFactory(container, TOKENS.UnknownUserHash, (get) =>
    overrides.hasher ? hashOfRandomPassword(get(TOKENS.Hasher), get(TOKENS.Random), get(TOKENS.Logger)) : argon2UnknownUserHash(get(TOKENS.Random)),
  );
  bindFactory(container, TOKENS.MailTemplates, () => ({
    render: (name: string, vars: Readonly<Record<string, string>>) =>
      renderMailTemplate(name, { ...vars }, overrides.templatesDir ? { dir: overrides.templatesDir } : undefined),
  }));
  bindBackends(container, backends, { createDatabase: overrides.createDatabase === true });
  bindFactory(container, TOKENS.Store, (get) => get(TOKENS.Database).store);
  bindFactory(container, TOKENS.Migrations, (get) => get(TOKENS.Database));
  bindFactory(container, TOKENS.Settings, () => appSettings(input.settings, env));
  bindFactory(container, TOKENS.CsrfProtectedPrefixes, () => new Set<string>());
  bindFactory(
    container,
    TOKENS.MailQueue,
    (get) =>
      new MailQueue({
        tasks: () => resolveOptional(container, TOKENS.Tasks),
        mailer: get(TOKENS.Mailer),
        events: get(TOKENS.Events),
        box: new AesGcmSecretBox(get(TOKENS.Settings).secret, 'portico mail'),
      }),
  );
  bindFactory(container, TOKENS.IdempotentRequests, (get) => new IdempotentRequests(get(TOKENS.Store), get(TOKENS.Clock)));
  // The versions of rows every write surface compares (REST's ETag, the admin's `_version`, GraphQL's `_version`): one key per app.
  bindFactory(container, TOKENS.EntityTags, (get) => new EntityTags(get(TOKENS.Settings).configuredSecret));
  return container;
}

/**
 * The default hasher's hash for unknown users: an argon2id hash with its parameters that no
 * password matches, made without hashing anything (see `unknownUserArgon2Hash`).
 */
function argon2UnknownUserHash(random: RandomSource): () => Promise<string> {
  const hash = Promise.resolve(unknownUserArgon2Hash((size) => random.bytes(size)));
  return () => hash;
}

/**
 * A replaced hasher's hash for unknown users: the hash of a random password, computed once,
 * starting now so the first login does not wait for it.
 */
function hashOfRandomPassword(hasher: PasswordHasher, random: RandomSource, logger: Logger): () => Promise<string> {
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hasher.hash(Buffer.from(random.bytes(24)).toString('base64url')));
  void dummyHash().catch((err: unknown) => logger.error({ err }, 'could not prepare the dummy hash'));
  return dummyHash;
}

/** The settings with their defaults; without a configured secret, a random one for this process. */
function appSettings(given: Partial<AppSettings>, env: Readonly<Record<string, string | undefined>>): AppSettings {
  const configuredSecret = given.secret ?? env.PORTICO_SECRET;
  return {
    secret: configuredSecret ?? randomBytes(32).toString('base64url'),
    configuredSecret,
    production: given.production ?? env.NODE_ENV === 'production',
    bodyLimit: given.bodyLimit ?? DEFAULT_BODY_LIMIT,
    trustedOrigins: given.trustedOrigins ?? new Set(),
  };
}
