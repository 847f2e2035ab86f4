import { pageTag, type PageCacheRule } from '../../domain/cache/page-rules.js';
import type { Cache } from '../../ports/cache.js';
import type { EventBus } from '../../ports/event-bus.js';

/** A kept answer: what is written back on a hit. */
export interface CachedPage {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as base64 (any bytes). */
  readonly body: string;
  /** When it was kept (epoch ms of the app's clock). */
  readonly storedAt: number;
  readonly ttl: number;
}

/**
 * Pages kept in the app's cache (issue 52, `cachePage`): a lookup, a store under the tags of the
 * models the route depends on, and the invalidation those tags get from committed signals (on a
 * bus that spans processes, a write in one process drops the pages every process kept).
 * Concurrent misses of one page in a process wait for the first one's answer.
 */
export class CachedPages {
  private readonly filling = new Map<string, Promise<void>>();

  constructor(
    private readonly cache: Cache,
    private readonly now: () => number,
  ) {}

  async lookup(key: string): Promise<{ page: CachedPage; age: number; left: number } | undefined> {
    const found = await this.cache.get(key);
    if (!isPage(found)) return undefined;
    const age = Math.max(0, Math.floor((this.now() - found.storedAt) / 1000));
    return { page: found, age, left: Math.max(0, Math.ceil(found.ttl - age)) };
  }

  async store(key: string, page: Omit<CachedPage, 'storedAt' | 'ttl'>, rule: PageCacheRule): Promise<void> {
    const kept: CachedPage = { ...page, storedAt: this.now(), ttl: rule.ttl };
    await this.cache.set(key, kept as unknown as Parameters<Cache['set']>[1], { ttl: rule.ttl, tags: (rule.dependsOn ?? []).map(pageTag) });
  }

  /** Runs `work` as the one fill of `key` in this process; a concurrent caller gets the running fill's promise instead (then looks up again). */
  fill(key: string, work: () => Promise<void>): { readonly first: boolean; readonly done: Promise<void> } {
    const running = this.filling.get(key);
    if (running) return { first: false, done: running };
    const done = work().finally(() => this.filling.delete(key));
    this.filling.set(key, done);
    return { first: true, done };
  }

  /** Drops the pages of routes depending on `tables` whenever a write to one of them commits. */
  follow(events: EventBus, tables: Iterable<string>): void {
    for (const table of new Set(tables)) {
      for (const signal of ['post_save', 'post_delete'] as const) events.onCommitted(signal, table, () => this.cache.deleteTag(pageTag(table)));
    }
  }
}

function isPage(value: unknown): value is CachedPage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === 'number' && typeof v.body === 'string' && typeof v.storedAt === 'number' && typeof v.ttl === 'number' && typeof v.headers === 'object' && v.headers !== null;
}
