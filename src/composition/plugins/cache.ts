import { MemoryCacheStore } from '../../adapters/cache/memory-cache-store.js';
import { connectRedisCacheStore } from '../../adapters/cache/redis-cache-store.js';
import { SqlCacheStore } from '../../adapters/persistence/sql/sql-cache-store.js';
import { CacheService } from '../../application/cache/cache-service.js';
import { checkPageRule, type PageCacheRule } from '../../domain/cache/page-rules.js';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface CacheOptions {
  /**
   * `memory:` (the default: this process only), `database` (the `portico_cache` table of the app's
   * own SQLite or PostgreSQL database) or `redis://host:6379`; the last two are shared by every
   * process on them.
   */
  readonly url?: string;
  /** The memory backend's byte budget (default 64 MiB; one value may take a quarter of it). */
  readonly maxBytes?: number;
  /** The Redis key namespace (default `portico:cache:`): apps sharing a Redis keep apart by it. */
  readonly namespace?: string;
  /** A backend of the host's own, in place of `url`. */
  readonly store?: CacheStore;
}

/**
 * The app's cache (issue 52): `app.cache` and the `Cache` token, on this process's memory (an
 * LRU with a byte budget) or on Redis. It fails open: a Redis that cannot be reached makes reads
 * misses and skips writes, with one warning a minute.
 *
 * @example
 * app.use(cache({ url: process.env.CACHE_URL ?? 'memory:' }));
 * const stats = await app.cache.getOrSet('stats', { ttl: 30 }, () => computeStats());
 */
export function cache(options: CacheOptions = {}): Plugin {
  const url = options.url ?? 'memory:';
  if (!options.store && url !== 'memory:' && url !== 'database' && !/^rediss?:\/\//.test(url)) throw new Error(`cache: url is memory:, database or redis://host:port, got ${JSON.stringify(url)}`);
  if (options.maxBytes !== undefined && (!Number.isSafeInteger(options.maxBytes) || options.maxBytes < 1024)) throw new Error(`cache: maxBytes is a whole number of bytes of at least 1024, got ${String(options.maxBytes)}`);
  return {
    name: 'cache',
    async install(ctx) {
      let store = options.store;
      if (!store && url === 'memory:') store = new MemoryCacheStore(ctx.get(TOKENS.Clock), options.maxBytes);
      if (!store && url === 'database') {
        const sql = ctx.get(TOKENS.Database).sql;
        if (!sql) throw new Error("cache: url 'database' keeps the cache in the app's SQL database, but the database is memory:; use memory: or redis://");
        store = new SqlCacheStore(sql.knex, sql.dialect, ctx.get(TOKENS.Clock));
      }
      if (!store) {
        const redis = await connectRedisCacheStore(url, options.namespace);
        ctx.onClose(() => redis.close());
        store = redis.store;
      }
      const chosen = store;
      ctx.bindFactory(TOKENS.Cache, (get) => new CacheService(chosen, get(TOKENS.Clock), ctx.logger));
    },
  };
}

/**
 * A route's page cache (issue 52): GET and HEAD answers to callers without credentials kept for
 * `ttl` seconds in the app's cache (mount cache()), with `Age` on a hit, keyed by host, path,
 * sorted query and the `vary` headers; never an answer that sets a cookie or is `private` or
 * `no-store`; dropped when a write to a `dependsOn` model commits, in every process on a shared
 * bus and cache. A TTL of 0 or less throws.
 *
 * @example
 * ctx.route({ method: 'GET', path: '/stats', cache: cachePage({ ttl: 30, dependsOn: ['post'] }), handler });
 */
export function cachePage(rule: PageCacheRule): PageCacheRule {
  return checkPageRule(rule, 'a route');
}
