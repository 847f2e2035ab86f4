import 'reflect-metadata';
import { Container } from 'inversify';
import { MemoryEventBus } from '../adapters/events/memory-event-bus.js';
import { Argon2PasswordHasher } from '../adapters/crypto/argon2-password-hasher.js';
import { BoundedPasswordHasher } from '../adapters/crypto/bounded-password-hasher.js';
import { ConsoleMailer } from '../adapters/mail/console-mailer.js';
import { SmtpMailer } from '../adapters/mail/smtp-mailer.js';
import { renderMailTemplate } from '../adapters/mail/templates.js';
import { MemoryThrottleStore } from '../adapters/throttle/memory-throttle-store.js';
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
import type { Mailer } from '../ports/mailer.js';
import type { MailTemplates } from '../ports/mail-templates.js';
import type { ThrottleStore } from '../ports/throttle-store.js';
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
  Mailer: Symbol.for('portico.Mailer'),
  MailTemplates: Symbol.for('portico.MailTemplates'),
  Throttle: Symbol.for('portico.Throttle'),
} as const;

/** The effects an app may replace (STYLE guideline 14); every one has a default. */
export interface Overrides {
  readonly clock?: Clock;
  readonly random?: RandomSource;
  readonly events?: EventBus;
  readonly logger?: Logger;
  readonly hasher?: PasswordHasher;
  /** Outgoing mail (default: the console mailer, or SMTP when `SMTP_URL` is set). */
  readonly mailer?: Mailer;
  /** Where the host app overrides mail templates (`<dir>/auth/email/verify_code.txt`, `.html`). */
  readonly templatesDir?: string;
  /**
   * Throttle counts: in memory (default, one process), `'database'` (the app's own database, table
   * `auth_throttle`), `{ redis: 'redis://host:6379' }`, or any ThrottleStore. Several processes
   * share one budget with the database or Redis stores.
   */
  readonly throttleStore?: ThrottleStore | 'memory' | 'database' | { readonly redis: string };
}

/** SMTP when SMTP_URL is set (REFERENCE-APP.md), else the console mailer for development. */
function defaultMailer(): Mailer {
  const url = process.env.SMTP_URL;
  return url ? new SmtpMailer(url, process.env.MAIL_FROM ?? 'Portico <no-reply@localhost>') : new ConsoleMailer();
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
  container.bind<Logger>(TOKENS.Logger).toResolvedValue(() => overrides.logger ?? createPinoLogger());
  container
    .bind<EventBus>(TOKENS.Events)
    .toResolvedValue((logger: Logger) => overrides.events ?? new MemoryEventBus((err, what) => logger.error({ err }, `${what} failed after commit`)), [TOKENS.Logger]);
  container
    .bind<PasswordHasher>(TOKENS.Hasher)
    .toResolvedValue(() => overrides.hasher ?? new BoundedPasswordHasher(new Argon2PasswordHasher()));
  container.bind<Mailer>(TOKENS.Mailer).toResolvedValue(() => overrides.mailer ?? defaultMailer());
  container.bind<MailTemplates>(TOKENS.MailTemplates).toResolvedValue(() => ({
    render: (name: string, vars: Readonly<Record<string, string>>) =>
      renderMailTemplate(name, { ...vars }, overrides.templatesDir ? { dir: overrides.templatesDir } : undefined),
  }));
  container
    .bind<ThrottleStore>(TOKENS.Throttle)
    .toResolvedValue(
      (clock: Clock) => (typeof overrides.throttleStore === 'object' && 'hit' in overrides.throttleStore ? overrides.throttleStore : new MemoryThrottleStore(clock)),
      [TOKENS.Clock],
    );
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
