import type { JsonValue } from '../domain/model/types.js';

/** What a cache keeps: bytes, or a JSON value. */
export type CacheValue = Uint8Array | JsonValue;

/** How long a value is kept, and the tags it can be removed by. */
export interface CacheWrite {
  /** Seconds; a positive, finite number. */
  readonly ttl: number;
  /** Names to remove it by (`deleteTag`). */
  readonly tags?: readonly string[];
}

/**
 * The app's cache (issue 52): the memory of one process, or Redis shared by every process.
 * Values are bytes or JSON; a key of more than 250 bytes is kept under its digest. A value
 * that cannot be read back (corrupt, of another version) is a miss, and a backend that cannot be
 * reached fails open: a read is a miss and a write is skipped, with one warning a minute.
 *
 * @example
 * const stats = await app.cache.getOrSet('stats', { ttl: 30, tags: ['post'] }, async () => ({ posts: await app.store.count('post') }));
 * await app.cache.deleteTag('post'); // after posts change
 */
export interface Cache {
  /** The backend's name (`memory`, `redis`). */
  readonly backend: string;
  /** The value of `key`, or undefined (missing, expired, unreadable, or the backend is down). */
  get(key: string): Promise<CacheValue | undefined>;
  /** Keeps `value` under `key` for `ttl` seconds; false when it was not kept (over the backend's size limit, or the backend is down). */
  set(key: string, value: CacheValue, options: CacheWrite): Promise<boolean>;
  /** Removes `key`; true when it was there. */
  delete(key: string): Promise<boolean>;
  /** Removes every value written with `tag`. */
  deleteTag(tag: string): Promise<void>;
  /** Removes every key that starts with `prefix` (Redis: SCAN, never KEYS). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * The value of `key`; on a miss, `produce`'s, kept for `ttl`. Concurrent misses of one key in
   * this process run `produce` once; on Redis, processes take a short lock so that one of them
   * does, and the others wait a little for its value.
   */
  getOrSet<T extends CacheValue>(key: string, options: CacheWrite, produce: () => Promise<T>): Promise<T>;
  /** Removes everything this app keeps in the cache. */
  clear(): Promise<void>;
  /** Hits and misses of `get` and `getOrSet` in this process since it started. */
  stats(): { readonly hits: number; readonly misses: number };
}
