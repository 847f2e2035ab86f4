import type { Knex } from '@mikro-orm/knex';
import type { CacheStore } from '../../../ports/cache-store.js';
import type { Clock } from '../../../ports/clock.js';
import { SqlExecutor } from './sql-executor.js';

/** The largest entry the table keeps (base64 text; a cache of pages, not of files). */
const MAX_ENTRY_BYTES = 8 * 1024 * 1024;
/** One write in this many also sweeps the expired rows. */
const SWEEP_EVERY = 200;
const LOCK = '#lock:';

/** `text` as a LIKE pattern that matches it literally (with `escape '\'`). */
const literal = (text: string): string => text.replace(/[\\%_]/g, '\\$&');

/**
 * Cache entries in the `portico_cache` table of the app's own database (issue 52: SQLite, and
 * PostgreSQL alike), shared by every process on it. A write is one upsert; a read of an expired
 * row deletes it, and one write in 200 sweeps every expired row (the lazy sweep; the time is the
 * app's clock). Tags are kept as `|a|b|` and matched with LIKE; the fill lock is a row of its own,
 * taken by an upsert that only wins over an expired lock.
 */
export class SqlCacheStore implements CacheStore {
  readonly kind = 'database';
  readonly maxEntryBytes = MAX_ENTRY_BYTES;
  private readonly sql: SqlExecutor;
  private writes = 0;

  constructor(
    knex: Knex,
    dialect: 'sqlite' | 'postgresql',
    private readonly clock: Clock,
  ) {
    this.sql = new SqlExecutor(knex, dialect);
  }

  private now(): number {
    return this.clock.now().getTime();
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const [row] = await this.sql.query('select "entry", "expires_at" from "portico_cache" where "key" = ?', [key]);
    if (!row) return undefined;
    if (Number(row.expires_at) <= this.now()) {
      await this.sql.query('delete from "portico_cache" where "key" = ? and "expires_at" <= ?', [key, this.now()]);
      return undefined;
    }
    return Buffer.from(String(row.entry), 'base64');
  }

  async set(key: string, entry: Uint8Array, ttlMs: number, tags: readonly string[]): Promise<void> {
    const tagText = tags.length === 0 ? '' : `|${tags.map((t) => t.replaceAll('|', '')).join('|')}|`;
    await this.sql.query(
      'insert into "portico_cache" ("key", "entry", "expires_at", "tags") values (?, ?, ?, ?) on conflict ("key") do update set "entry" = excluded."entry", "expires_at" = excluded."expires_at", "tags" = excluded."tags"',
      [key, Buffer.from(entry.buffer, entry.byteOffset, entry.byteLength).toString('base64'), this.now() + ttlMs, tagText],
    );
    if (++this.writes % SWEEP_EVERY === 0) await this.sweep();
  }

  /** Deletes every expired row (the lazy sweep runs it; a periodic job may too). */
  async sweep(): Promise<void> {
    await this.sql.query('delete from "portico_cache" where "expires_at" <= ?', [this.now()]);
  }

  async delete(key: string): Promise<boolean> {
    return (await this.sql.query('delete from "portico_cache" where "key" = ? returning "key"', [key])).length > 0;
  }

  async deleteTag(tag: string): Promise<void> {
    await this.sql.query(`delete from "portico_cache" where "tags" like ? escape '\\'`, [`%|${literal(tag.replaceAll('|', ''))}|%`]);
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.sql.query(`delete from "portico_cache" where "key" like ? escape '\\'`, [`${literal(prefix)}%`]);
  }

  async clear(): Promise<void> {
    await this.sql.query('delete from "portico_cache"', []);
  }

  async lock(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const won = await this.sql.query(
      'insert into "portico_cache" ("key", "entry", "expires_at", "tags") values (?, \'\', ?, \'\') on conflict ("key") do update set "expires_at" = excluded."expires_at" where "portico_cache"."expires_at" <= ? returning "key"',
      [LOCK + key, now + ttlMs, now],
    );
    return won.length > 0;
  }

  async unlock(key: string): Promise<void> {
    await this.sql.query('delete from "portico_cache" where "key" = ?', [LOCK + key]);
  }
}
