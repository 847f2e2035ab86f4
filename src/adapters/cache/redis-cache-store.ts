import type { Redis } from 'ioredis';
import type { CacheStore } from '../../ports/cache-store.js';

/** Redis's own limit on one string value. */
const REDIS_MAX_VALUE = 512 * 1024 * 1024;
const SCAN_COUNT = 500;

/**
 * Writes an entry and adds it to each tag's set (KEYS[2..]), whose expiry is pushed to the
 * entry's when that is later, so a set outlives its members (works on Redis 6 too).
 */
const SET_TAGGED = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
for i = 2, #KEYS do
  redis.call('SADD', KEYS[i], KEYS[1])
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`;

/**
 * Removes the keys of a tag's set and the set itself, atomically. The keys are in the set's
 * members; a member whose key has expired is simply gone already.
 */
const DELETE_TAG = `
local keys = redis.call('SMEMBERS', KEYS[1])
for i = 1, #keys, 500 do
  redis.call('UNLINK', unpack(keys, i, math.min(i + 499, #keys)))
end
redis.call('UNLINK', KEYS[1])
return #keys
`;

/**
 * Cache entries in Redis (issue 52), shared by every process on the same Redis and namespace:
 * `SET … PX` per entry, a set per tag (`SADD` in the same script, expiring no sooner than its
 * longest entry), and
 * `SCAN … MATCH` for a prefix or a clear, never `KEYS`. The fill lock is `SET NX PX`.
 * The connection belongs to the caller, who also quits it.
 */
export class RedisCacheStore implements CacheStore {
  readonly kind = 'redis';
  readonly maxEntryBytes = REDIS_MAX_VALUE;

  constructor(
    private readonly redis: Redis,
    private readonly namespace = 'portico:cache:',
  ) {}

  private entryKey(key: string): string {
    return `${this.namespace}e:${key}`;
  }

  private tagKey(tag: string): string {
    return `${this.namespace}t:${tag}`;
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return (await this.redis.getBuffer(this.entryKey(key))) ?? undefined;
  }

  async set(key: string, entry: Uint8Array, ttlMs: number, tags: readonly string[]): Promise<void> {
    const bytes = Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength);
    if (tags.length === 0) await this.redis.set(this.entryKey(key), bytes, 'PX', ttlMs);
    else await this.redis.eval(SET_TAGGED, 1 + tags.length, this.entryKey(key), ...tags.map((t) => this.tagKey(t)), bytes, ttlMs);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.unlink(this.entryKey(key))) > 0;
  }

  async deleteTag(tag: string): Promise<void> {
    await this.redis.eval(DELETE_TAG, 1, this.tagKey(tag));
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.unlinkMatching(`${this.entryKey(escapeGlob(prefix))}*`);
  }

  async clear(): Promise<void> {
    await this.unlinkMatching(`${escapeGlob(this.namespace)}*`);
  }

  async lock(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.namespace}l:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async unlock(key: string): Promise<void> {
    await this.redis.unlink(`${this.namespace}l:${key}`);
  }

  /** SCAN through the keyspace (never KEYS, which blocks the server), unlinking each page's matches. */
  private async unlinkMatching(pattern: string): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
      cursor = next;
      if (keys.length > 0) await this.redis.unlink(...keys);
    } while (cursor !== '0');
  }
}

/** A glob pattern that matches `text` literally (Redis MATCH treats `*?[]\` specially). */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

/**
 * Connects to Redis at `url` and returns the cache store with the function that closes the
 * connection. ioredis is loaded here, only by apps that choose Redis.
 */
export async function connectRedisCacheStore(url: string, namespace?: string): Promise<{ readonly store: RedisCacheStore; close(): Promise<void> }> {
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
  // Errors are the cache's to report (it fails open, one warning a minute); ioredis keeps reconnecting.
  redis.on('error', () => undefined);
  // Commands are never queued while disconnected (a down Redis must answer misses at once): wait for
  // the first connection, a little, so that the first request is not a needless miss.
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    redis.once('ready', done);
    redis.once('error', done);
  });
  return { store: new RedisCacheStore(redis, namespace), close: async () => void (await redis.quit().catch(() => redis.disconnect())) };
}
