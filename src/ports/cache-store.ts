/**
 * Where cache entries live (issue 52), as bytes: the backend under the `Cache` use case, which
 * encodes values, checks expiry with the app's clock and runs single flight. `ttlMs` lets a
 * backend reclaim space; a read may still return an entry past it (the use case checks).
 */
export interface CacheStore {
  /** `memory` or `redis`. */
  readonly kind: string;
  /** The most bytes one entry may take (larger ones are not stored). */
  readonly maxEntryBytes: number;
  get(key: string): Promise<Uint8Array | undefined>;
  set(key: string, entry: Uint8Array, ttlMs: number, tags: readonly string[]): Promise<void>;
  delete(key: string): Promise<boolean>;
  deleteTag(tag: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  clear(): Promise<void>;
  /** Takes the fill lock of `key` for `ttlMs` where the backend spans processes: true when this caller holds it (always, in memory). */
  lock(key: string, ttlMs: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
}
