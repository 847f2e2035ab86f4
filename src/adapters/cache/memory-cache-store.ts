import { LRUCache } from 'lru-cache';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';

/**
 * Cache entries in this process's memory (issue 52): `lru-cache` with a byte budget (the least
 * recently used entries go first) and each entry's TTL, timed by the app's clock. Tags are an
 * index of keys per tag, dropped with their entries.
 */
export class MemoryCacheStore implements CacheStore {
  readonly kind = 'memory';
  readonly maxEntryBytes: number;
  private readonly entries: LRUCache<string, Uint8Array>;
  private readonly byTag = new Map<string, Set<string>>();
  private readonly tagsOf = new Map<string, readonly string[]>();

  constructor(clock: Clock, maxBytes = 64 * 1024 * 1024) {
    this.maxEntryBytes = Math.floor(maxBytes / 4);
    this.entries = new LRUCache<string, Uint8Array>({
      maxSize: maxBytes,
      maxEntrySize: this.maxEntryBytes,
      sizeCalculation: (value, key) => value.byteLength + key.length * 2,
      perf: { now: () => clock.now().getTime() },
      ttlResolution: 0,
      dispose: (_value, key) => this.untag(key),
    });
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, entry: Uint8Array, ttlMs: number, tags: readonly string[]): Promise<void> {
    this.entries.set(key, entry, { ttl: ttlMs });
    if (!this.entries.has(key)) return;
    this.tagsOf.set(key, tags);
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  async delete(key: string): Promise<boolean> {
    return this.entries.delete(key);
  }

  async deleteTag(tag: string): Promise<void> {
    for (const key of [...(this.byTag.get(tag) ?? [])]) this.entries.delete(key);
    this.byTag.delete(tag);
  }

  async deletePrefix(prefix: string): Promise<void> {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  async clear(): Promise<void> {
    this.entries.clear();
    this.byTag.clear();
    this.tagsOf.clear();
  }

  async lock(): Promise<boolean> {
    return true;
  }

  async unlock(): Promise<void> {}

  private untag(key: string): void {
    for (const tag of this.tagsOf.get(key) ?? []) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
    this.tagsOf.delete(key);
  }
}
