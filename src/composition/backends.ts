import { createHash } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import type { Container } from 'inversify';
import { DistributedEventBus } from '../adapters/events/distributed-event-bus.js';
import { MemoryEventBus } from '../adapters/events/memory-event-bus.js';
import { PostgresTransport } from '../adapters/events/postgres-transport.js';
import { RedisTransport } from '../adapters/events/redis-transport.js';
import { ConsoleMailer } from '../adapters/mail/console-mailer.js';
import { SmtpMailer } from '../adapters/mail/smtp-mailer.js';
import type { DatabaseConfig } from '../adapters/persistence/database-url.js';
import { openDatabase } from '../adapters/persistence/open-database.js';
import { MemoryThrottleStore } from '../adapters/throttle/memory-throttle-store.js';
import { connectRedisThrottleStore } from '../adapters/throttle/redis-throttle-store.js';
import { SqlThrottleStore } from '../adapters/throttle/sql-throttle-store.js';
import type { NamedCheck } from '../application/check-readiness.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Mailer } from '../ports/mailer.js';
import type { ThrottleStore } from '../ports/throttle-store.js';
import { bindAsyncFactory, bindFactory } from './typed-container.js';
import { token, TOKENS } from './tokens.js';

/** The backend options of `createApp` (each has a default). */
export interface BackendOptions {
  /**
   * The event bus. On a PostgreSQL database the default is `'postgresql'`: LISTEN/NOTIFY on the
   * app's own database (one more connection per process), so committed model signals and topic
   * payloads reach every process of the app. On SQLite and `memory:` the default is `'memory'`:
   * they reach this process only. `'memory'` opts out on PostgreSQL; `{ redis: 'redis://host:6379' }`
   * (pub/sub) spans processes on any database; any EventBus is used as it is.
   */
  readonly events?: EventBus | 'memory' | 'postgresql' | { readonly redis: string };
  /** Outgoing mail (default: the console mailer, or SMTP when `SMTP_URL` is set). */
  readonly mailer?: Mailer;
  /**
   * Throttle counts: in memory (default, one process), `'database'` (the app's own SQL database,
   * table `auth_throttle`; not available on `memory:`), `{ redis: 'redis://host:6379' }`, or any
   * ThrottleStore. Several processes share one budget with the database or Redis stores.
   */
  readonly throttleStore?: ThrottleStore | 'memory' | 'database' | { readonly redis: string };
}

/** Where the records live: the parsed database address. */
export type StoreChoice = DatabaseConfig;
export type ThrottleChoice =
  | { readonly kind: 'memory' }
  | { readonly kind: 'database' }
  | { readonly kind: 'redis'; readonly url: string }
  | { readonly kind: 'given'; readonly store: ThrottleStore };
export type MailerChoice =
  | { readonly kind: 'console' }
  | { readonly kind: 'smtp'; readonly url: string; readonly from: string }
  | { readonly kind: 'given'; readonly mailer: Mailer };
export type EventBusChoice =
  | { readonly kind: 'memory' }
  | { readonly kind: 'postgresql'; readonly url: string; readonly schema?: string }
  | { readonly kind: 'redis'; readonly url: string; readonly channel: string }
  | { readonly kind: 'given'; readonly bus: EventBus };

/** The backend of every swappable port, decided once when the app opens. */
export interface Backends {
  readonly store: StoreChoice;
  readonly throttle: ThrottleChoice;
  readonly mailer: MailerChoice;
  readonly events: EventBusChoice;
}

/** The environment variables that choose a backend (`SMTP_URL`, `MAIL_FROM`). */
export type BackendEnv = Readonly<Record<string, string | undefined>>;

/**
 * Decides every backend from the options, the database address and the environment, and
 * refuses an impossible choice (a `'database'` throttle store on `memory:`, a malformed option)
 * with an Error saying what to use instead. The one place a backend is chosen.
 *
 * @example
 * chooseBackends({ throttleStore: 'database' }, parseDatabaseUrl('sqlite:./app.db'), process.env).throttle; // { kind: 'database' }
 */
export function chooseBackends(options: BackendOptions, store: DatabaseConfig, env: BackendEnv): Backends {
  return { store, throttle: chooseThrottle(options.throttleStore, store), mailer: chooseMailer(options.mailer, env), events: chooseEvents(options.events, store) };
}

function chooseThrottle(option: BackendOptions['throttleStore'], store: DatabaseConfig): ThrottleChoice {
  if (option === undefined || option === 'memory') return { kind: 'memory' };
  if (option === 'database') {
    if (store.kind === 'memory') {
      throw new Error(
        "throttleStore: 'database' keeps throttle counts in the app's SQL database, but the database is memory: (the in-memory store has none); " +
          "use throttleStore 'memory' or { redis: 'redis://host:6379' }, or a sqlite: or postgres:// database",
      );
    }
    return { kind: 'database' };
  }
  if (typeof option === 'object' && option !== null && 'redis' in option) {
    if (typeof option.redis !== 'string' || !/^rediss?:\/\/./.test(option.redis)) {
      throw new Error(`throttleStore: { redis } must be a redis:// or rediss:// URL, got ${JSON.stringify(option.redis)}`);
    }
    return { kind: 'redis', url: option.redis };
  }
  if (isThrottleStore(option)) return { kind: 'given', store: option };
  throw new Error(`throttleStore must be 'memory', 'database', { redis: url } or a ThrottleStore, got ${JSON.stringify(option)}`);
}

function isThrottleStore(value: unknown): value is ThrottleStore {
  return typeof value === 'object' && value !== null && 'hit' in value && typeof value.hit === 'function' && 'reset' in value && typeof value.reset === 'function';
}

function chooseMailer(option: Mailer | undefined, env: BackendEnv): MailerChoice {
  if (option) return { kind: 'given', mailer: option };
  const url = env.SMTP_URL;
  return url ? { kind: 'smtp', url, from: env.MAIL_FROM ?? 'Portico <no-reply@localhost>' } : { kind: 'console' };
}

function chooseEvents(option: BackendOptions['events'], store: DatabaseConfig): EventBusChoice {
  const onPostgres = store.kind === 'sql' && store.dialect === 'postgresql';
  if (option === 'memory' || (option === undefined && !onPostgres)) return { kind: 'memory' };
  if (option === undefined || option === 'postgresql') {
    if (store.kind !== 'sql' || store.dialect !== 'postgresql') {
      throw new Error(`events: 'postgresql' listens on the app's PostgreSQL database, but the database is ${store.kind === 'memory' ? 'memory:' : 'SQLite'}; use events 'memory' (one process) or { redis: 'redis://host:6379' }`);
    }
    return { kind: 'postgresql', url: store.url, ...(store.schema ? { schema: store.schema } : {}) };
  }
  if (typeof option === 'object' && option !== null && 'redis' in option) {
    if (typeof option.redis !== 'string' || !/^rediss?:\/\/./.test(option.redis)) {
      throw new Error(`events: { redis } must be a redis:// or rediss:// URL, got ${JSON.stringify(option.redis)}`);
    }
    return { kind: 'redis', url: option.redis, channel: redisChannel(store) };
  }
  if (isEventBus(option)) return { kind: 'given', bus: option };
  throw new Error(`events must be 'memory', 'postgresql', { redis: url } or an EventBus, got ${JSON.stringify(option)}`);
}

/**
 * The Redis channel of an app's events: one per database (and schema), so apps that share a
 * Redis server but not a database never hear each other's writes.
 */
function redisChannel(store: DatabaseConfig): string {
  if (store.kind !== 'sql') return 'portico:events';
  let where: string;
  if (store.dialect === 'sqlite') where = `sqlite:${resolvePath(store.file)}`;
  else {
    const url = new URL(store.url);
    url.username = '';
    url.password = '';
    where = `${url.toString()}|${store.schema ?? ''}`;
  }
  return `portico:events:${createHash('sha256').update(where).digest('hex').slice(0, 16)}`;
}

function isEventBus(value: unknown): value is EventBus {
  return typeof value === 'object' && value !== null && ['on', 'onCommitted', 'emit', 'subscribe', 'publish', 'unitOfWork'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
}

/**
 * What the chosen backends keep in this process, and so stops holding once a second process
 * serves the app: one line per such backend, each naming the option that fixes it. Logged as
 * warnings when a production app starts (`bindBackends`); none for a backend that spans processes
 * or an instance the host gave.
 *
 * - `memory:`: the records themselves (a second process has its own, and they are gone at exit).
 * - The in-memory throttle store: each process counts its own login and request budget.
 * - The in-memory event bus (the default on SQLite and `memory:`, `events: 'memory'` on
 *   PostgreSQL): committed signals and topics reach this process only, so another process's
 *   `onCommitted` handlers, GraphQL subscriptions, realtime channels and credential watches miss
 *   this one's writes, and its bearer-token cache (`auth({ tokenCache })`, Portico's in-process
 *   cache, invalidated by the bus) learns of a revocation made here only when its window ends.
 *
 * @example
 * singleProcessWarnings(chooseBackends({ throttleStore: 'database' }, parseDatabaseUrl('postgres://db/app'), {})); // []
 */
export function singleProcessWarnings(backends: Backends): string[] {
  const { store } = backends;
  const lines: string[] = [];
  const where = store.kind === 'memory' ? 'memory:' : store.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  if (store.kind === 'memory') {
    lines.push('database memory: keeps every record in this process (a second process has its own, and they are gone at exit); use a sqlite: or postgres:// database');
  }
  if (backends.throttle.kind === 'memory') {
    const fix = store.kind === 'memory' ? "throttleStore: { redis: 'redis://host:6379' }" : "throttleStore: 'database' (the app's database) or { redis: 'redis://host:6379' }";
    lines.push(`throttle counts are kept in this process's memory: with a second process each counts its own login and request budget; set ${fix}`);
  }
  if (backends.events.kind === 'memory') {
    const reach =
      'committed model signals and topics reach this process only: onCommitted handlers, GraphQL subscriptions, realtime channels and credential watches on another process miss its writes, and a bearer token it revokes stays valid there until auth({ tokenCache }) expires it (5 s by default)';
    lines.push(
      where === 'PostgreSQL'
        ? `events: 'memory' was chosen on PostgreSQL: ${reach}; remove it for the default, events: 'postgresql' (LISTEN/NOTIFY on the app's database), or set events: { redis: 'redis://host:6379' }`
        : `the event bus is in memory, which holds for one process only (${where} has no cross-process bus): ${reach}; for several processes set events: { redis: 'redis://host:6379' }`,
    );
  }
  return lines;
}

/** The Redis connection of the `{ redis }` throttle store, closed when the app closes. */
const RedisThrottle = token<Awaited<ReturnType<typeof connectRedisThrottleStore>>>('RedisThrottle');

/**
 * Binds the chosen backends: the database (opened once, asynchronously; closed with the
 * container), the throttle store, the mailer and the event bus. When the throttle store is
 * resolved (at start), a production app logs one warning per {@link singleProcessWarnings} line.
 */
export function bindBackends(container: Container, backends: Backends, open: { readonly createDatabase?: boolean } = {}): void {
  bindFactory(container, TOKENS.Backends, () => backends);
  bindAsyncFactory(container, TOKENS.Database, async (get) => {
    const deps = { registry: await get(TOKENS.Registry), events: await get(TOKENS.Events), clock: await get(TOKENS.Clock), random: await get(TOKENS.Random) };
    const db = await openDatabase(backends.store, deps, await get(TOKENS.MigrationDefs), { create: open.createDatabase === true });
    // A cross-process bus starts listening once the database exists (a missing one is refused,
    // or has just been created), and before the app serves, so no committed event of its own is missed.
    if (deps.events instanceof DistributedEventBus && backends.events.kind !== 'given') await deps.events.start();
    return db;
  }).onDeactivation((db) => db.close());
  bindAsyncFactory(container, TOKENS.Events, async (get) => {
    const choice = backends.events;
    if (choice.kind === 'given') return choice.bus;
    const logger = await get(TOKENS.Logger);
    const report = (err: unknown, what: string) => logger.error({ err }, `${what} failed after commit`);
    if (choice.kind === 'memory') return new MemoryEventBus(report);
    // Started by the database's binding, once the database is open.
    const transport = choice.kind === 'postgresql' ? new PostgresTransport(choice.url, choice.schema) : new RedisTransport(choice.url, choice.channel);
    return new DistributedEventBus(transport, report, (fields, message) => logger.warn(fields, message));
  }).onDeactivation(async (bus) => {
    if (bus instanceof DistributedEventBus) await bus.close();
  });
  bindFactory(container, TOKENS.Mailer, () => {
    const choice = backends.mailer;
    return choice.kind === 'given' ? choice.mailer : choice.kind === 'smtp' ? new SmtpMailer(choice.url, choice.from) : new ConsoleMailer();
  });
  bindAsyncFactory(container, RedisThrottle, async () => {
    if (backends.throttle.kind !== 'redis') throw new Error('the Redis throttle store was not chosen');
    return connectRedisThrottleStore(backends.throttle.url);
  }).onDeactivation((redis) => redis.close());
  bindAsyncFactory(container, TOKENS.ThrottleStore, async (get) => {
    // Resolved once, when the app starts (not by `open()` alone, as `portico migrate` does): in
    // production, the moment to say what holds for one process only.
    if ((await get(TOKENS.Settings)).production) {
      const logger = await get(TOKENS.Logger);
      for (const line of singleProcessWarnings(backends)) logger.warn({}, line);
    }
    const choice = backends.throttle;
    if (choice.kind === 'given') return choice.store;
    if (choice.kind === 'redis') return (await get(RedisThrottle)).store;
    if (choice.kind === 'memory') return new MemoryThrottleStore(await get(TOKENS.Clock));
    const sql = (await get(TOKENS.Database)).sql;
    if (!sql) throw new Error(`throttleStore: 'database' needs a SQL database`);
    return new SqlThrottleStore(sql.knex, sql.dialect, await get(TOKENS.Clock));
  });
}

/**
 * The readiness check of a bus that spans processes (`events` in `/ready`): failing, with the
 * transport and the reason, while its listening connection is down. None for a local bus.
 */
export function eventBusCheck(bus: EventBus): NamedCheck | undefined {
  if (!(bus instanceof DistributedEventBus)) return undefined;
  return {
    name: 'events',
    check: async () => {
      const state = bus.state();
      return state.up ? { status: 'ok' } : { status: 'fail', reason: state.reason ?? 'listener disconnected' };
    },
  };
}
