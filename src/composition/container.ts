import 'reflect-metadata';
import { Container } from 'inversify';
import { MemoryEventBus } from '../adapters/events/memory-event-bus.js';
import { Argon2PasswordHasher } from '../adapters/crypto/argon2-password-hasher.js';
import { createPinoLogger } from '../adapters/logging/pino-logger.js';
import { parseDatabaseUrl, type DatabaseConfig } from '../adapters/persistence/database-url.js';
import { openDatabase, type Database } from '../adapters/persistence/open-database.js';
import { cryptoRandomSource } from '../adapters/system/crypto-random-source.js';
import { systemClock } from '../adapters/system/system-clock.js';
import type { MigrationDef } from '../domain/model/migration.js';
import type { ModelRegistry } from '../domain/model/model-registry.js';
import type { Clock } from '../ports/clock.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Logger } from '../ports/logger.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RandomSource } from '../ports/random-source.js';

/** Service identifiers of the composition root. */
export const TOKENS = {
  DatabaseUrl: Symbol.for('portico.DatabaseUrl'),
  DatabaseConfig: Symbol.for('portico.DatabaseConfig'),
  Database: Symbol.for('portico.Database'),
  Registry: Symbol.for('portico.Registry'),
  Migrations: Symbol.for('portico.Migrations'),
  Clock: Symbol.for('portico.Clock'),
  Random: Symbol.for('portico.Random'),
  Events: Symbol.for('portico.Events'),
  Logger: Symbol.for('portico.Logger'),
  Hasher: Symbol.for('portico.Hasher'),
} as const;

/** The effects an app may replace (STYLE guideline 14); every one has a default. */
export interface Overrides {
  readonly clock?: Clock;
  readonly random?: RandomSource;
  readonly events?: EventBus;
  readonly logger?: Logger;
  readonly hasher?: PasswordHasher;
}

/**
 * The one Inversify container (DESIGN §2: only the composition root imports it). Domain and
 * application classes stay plain; they are bound here with factories.
 */
export function buildContainer(url: string, registry: ModelRegistry, migrations: readonly MigrationDef[], overrides: Overrides): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind<string>(TOKENS.DatabaseUrl).toConstantValue(url);
  container.bind<ModelRegistry>(TOKENS.Registry).toConstantValue(registry);
  container.bind<readonly MigrationDef[]>(TOKENS.Migrations).toConstantValue(migrations);
  container.bind<Clock>(TOKENS.Clock).toConstantValue(overrides.clock ?? systemClock);
  container.bind<RandomSource>(TOKENS.Random).toConstantValue(overrides.random ?? cryptoRandomSource);
  container.bind<EventBus>(TOKENS.Events).toResolvedValue(() => overrides.events ?? new MemoryEventBus());
  container.bind<Logger>(TOKENS.Logger).toResolvedValue(() => overrides.logger ?? createPinoLogger());
  container.bind<PasswordHasher>(TOKENS.Hasher).toResolvedValue(() => overrides.hasher ?? new Argon2PasswordHasher());
  container.bind<DatabaseConfig>(TOKENS.DatabaseConfig).toResolvedValue((text: string) => parseDatabaseUrl(text), [TOKENS.DatabaseUrl]);
  // Opening a database is asynchronous: resolved once with getAsync by the app.
  container.bind<Database>(TOKENS.Database).toDynamicValue(async (ctx) =>
    openDatabase(
      ctx.get<DatabaseConfig>(TOKENS.DatabaseConfig),
      {
        registry: ctx.get<ModelRegistry>(TOKENS.Registry),
        events: ctx.get<EventBus>(TOKENS.Events),
        clock: ctx.get<Clock>(TOKENS.Clock),
        random: ctx.get<RandomSource>(TOKENS.Random),
      },
      ctx.get<readonly MigrationDef[]>(TOKENS.Migrations),
    ),
  );
  return container;
}
