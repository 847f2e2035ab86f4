import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../src/adapters/events/memory-event-bus.js';
import { ConsoleMailer } from '../../../src/adapters/mail/console-mailer.js';
import { MemoryMailer } from '../../../src/adapters/mail/memory-mailer.js';
import { SmtpMailer } from '../../../src/adapters/mail/smtp-mailer.js';
import { parseDatabaseUrl } from '../../../src/adapters/persistence/database-url.js';
import { MemoryThrottleStore } from '../../../src/adapters/throttle/memory-throttle-store.js';
import { SqlThrottleStore } from '../../../src/adapters/throttle/sql-throttle-store.js';
import { systemClock } from '../../../src/adapters/system/system-clock.js';
import { chooseBackends, singleProcessWarnings, type BackendOptions } from '../../../src/composition/backends.js';
import { buildContainer } from '../../../src/composition/container.js';
import { TOKENS } from '../../../src/composition/tokens.js';
import { bindValue, resolve, resolveAsync } from '../../../src/composition/typed-container.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { BUILTIN_MIGRATIONS, BUILTIN_MODELS, ModelRegistry } from '../../../src/domain/model/index.js';

const memory = parseDatabaseUrl('memory:');
const sqlite = parseDatabaseUrl('sqlite::memory:');
const postgres = parseDatabaseUrl('postgres://u@127.0.0.1:5432/db');
const noEnv = {};

describe('chooseBackends: the one place a backend is chosen', () => {
  it('defaults: the store of the address, throttle counts in memory, the console mailer, the in-memory bus', () => {
    expect(chooseBackends({}, sqlite, noEnv)).toEqual({ store: sqlite, throttle: { kind: 'memory' }, mailer: { kind: 'console' }, events: { kind: 'memory' } });
    expect(chooseBackends({}, memory, noEnv).store).toEqual({ kind: 'memory' });
  });

  it("throttleStore 'memory' is the in-memory store on every database", () => {
    for (const db of [memory, sqlite, postgres]) expect(chooseBackends({ throttleStore: 'memory' }, db, noEnv).throttle).toEqual({ kind: 'memory' });
  });

  it("throttleStore 'database' is the SQL store on SQLite and PostgreSQL", () => {
    expect(chooseBackends({ throttleStore: 'database' }, sqlite, noEnv).throttle).toEqual({ kind: 'database' });
    expect(chooseBackends({ throttleStore: 'database' }, postgres, noEnv).throttle).toEqual({ kind: 'database' });
  });

  it("throttleStore 'database' on a memory: database is an error, not a silent fallback", () => {
    expect(() => chooseBackends({ throttleStore: 'database' }, memory, noEnv)).toThrow(
      "throttleStore: 'database' keeps throttle counts in the app's SQL database, but the database is memory: (the in-memory store has none); " +
        "use throttleStore 'memory' or { redis: 'redis://host:6379' }, or a sqlite: or postgres:// database",
    );
  });

  it('{ redis } is the Redis store; a malformed URL is an error', () => {
    expect(chooseBackends({ throttleStore: { redis: 'redis://127.0.0.1:6379' } }, memory, noEnv).throttle).toEqual({ kind: 'redis', url: 'redis://127.0.0.1:6379' });
    expect(chooseBackends({ throttleStore: { redis: 'rediss://cache:6380/1' } }, sqlite, noEnv).throttle).toEqual({ kind: 'redis', url: 'rediss://cache:6380/1' });
    expect(() => chooseBackends({ throttleStore: { redis: 'localhost:6379' } }, memory, noEnv)).toThrow('throttleStore: { redis } must be a redis:// or rediss:// URL, got "localhost:6379"');
  });

  it('a ThrottleStore given is used as it is; anything else is an error', () => {
    const given = new MemoryThrottleStore(systemClock);
    expect(chooseBackends({ throttleStore: given }, memory, noEnv).throttle).toEqual({ kind: 'given', store: given });
    const bogus: BackendOptions = JSON.parse('{"throttleStore":"redis"}'); // what a JavaScript caller can pass
    expect(() => chooseBackends(bogus, memory, noEnv)).toThrow(`throttleStore must be 'memory', 'database', { redis: url } or a ThrottleStore, got "redis"`);
  });

  it('mail: the mailer given, else SMTP when SMTP_URL is set (from MAIL_FROM), else the console', () => {
    const mailer = new MemoryMailer();
    expect(chooseBackends({ mailer }, memory, { SMTP_URL: 'smtp://mail:25' }).mailer).toEqual({ kind: 'given', mailer });
    expect(chooseBackends({}, memory, { SMTP_URL: 'smtp://mail:25', MAIL_FROM: 'App <a@b.c>' }).mailer).toEqual({ kind: 'smtp', url: 'smtp://mail:25', from: 'App <a@b.c>' });
    expect(chooseBackends({}, memory, { SMTP_URL: 'smtp://mail:25' }).mailer).toEqual({ kind: 'smtp', url: 'smtp://mail:25', from: 'Portico <no-reply@localhost>' });
    expect(chooseBackends({}, memory, { SMTP_URL: '' }).mailer).toEqual({ kind: 'console' });
  });

  it('events: the bus given is used as it is', () => {
    const bus = new MemoryEventBus();
    expect(chooseBackends({ events: bus }, memory, noEnv).events).toEqual({ kind: 'given', bus });
    expect(chooseBackends({ events: bus }, postgres, noEnv).events).toEqual({ kind: 'given', bus });
  });

  it("events by default: LISTEN/NOTIFY on a PostgreSQL database (its schema's channel), in memory on SQLite and memory:", () => {
    expect(chooseBackends({}, postgres, noEnv).events).toEqual({ kind: 'postgresql', url: 'postgres://u@127.0.0.1:5432/db' });
    const onSchema = parseDatabaseUrl('postgres://u@127.0.0.1:5432/db?schema=tenant_a');
    expect(chooseBackends({}, onSchema, noEnv).events).toEqual(chooseBackends({ events: 'postgresql' }, onSchema, noEnv).events);
    expect(chooseBackends({}, onSchema, noEnv).events).toMatchObject({ kind: 'postgresql', schema: 'tenant_a' });
    expect(chooseBackends({}, sqlite, noEnv).events).toEqual({ kind: 'memory' });
    expect(chooseBackends({}, memory, noEnv).events).toEqual({ kind: 'memory' });
  });

  it("events 'memory' opts out of the PostgreSQL default, and is the in-memory bus on every database", () => {
    for (const db of [memory, sqlite, postgres]) expect(chooseBackends({ events: 'memory' }, db, noEnv).events).toEqual({ kind: 'memory' });
  });

  it("events 'postgresql' listens on the app's own PostgreSQL database; on SQLite or memory: it is an error", () => {
    const onSchema = parseDatabaseUrl('postgres://u@127.0.0.1:5432/db?schema=tenant_a');
    expect(chooseBackends({ events: 'postgresql' }, onSchema, noEnv).events).toMatchObject({ kind: 'postgresql', schema: 'tenant_a' });
    expect(() => chooseBackends({ events: 'postgresql' }, sqlite, noEnv)).toThrow(/listens on the app's PostgreSQL database, but the database is SQLite/);
    expect(() => chooseBackends({ events: 'postgresql' }, memory, noEnv)).toThrow(/but the database is memory:/);
  });

  it('events { redis }: one channel per database, so apps sharing a Redis server do not hear each other; a malformed URL is an error', () => {
    const channel = (url: string) => (chooseBackends({ events: { redis: 'redis://127.0.0.1:6379' } }, parseDatabaseUrl(url), noEnv).events as { channel: string }).channel;
    expect(channel('postgres://u@h:5432/db?schema=a')).toBe(channel('postgres://other:secret@h:5432/db?schema=a'));
    expect(channel('postgres://u@h:5432/db?schema=a')).not.toBe(channel('postgres://u@h:5432/db?schema=b'));
    expect(channel('sqlite:./one.db')).not.toBe(channel('sqlite:./two.db'));
    expect(() => chooseBackends({ events: { redis: 'http://x' } }, sqlite, noEnv)).toThrow(/redis:\/\/ or rediss:\/\/ URL/);
    expect(() => chooseBackends({ events: 'kafka' as never }, sqlite, noEnv)).toThrow(/events must be/);
  });
});

describe('singleProcessWarnings: what holds for one process only, each line naming its fix', () => {
  const warnings = (options: BackendOptions, db = postgres) => singleProcessWarnings(chooseBackends(options, db, noEnv));

  it('PostgreSQL with its default bus and a shared throttle store: nothing to say', () => {
    expect(warnings({ throttleStore: 'database' })).toEqual([]);
    expect(warnings({ throttleStore: { redis: 'redis://127.0.0.1:6379' } })).toEqual([]);
    expect(warnings({ throttleStore: 'database', events: { redis: 'redis://127.0.0.1:6379' } }, sqlite)).toEqual([]);
  });

  it('the in-memory throttle store (the default): one line naming throttleStore', () => {
    const [line, ...rest] = warnings({});
    expect(rest).toEqual([]);
    expect(line).toMatch(/^throttle counts are kept in this process's memory: .*set throttleStore: 'database' \(the app's database\) or \{ redis: 'redis:\/\/host:6379' \}$/);
  });

  it("events: 'memory' chosen on PostgreSQL: one line naming the default it gave up and Redis", () => {
    expect(warnings({ throttleStore: 'database', events: 'memory' })).toEqual([
      "events: 'memory' was chosen on PostgreSQL: committed model signals and topics reach this process only: onCommitted handlers, GraphQL subscriptions, realtime channels and credential watches on another process miss its writes, and a bearer token it revokes stays valid there until auth({ tokenCache }) expires it (5 s by default); remove it for the default, events: 'postgresql' (LISTEN/NOTIFY on the app's database), or set events: { redis: 'redis://host:6379' }",
    ]);
  });

  it('SQLite: the in-memory bus (its only default) holds for one process only; with the default throttle store, two lines', () => {
    const lines = warnings({}, sqlite);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^throttle counts .*throttleStore: 'database'/);
    expect(lines[1]).toMatch(/^the event bus is in memory, which holds for one process only \(SQLite has no cross-process bus\): .*; for several processes set events: \{ redis: 'redis:\/\/host:6379' \}$/);
    expect(warnings({ throttleStore: 'database', events: 'memory' }, sqlite)).toEqual([lines[1]]);
  });

  it('memory: the records, then throttles and events, whose only shared option is Redis', () => {
    const lines = warnings({}, memory);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^database memory: keeps every record in this process .*use a sqlite: or postgres:\/\/ database$/);
    expect(lines[1]).toMatch(/set throttleStore: \{ redis: 'redis:\/\/host:6379' \}$/);
    expect(lines[1]).not.toContain("'database'");
    expect(lines[2]).toMatch(/^the event bus is in memory, which holds for one process only \(memory: has no cross-process bus\)/);
  });

  it('an instance the host gave is its own choice: no line for it', () => {
    expect(warnings({ throttleStore: new MemoryThrottleStore(systemClock), events: new MemoryEventBus() }, sqlite)).toEqual([]);
  });
});

/** A logger that keeps what is warned. */
function warnLog(): { readonly warned: string[]; readonly logger: { info(): void; warn(obj: object, msg?: string): void; error(): void; debug(): void } } {
  const warned: string[] = [];
  return { warned, logger: { info: () => undefined, warn: (_obj, msg) => void warned.push(msg ?? ''), error: () => undefined, debug: () => undefined } };
}

describe('the production warnings are logged when the app starts (the throttle store is resolved)', () => {
  const build = (settings: { production?: boolean }, env: Record<string, string> = {}) => {
    const log = warnLog();
    const container = buildContainer({ url: 'sqlite::memory:', registry: ModelRegistry.build(BUILTIN_MODELS), migrations: BUILTIN_MIGRATIONS, overrides: { logger: log.logger }, settings }, env);
    return { container, warned: log.warned };
  };

  it('in production: one warning per line of singleProcessWarnings, once', async () => {
    const { container, warned } = build({ production: true });
    await resolveAsync(container, TOKENS.Database);
    expect(warned).toEqual([]); // opening (as `portico migrate` does) is not starting
    await resolveAsync(container, TOKENS.ThrottleStore);
    expect(warned).toEqual(singleProcessWarnings(resolve(container, TOKENS.Backends)));
    expect(warned).toHaveLength(2);
    await resolveAsync(container, TOKENS.ThrottleStore);
    expect(warned).toHaveLength(2);
    await container.unbindAll();
  });

  it('NODE_ENV=production is production; development (and tests) say nothing', async () => {
    const cases = [
      { app: build({}, { NODE_ENV: 'production' }), lines: 2 },
      { app: build({}, { NODE_ENV: 'test' }), lines: 0 },
      { app: build({}), lines: 0 },
      { app: build({ production: false }, { NODE_ENV: 'production' }), lines: 0 },
    ];
    for (const { app, lines } of cases) {
      await resolveAsync(app.container, TOKENS.ThrottleStore);
      expect(app.warned).toHaveLength(lines);
      await app.container.unbindAll();
    }
  });
});

const input = (url: string, overrides: BackendOptions = {}) => ({
  url,
  registry: ModelRegistry.build(BUILTIN_MODELS),
  migrations: BUILTIN_MIGRATIONS,
  overrides: { ...overrides, logger: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } },
  settings: {},
});

describe('the container binds what chooseBackends chose', () => {
  it('refuses an impossible choice when the container is built, before anything is opened', () => {
    expect(() => buildContainer(input('memory:', { throttleStore: 'database' }), noEnv)).toThrow("throttleStore: 'database' keeps throttle counts in the app's SQL database, but the database is memory:");
  });

  it('memory: the in-memory throttle store, console mailer and in-memory bus', async () => {
    const container = buildContainer(input('memory:'), noEnv);
    await resolveAsync(container, TOKENS.Database);
    expect(await resolveAsync(container, TOKENS.ThrottleStore)).toBeInstanceOf(MemoryThrottleStore);
    expect(resolve(container, TOKENS.Mailer)).toBeInstanceOf(ConsoleMailer);
    expect(resolve(container, TOKENS.Events)).toBeInstanceOf(MemoryEventBus);
    expect(resolve(container, TOKENS.Store)).toBe(resolve(container, TOKENS.Database).store);
    await container.unbindAll();
  });

  it("'database' on SQLite: the SQL throttle store on the app's own connection; SMTP from the environment", async () => {
    const container = buildContainer(input('sqlite::memory:', { throttleStore: 'database' }), { SMTP_URL: 'smtp://127.0.0.1:2525' });
    const db = await resolveAsync(container, TOKENS.Database);
    await db.migrate();
    const store = await resolveAsync(container, TOKENS.ThrottleStore);
    expect(store).toBeInstanceOf(SqlThrottleStore);
    expect((await store.hit('k', 60_000)).count).toBe(1);
    expect(resolve(container, TOKENS.Mailer)).toBeInstanceOf(SmtpMailer);
    await container.unbindAll();
  });

  it('the instances given are the ones bound', async () => {
    const throttleStore = new MemoryThrottleStore(systemClock);
    const mailer = new MemoryMailer();
    const events = new MemoryEventBus();
    const container = buildContainer(input('memory:', { throttleStore, mailer, events }), noEnv);
    expect(await resolveAsync(container, TOKENS.ThrottleStore)).toBe(throttleStore);
    expect(resolve(container, TOKENS.Mailer)).toBe(mailer);
    expect(await resolveAsync(container, TOKENS.Events)).toBe(events);
  });
});

describe('typed tokens', () => {
  it('resolve to the type bound to them, and refuse a value of another type at compile time', () => {
    const container = buildContainer(input('memory:'), noEnv);
    expect(resolve(container, TOKENS.Clock).now()).toBeInstanceOf(Date);
    // Compiled, never run: tsc fails the build if either line stops being an error.
    const typeChecks = (): RecordStore => {
      // @ts-expect-error a string is not a Clock
      bindValue(container, TOKENS.Clock, 'not a clock');
      // @ts-expect-error the Clock token does not resolve to a RecordStore
      return resolve(container, TOKENS.Clock);
    };
    expect(typeChecks).toBeTypeOf('function');
  });
});
