import { afterEach, describe, expect, it } from 'vitest';
import {
  auth,
  ConsoleMailer,
  createApp,
  MemoryMailer,
  sessions,
  type AppOptions,
  type PluginContext,
  type PorticoApp,
} from '../../src/index.js';
import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import { MemoryThrottleStore } from '../../src/adapters/throttle/memory-throttle-store.js';
import { RedisThrottleStore } from '../../src/adapters/throttle/redis-throttle-store.js';
import { SqlThrottleStore } from '../../src/adapters/throttle/sql-throttle-store.js';
import { token, TOKENS } from '../../src/composition/tokens.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';

const pg = await postgresAvailable();
const redis = await redisAvailable();

const apps: PorticoApp[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const fn of cleanups.splice(0)) await fn();
});

/** Starts an app with `options` and returns the context its one plugin installed with. */
async function contextOf(options: Partial<AppOptions> & { database: string }): Promise<PluginContext> {
  let seen: PluginContext | undefined;
  const app = createApp({ logRequests: false, autoMigrate: true, ...options }).use({ name: 'probe', install: (ctx) => void (seen = ctx) });
  apps.push(app);
  await app.start();
  if (!seen) throw new Error('the probe plugin did not install');
  return seen;
}

describe('createApp refuses an impossible backend choice', () => {
  it("throttleStore 'database' on a memory: database fails start() with a precise Error, and nothing is opened", async () => {
    const app = createApp({ database: 'memory:', throttleStore: 'database', logRequests: false }).use(sessions()).use(auth());
    apps.push(app);
    await expect(app.start()).rejects.toThrow(
      "throttleStore: 'database' keeps throttle counts in the app's SQL database, but the database is memory: (the in-memory store has none); " +
        "use throttleStore 'memory' or { redis: 'redis://host:6379' }, or a sqlite: or postgres:// database",
    );
    expect(() => app.db).toThrow('not ready');
  });

  it('a malformed Redis address fails listen() before anything connects', async () => {
    const app = createApp({ database: 'memory:', throttleStore: { redis: '127.0.0.1:6379' }, logRequests: false });
    apps.push(app);
    await expect(app.listen(0)).rejects.toThrow('throttleStore: { redis } must be a redis:// or rediss:// URL, got "127.0.0.1:6379"');
  });
});

describe('each backend choice reaches the plugins', () => {
  it('defaults: the in-memory throttle store, the console mailer, the in-memory event bus', async () => {
    const ctx = await contextOf({ database: 'memory:' });
    expect(ctx.throttleStore).toBeInstanceOf(MemoryThrottleStore);
    expect(ctx.mailer).toBeInstanceOf(ConsoleMailer);
    expect(ctx.events).toBeInstanceOf(MemoryEventBus);
    expect(ctx.get(TOKENS.ThrottleStore)).toBe(ctx.throttleStore);
  });

  it("throttleStore 'memory' on a SQL database stays in memory", async () => {
    expect((await contextOf({ database: 'sqlite::memory:', throttleStore: 'memory' })).throttleStore).toBeInstanceOf(MemoryThrottleStore);
  });

  it("throttleStore 'database' on SQLite counts in the app's database", async () => {
    const ctx = await contextOf({ database: 'sqlite::memory:', throttleStore: 'database' });
    expect(ctx.throttleStore).toBeInstanceOf(SqlThrottleStore);
    expect((await ctx.throttleStore.hit('backends-sqlite', 60_000)).count).toBe(1);
    expect(await ctx.store.count('auth_throttle')).toBe(1);
  });

  it.skipIf(!pg)("throttleStore 'database' on PostgreSQL counts in the app's database", async () => {
    const schema = freshPgSchema();
    cleanups.push(() => schema.drop());
    const ctx = await contextOf({ database: schema.url, throttleStore: 'database' });
    expect(ctx.throttleStore).toBeInstanceOf(SqlThrottleStore);
    expect((await ctx.throttleStore.hit('backends-pg', 60_000)).count).toBe(1);
    expect(await ctx.store.count('auth_throttle')).toBe(1);
  });

  it.skipIf(!redis)('{ redis } counts in Redis, and close() closes the connection', async () => {
    const ctx = await contextOf({ database: 'memory:', throttleStore: { redis: REDIS_URL } });
    expect(ctx.throttleStore).toBeInstanceOf(RedisThrottleStore);
    const key = `backends-${Date.now()}-${Math.random()}`;
    expect((await ctx.throttleStore.hit(key, 60_000)).count).toBe(1);
    await ctx.throttleStore.reset(key);
    for (const app of apps.splice(0)) await app.close();
    await expect(ctx.throttleStore.hit(key, 60_000)).rejects.toThrow();
  });

  it('the instances given are the ones every plugin sees', async () => {
    const throttleStore = new MemoryThrottleStore({ now: () => new Date() });
    const mailer = new MemoryMailer();
    const events = new MemoryEventBus();
    const ctx = await contextOf({ database: 'memory:', throttleStore, mailer, events });
    expect(ctx.throttleStore).toBe(throttleStore);
    expect(ctx.mailer).toBe(mailer);
    expect(ctx.events).toBe(events);
  });
});

describe('plugins share services through typed tokens', () => {
  const Greeting = token<{ readonly text: string }>('test.Greeting');

  it('a plugin binds a token, a later one resolves it', async () => {
    let heard = '';
    const app = createApp({ database: 'memory:', logRequests: false })
      .use({ name: 'speaker', install: (ctx) => ctx.bindFactory(Greeting, (get) => ({ text: `hello from ${get(TOKENS.DatabaseConfig).kind}` })) })
      .use({ name: 'listener', install: (ctx) => void (heard = ctx.get(Greeting).text) });
    apps.push(app);
    await app.start();
    expect(heard).toBe('hello from memory');
  });

  it('resolving a token nobody bound names the plugin and the token', async () => {
    const app = createApp({ database: 'memory:', logRequests: false }).use({ name: 'listener', install: (ctx) => void ctx.get(Greeting) });
    apps.push(app);
    await expect(app.start()).rejects.toThrow('listener: nothing is bound to portico.test.Greeting; mount the plugin that binds it before this one');
  });

  it('a token is bound once', async () => {
    const app = createApp({ database: 'memory:', logRequests: false }).use(sessions()).use(sessions());
    apps.push(app);
    await expect(app.start()).rejects.toThrow('sessions: portico.Sessions is already bound (is a plugin mounted twice?)');
  });

  it('auth() still needs sessions() before it', async () => {
    const app = createApp({ database: 'memory:', logRequests: false }).use(auth());
    apps.push(app);
    await expect(app.start()).rejects.toThrow('the auth plugin needs sessions() mounted before it');
  });
});
