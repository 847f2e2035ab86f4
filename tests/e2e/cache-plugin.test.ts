import { afterAll, describe, expect, it } from 'vitest';
import { cache, createApp, type PorticoApp } from '../../src/index.js';
import { freePort } from '../support/identity-providers.js';
import { connectRedis, deleteRedisPrefix, freshRedisPrefix, REDIS_URL, redisAvailable } from '../support/redis.js';

/**
 * Issue 52, `cache({ url })` in an app: `app.cache` on memory by default and on Redis, where two
 * apps (two processes' views) share values and removals; an unreachable Redis fails open; a url
 * it cannot use is refused when the app is built; `app.cache` without the plugin names it.
 */
const redis = await redisAvailable();
const apps: PorticoApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function started(url?: string, namespace?: string): Promise<PorticoApp> {
  const app = createApp({ database: 'sqlite::memory:', autoMigrate: true, logRequests: false }).use(cache({ ...(url ? { url } : {}), ...(namespace ? { namespace } : {}) }));
  apps.push(app);
  await app.start();
  return app;
}

describe('the cache() plugin', () => {
  it('is memory by default: values, tags and single flight through app.cache', async () => {
    const app = await started();
    expect(app.cache.backend).toBe('memory');
    let runs = 0;
    const made = await Promise.all(Array.from({ length: 20 }, () => app.cache.getOrSet('stats', { ttl: 30, tags: ['post'] }, async () => ({ posts: ++runs }))));
    expect(made.every((m) => JSON.stringify(m) === '{"posts":1}')).toBe(true);
    await app.cache.deleteTag('post');
    expect(await app.cache.get('stats')).toBeUndefined();
  });

  it.skipIf(!redis)('on Redis is shared by two apps, removals included', async () => {
    const namespace = freshRedisPrefix();
    const [a, b] = [await started(REDIS_URL, namespace), await started(REDIS_URL, namespace)];
    try {
      expect(a.cache.backend).toBe('redis');
      await a.cache.set('greeting', { hello: 'world' }, { ttl: 60, tags: ['t'] });
      expect(await b.cache.get('greeting')).toEqual({ hello: 'world' });
      await b.cache.deleteTag('t');
      expect(await a.cache.get('greeting')).toBeUndefined();
    } finally {
      const r = connectRedis();
      await r.connect();
      await deleteRedisPrefix(r, namespace);
      await r.quit();
    }
  });

  it("keeps it in the app's own database with url 'database' (the portico_cache table)", async () => {
    const app = await started('database');
    expect(app.cache.backend).toBe('database');
    await app.cache.set('k', { kept: true }, { ttl: 60, tags: ['t'] });
    expect(await app.cache.get('k')).toEqual({ kept: true });
    expect(await app.store.count('portico_cache')).toBe(1);
    await app.cache.deleteTag('t');
    expect(await app.store.count('portico_cache')).toBe(0);
  });

  it('starts with a Redis that cannot be reached and fails open: misses, skipped writes, produce still answers', async () => {
    const app = await started(`redis://127.0.0.1:${await freePort()}`);
    expect(await app.cache.get('k')).toBeUndefined();
    expect(await app.cache.set('k', 1, { ttl: 60 })).toBe(false);
    expect(await app.cache.getOrSet('k', { ttl: 60 }, async () => 'computed')).toBe('computed');
  });

  it('refuses a url it cannot use, and app.cache names the missing plugin', async () => {
    expect(() => cache({ url: 'memcached://x' })).toThrow(/memory:, database or redis:/);
    expect(() => cache({ maxBytes: 10 })).toThrow(/maxBytes/);
    const plain = createApp({ database: 'sqlite::memory:', logRequests: false });
    apps.push(plain);
    await plain.start();
    expect(() => plain.cache).toThrow(/cache\(\) plugin is not mounted/);
  });
});
