import { createHash } from 'node:crypto';
import { checkTtl, decodeEntry, encodeEntry, MAX_KEY_BYTES } from '../../domain/cache/cache-entry.js';
import type { Cache, CacheValue, CacheWrite } from '../../ports/cache.js';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';

/** How long a process waits for another one's fill of a key before producing the value itself. */
const FILL_WAIT_MS = 2000;
const FILL_POLL_MS = 25;
/** At most one warning a minute about a backend that cannot be reached. */
const WARN_EVERY_MS = 60_000;

/**
 * The `Cache` use case over a `CacheStore` (issue 52): long keys digested, values encoded with
 * the times of the app's clock (an expired or unreadable entry is a miss), single flight per
 * process and, where the store can lock, across processes. It fails open: a store error makes a
 * read a miss and skips a write, with one warning a minute; `produce`'s own errors are the caller's.
 */
export class CacheService implements Cache {
  private readonly filling = new Map<string, Promise<CacheValue>>();
  private readonly tooLarge = new Set<string>();
  private lastWarning = Number.NEGATIVE_INFINITY;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly store: CacheStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  get backend(): string {
    return this.store.kind;
  }

  async get(key: string): Promise<CacheValue | undefined> {
    const found = await this.read(storeKey(key));
    if (found === undefined) this.misses++;
    else this.hits++;
    return found;
  }

  async set(key: string, value: CacheValue, options: CacheWrite): Promise<boolean> {
    return this.write(storeKey(key), key, value, options);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.guarded('delete', () => this.store.delete(storeKey(key)))) ?? false;
  }

  async deleteTag(tag: string): Promise<void> {
    await this.guarded('deleteTag', () => this.store.deleteTag(tag));
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.guarded('deletePrefix', () => this.store.deletePrefix(prefix));
  }

  async clear(): Promise<void> {
    await this.guarded('clear', () => this.store.clear());
  }

  stats(): { readonly hits: number; readonly misses: number } {
    return { hits: this.hits, misses: this.misses };
  }

  async getOrSet<T extends CacheValue>(key: string, options: CacheWrite, produce: () => Promise<T>): Promise<T> {
    checkTtl(options.ttl, `cache.getOrSet(${JSON.stringify(key.slice(0, 80))})`);
    const k = storeKey(key);
    const found = await this.read(k);
    if (found !== undefined) {
      this.hits++;
      return found as T;
    }
    this.misses++;
    const running = this.filling.get(k);
    if (running) return running as Promise<T>;
    const fill = this.fill(k, key, options, produce).finally(() => this.filling.delete(k));
    this.filling.set(k, fill);
    return fill;
  }

  /** Produces and keeps the value of a missed key; where another process holds the key's lock, waits a little for its value first. */
  private async fill<T extends CacheValue>(k: string, key: string, options: CacheWrite, produce: () => Promise<T>): Promise<T> {
    const locked = (await this.guarded('lock', () => this.store.lock(k, FILL_WAIT_MS))) ?? true;
    if (!locked) {
      for (let waited = 0; waited < FILL_WAIT_MS; waited += FILL_POLL_MS) {
        await new Promise((resolve) => setTimeout(resolve, FILL_POLL_MS));
        const filled = await this.read(k);
        if (filled !== undefined) return filled as T;
      }
    }
    try {
      const value = await produce();
      await this.write(k, key, value, options);
      return value;
    } finally {
      if (locked) await this.guarded('unlock', () => this.store.unlock(k));
    }
  }

  private async read(k: string): Promise<CacheValue | undefined> {
    const bytes = await this.guarded('get', () => this.store.get(k));
    if (bytes === undefined) return undefined;
    const entry = decodeEntry(bytes);
    if (!entry || entry.expiresAt <= this.clock.now().getTime()) return undefined;
    return entry.value;
  }

  private async write(k: string, key: string, value: CacheValue, options: CacheWrite): Promise<boolean> {
    checkTtl(options.ttl, `cache.set(${JSON.stringify(key.slice(0, 80))})`);
    const now = this.clock.now().getTime();
    const ttlMs = Math.ceil(options.ttl * 1000);
    const entry = encodeEntry({ value, storedAt: now, expiresAt: now + ttlMs });
    if (entry.byteLength > this.store.maxEntryBytes) {
      // Logged once per key (a bounded set): the value is simply not kept.
      if (!this.tooLarge.has(k) && this.tooLarge.size < 1000) {
        this.tooLarge.add(k);
        this.logger.warn({ key: key.slice(0, 120), bytes: entry.byteLength, limit: this.store.maxEntryBytes }, 'cache: a value over the backend\'s size limit is not kept');
      }
      return false;
    }
    const done = await this.guarded('set', async () => {
      await this.store.set(k, entry, ttlMs, options.tags ?? []);
      return true;
    });
    return done ?? false;
  }

  /** Runs a store call; its failure is a warning (one a minute) and an undefined answer, never an error. */
  private async guarded<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      const now = this.clock.now().getTime();
      if (now - this.lastWarning >= WARN_EVERY_MS) {
        this.lastWarning = now;
        this.logger.warn({ backend: this.store.kind, operation: what, err: error instanceof Error ? error.message : String(error) }, 'cache: the backend cannot be reached; answering without it');
      }
      return undefined;
    }
  }
}

/** The key a store keeps: the key itself up to 250 bytes, else its SHA-256 (prefixed, so it cannot meet a short key). */
function storeKey(key: string): string {
  if (Buffer.byteLength(key) <= MAX_KEY_BYTES) return key;
  return `#sha256:${createHash('sha256').update(key).digest('hex')}`;
}
