import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../src/adapters/events/memory-event-bus.js';
import { ConsoleMailer } from '../../../src/adapters/mail/console-mailer.js';
import { MemoryMailer } from '../../../src/adapters/mail/memory-mailer.js';
import { SmtpMailer } from '../../../src/adapters/mail/smtp-mailer.js';
import { parseDatabaseUrl } from '../../../src/adapters/persistence/database-url.js';
import { MemoryThrottleStore } from '../../../src/adapters/throttle/memory-throttle-store.js';
import { SqlThrottleStore } from '../../../src/adapters/throttle/sql-throttle-store.js';
import { systemClock } from '../../../src/adapters/system/system-clock.js';
import { chooseBackends, type BackendOptions } from '../../../src/composition/backends.js';
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

  it('events: the bus given, else the in-memory one', () => {
    const bus = new MemoryEventBus();
    expect(chooseBackends({ events: bus }, memory, noEnv).events).toEqual({ kind: 'given', bus });
    expect(chooseBackends({ events: 'memory' }, postgres, noEnv).events).toEqual({ kind: 'memory' });
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
