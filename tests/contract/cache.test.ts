import { describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../../src/adapters/cache/memory-cache-store.js';
import { RedisCacheStore } from '../../src/adapters/cache/redis-cache-store.js';
import { SqlCacheStore } from '../../src/adapters/persistence/sql/sql-cache-store.js';
import { CacheService } from '../../src/application/cache/cache-service.js';
import type { Cache } from '../../src/ports/cache.js';
import type { CacheStore } from '../../src/ports/cache-store.js';
import type { Logger } from '../../src/ports/logger.js';
import { ManualClock, openTestDatabase } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';
import { connectRedis, deleteRedisPrefix, freshRedisPrefix, redisAvailable } from '../support/redis.js';

/**
 * Issue 52, the `Cache` port: one suite over the memory store, the app's database (SQLite and
 * PostgreSQL: `portico_cache`) and Redis, each behind the CacheService. Expiry follows the app's clock (a ManualClock here) on both; tags and prefixes
 * remove what they name and nothing else; 100 concurrent `getOrSet` of one key run `produce`
 * once; a value written through one connection is read through another; an unreadable
 * entry is a miss; a backend that fails answers misses, never errors.
 */
const redis = await redisAvailable();
const pg = await postgresAvailable();

interface Fixture {
  readonly cache: Cache;
  /** A second cache on the same backing store (another connection, another process's view). */
  readonly peer: Cache;
  readonly store: CacheStore;
  readonly clock: ManualClock;
  readonly warnings: string[];
  close(): Promise<void>;
}

function loggerInto(warnings: string[]): Logger {
  return { debug() {}, info() {}, warn: (_o, msg) => void warnings.push(msg ?? ''), error: (_o, msg) => void warnings.push(msg ?? '') };
}

const backends: Record<string, () => Promise<Fixture>> = {
  memory: async () => {
    const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
    const warnings: string[] = [];
    const store = new MemoryCacheStore(clock, 1024 * 1024);
    const cache = new CacheService(store, clock, loggerInto(warnings));
    return { cache, peer: cache, store, clock, warnings, close: async () => undefined };
  },
  ...Object.fromEntries(
    (pg ? (['sqlite', 'postgresql'] as const) : (['sqlite'] as const)).map((backend: 'sqlite' | 'postgresql') => [
      backend,
      async (): Promise<Fixture> => {
        const t = await openTestDatabase(backend);
        const warnings: string[] = [];
        const sql = t.db.sql as NonNullable<typeof t.db.sql>;
        const store = new SqlCacheStore(sql.knex, backend, t.clock);
        return {
          cache: new CacheService(store, t.clock, loggerInto(warnings)),
          peer: new CacheService(new SqlCacheStore(sql.knex, backend, t.clock), t.clock, loggerInto(warnings)),
          store,
          clock: t.clock,
          warnings,
          close: () => t.close(),
        };
      },
    ]),
  ),
  ...(redis
    ? {
        redis: async () => {
          const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
          const warnings: string[] = [];
          const prefix = freshRedisPrefix();
          const a = connectRedis();
          const b = connectRedis();
          await Promise.all([a.connect(), b.connect()]);
          const store = new RedisCacheStore(a, prefix);
          return {
            cache: new CacheService(store, clock, loggerInto(warnings)),
            peer: new CacheService(new RedisCacheStore(b, prefix), clock, loggerInto(warnings)),
            store,
            clock,
            warnings,
            async close() {
              try {
                await deleteRedisPrefix(a, prefix);
              } finally {
                await Promise.all([a.quit(), b.quit()]);
              }
            },
          };
        },
      }
    : {}),
};

describe.each(Object.keys(backends))('cache contract: %s', (name) => {
  const open = backends[name] as () => Promise<Fixture>;
  const withCache = (test: (f: Fixture) => Promise<void>) => async () => {
    const f = await open();
    try {
      await test(f);
    } finally {
      await f.close();
    }
  };

  it('CA-1 keeps bytes and JSON as given, and reads them through another connection', withCache(async ({ cache, peer }) => {
    const bytes = Uint8Array.from([0, 1, 2, 255, 254]);
    expect(await cache.set('bytes', bytes, { ttl: 60 })).toBe(true);
    expect(await cache.set('json', { n: 1, list: ['ünï', null, true], nested: { x: 1.5 } }, { ttl: 60 })).toBe(true);
    expect(await peer.get('bytes')).toEqual(bytes);
    expect(await peer.get('json')).toEqual({ n: 1, list: ['ünï', null, true], nested: { x: 1.5 } });
    expect(await peer.get('missing')).toBeUndefined();
    expect(await cache.delete('json')).toBe(true);
    expect(await cache.delete('json')).toBe(false);
    expect(await peer.get('json')).toBeUndefined();
  }));

  it('CA-2 expires a value when the app\'s clock passes its TTL, not before', withCache(async ({ cache, clock }) => {
    await cache.set('k', 'v', { ttl: 30 });
    clock.advance(29_999);
    expect(await cache.get('k')).toBe('v');
    clock.advance(1);
    expect(await cache.get('k')).toBeUndefined();
  }));

  it('CA-3 removes by tag and by prefix exactly what they name', withCache(async ({ cache, peer }) => {
    await cache.set('page:/a', 1, { ttl: 60, tags: ['post'] });
    await cache.set('page:/b', 2, { ttl: 60, tags: ['post', 'author'] });
    await cache.set('page:/c', 3, { ttl: 60, tags: ['author'] });
    await cache.set('other:/a', 4, { ttl: 60 });
    await peer.deleteTag('post');
    expect([await cache.get('page:/a'), await cache.get('page:/b'), await cache.get('page:/c'), await cache.get('other:/a')]).toEqual([undefined, undefined, 3, 4]);
    await cache.set('page:/*[x]', 5, { ttl: 60 });
    await peer.deletePrefix('page:/');
    expect([await cache.get('page:/c'), await cache.get('page:/*[x]'), await cache.get('other:/a')]).toEqual([undefined, undefined, 4]);
    await cache.clear();
    expect(await cache.get('other:/a')).toBeUndefined();
  }));

  it('CA-4 runs produce once for 100 concurrent getOrSet of one key, and serves the value after', withCache(async ({ cache, peer }) => {
    let runs = 0;
    const produce = async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { made: runs };
    };
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? cache : peer).getOrSet('cold', { ttl: 60 }, produce)));
    expect(runs).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set(['{"made":1}']));
    expect(await cache.getOrSet('cold', { ttl: 60 }, produce)).toEqual({ made: 1 });
    expect(runs).toBe(1);
    expect(cache.stats().hits).toBeGreaterThan(0);
  }));

  it('CA-5 a failing produce is the caller\'s error, keeps nothing, and the next call runs it again', withCache(async ({ cache }) => {
    await expect(cache.getOrSet('k', { ttl: 60 }, async () => Promise.reject(new Error('no database')))).rejects.toThrow('no database');
    expect(await cache.getOrSet('k', { ttl: 60 }, async () => 'made')).toBe('made');
  }));

  it('CA-6 keeps a key over 250 bytes under its digest, apart from a key that shares its start', withCache(async ({ cache }) => {
    const long = `k:${'x'.repeat(300)}`;
    await cache.set(long, 'long', { ttl: 60 });
    await cache.set(`${long}y`, 'longer', { ttl: 60 });
    expect(await cache.get(long)).toBe('long');
    expect(await cache.get(`${long}y`)).toBe('longer');
  }));

  it('CA-7 an unreadable entry is a miss; a TTL of 0 or below is refused', withCache(async ({ cache, store }) => {
    await store.set('corrupt', Uint8Array.from([9, 9, 9]), 60_000, []);
    expect(await cache.get('corrupt')).toBeUndefined();
    expect(await cache.getOrSet('corrupt', { ttl: 60 }, async () => 'fresh')).toBe('fresh');
    await expect(cache.set('k', 1, { ttl: 0 })).rejects.toThrow(/positive number of seconds/);
    await expect(cache.getOrSet('k', { ttl: -1 }, async () => 1)).rejects.toThrow(/positive number of seconds/);
  }));
});

describe('a cache whose backend fails', () => {
  it('answers misses and skips writes without throwing, with one warning a minute', async () => {
    const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
    const warnings: string[] = [];
    const down = connectRedis();
    down.on('error', () => undefined);
    down.disconnect();
    const cache = new CacheService(new RedisCacheStore(down, freshRedisPrefix()), clock, loggerInto(warnings));
    expect(await cache.get('k')).toBeUndefined();
    expect(await cache.set('k', 1, { ttl: 60 })).toBe(false);
    expect(await cache.getOrSet('k', { ttl: 60 }, async () => 'made anyway')).toBe('made anyway');
    expect(warnings).toHaveLength(1);
    clock.advance(60_000);
    await cache.get('k');
    expect(warnings).toHaveLength(2);
  });

  it('does not keep a value over the memory budget, and says so once', async () => {
    const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
    const warnings: string[] = [];
    const cache = new CacheService(new MemoryCacheStore(clock, 4096), clock, loggerInto(warnings));
    expect(await cache.set('big', new Uint8Array(2000), { ttl: 60 })).toBe(false);
    expect(await cache.set('big', new Uint8Array(2000), { ttl: 60 })).toBe(false);
    expect(await cache.get('big')).toBeUndefined();
    expect(warnings).toEqual(["cache: a value over the backend's size limit is not kept"]);
  });
});
