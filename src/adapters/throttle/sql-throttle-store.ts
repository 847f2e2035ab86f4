import type { Knex } from '@mikro-orm/knex';
import type { Clock } from '../../ports/clock.js';
import type { ThrottleHit, ThrottleStore } from '../../ports/throttle-store.js';
import { parseTimestampText } from '../../domain/model/values.js';

/** The upsert of one hit, with `ts` the placeholder of a timestamp (a cast on PostgreSQL). */
function hitSql(ts: string): string {
  // Joined with spaces, not newlines: MikroORM's SQLite dialect fetches the rows of a raw
  // `insert into …` only when the text contains ' returning ' with a space on each side.
  return [
    `insert into "auth_throttle" ("key", "hits", "window_ends_at") values (?, 1, ${ts})`,
    `on conflict ("key") do update set`,
    `"hits" = case when "auth_throttle"."window_ends_at" <= ${ts} then 1 else "auth_throttle"."hits" + 1 end,`,
    `"window_ends_at" = case when "auth_throttle"."window_ends_at" <= ${ts} then ${ts} else "auth_throttle"."window_ends_at" end`,
    `returning "hits", "window_ends_at"`,
  ].join(' ');
}

/**
 * One statement per hit, so concurrent hits from any number of processes are serialised by the
 * database on the primary key: the first hit inserts the row; a later hit either counts in the
 * current window or, when that window has ended (`window_ends_at <= now`), starts a new one.
 * Every right-hand side of the `set` reads the row as it was before the update.
 * Bindings: key, new window end, now, now, new window end.
 */
const HIT_SQL = { sqlite: hitSql('?'), postgresql: hitSql('?::timestamptz') } as const;

/**
 * ThrottleStore on the `auth_throttle` table of a SQLite or PostgreSQL database, shared by every
 * process on that database. Each `hit` is one atomic `insert … on conflict (key) do update …
 * returning` statement (SQLite ≥ 3.35, PostgreSQL ≥ 9.5), so there is no read-then-write race.
 * Time comes from the injected Clock (not the database clock) so every adapter, and tests,
 * agree on "now"; processes sharing a database should have synchronised clocks.
 *
 * Rows of keys that are never hit again stay in the table with an expired window; they are
 * harmless (the next hit restarts them) and can be removed with `deleteExpired`.
 */
export class SqlThrottleStore implements ThrottleStore {
  constructor(
    private readonly knex: Knex,
    private readonly dialect: 'sqlite' | 'postgresql',
    private readonly clock: Clock,
  ) {}

  async hit(key: string, windowMs: number): Promise<ThrottleHit> {
    if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive integer of milliseconds, got ${windowMs}`);
    }
    const now = this.clock.now().getTime();
    const nowValue = this.encode(now);
    const endValue = this.encode(now + windowMs);
    const result: unknown = await this.knex.raw(HIT_SQL[this.dialect], [key, endValue, nowValue, nowValue, endValue]);
    const row = rowsOf(result)[0];
    if (!row) throw new Error(`auth_throttle: the upsert of ${JSON.stringify(key)} returned no row`);
    const endsAt = decodeTimestamp(row['window_ends_at']);
    return { count: Number(row['hits']), resetInMs: Math.max(0, endsAt - now) };
  }

  async reset(key: string): Promise<void> {
    await this.knex('auth_throttle').where('key', key).del();
  }

  /**
   * Deletes the rows whose window has ended and returns how many; a housekeeping job may call it
   * so keys seen once do not accumulate. Not needed for correctness.
   */
  async deleteExpired(): Promise<number> {
    return this.knex('auth_throttle').where('window_ends_at', '<=', this.encode(this.clock.now().getTime())).del();
  }

  /** SQLite stores timestamps as epoch milliseconds; PostgreSQL takes ISO 8601 text for timestamptz. */
  private encode(epochMs: number): number | string {
    return this.dialect === 'sqlite' ? epochMs : new Date(epochMs).toISOString();
  }
}

/** knex's raw result: an array of rows on SQLite, a pg Result (`{ rows }`) on PostgreSQL. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return ((result as { rows?: Record<string, unknown>[] } | undefined)?.rows ?? []);
}

/**
 * Epoch milliseconds of a stored `window_ends_at`: a number (SQLite), a Date, or PostgreSQL's
 * timestamptz text (`2026-01-02 03:04:05.678+00`, `…+05:30`), which MikroORM's pg type parser
 * leaves as a string.
 */
function decodeTimestamp(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (raw instanceof Date) return raw.getTime();
  const text = String(raw);
  if (/^\d+$/.test(text)) return Number(text);
  const ms = parseTimestampText(text).getTime();
  if (Number.isNaN(ms)) throw new Error(`auth_throttle: unreadable window_ends_at ${JSON.stringify(text)}`);
  return ms;
}
