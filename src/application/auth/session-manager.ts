import type { JsonValue, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore } from '../../ports/record-store.js';
import { encodeToken, hashToken } from './secrets.js';

/** A message shown once on the next page (SPEC "Flash message"). */
export interface FlashMessage {
  readonly level: 'info' | 'success' | 'warning' | 'error';
  readonly body: string;
}

/** What a session carries besides its user. */
export type SessionData = { flash?: FlashMessage[] } & Record<string, JsonValue | FlashMessage[] | undefined>;

export interface SessionRecord {
  readonly id: Value;
  readonly userId: Value | null;
  readonly data: SessionData;
  readonly expiresAt: Date;
}

/** Sessions live 14 days (DESIGN §3 "session cookie"). */
export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Database-backed sessions (table `session`). The cookie carries a random token; the table
 * stores only its SHA-256, so a leaked table cannot be replayed as cookies.
 *
 * @example
 * const { token } = await sessions.create(user.id);   // set as the portico_session cookie
 * const record = await sessions.load(token);          // null when unknown or expired
 * const user = await sessions.userOf(token);          // the same session's active user, one statement
 * await sessions.purgeExpired();                      // periodically: expired sessions removed
 */
export class SessionManager {
  constructor(
    private readonly store: RecordStore,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  /** Starts a session and returns its token (shown once, never stored). */
  async create(userId: Value | null, data: SessionData = {}): Promise<{ token: string; record: SessionRecord }> {
    const token = encodeToken(this.random.bytes(32));
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_LIFETIME_MS);
    const row = await this.store.insert('session', {
      token_hash: hashToken(token),
      user_id: userId,
      data: data as JsonValue,
      expires_at: expiresAt,
    });
    return { token, record: toRecord(row) };
  }

  /** The live session of `token`, or null (an expired one is removed). */
  async load(token: string): Promise<SessionRecord | null> {
    if (!plausible(token)) return null;
    const [row] = await this.store.find('session', { where: { column: 'token_hash', op: 'eq', value: hashToken(token) }, limit: 1 });
    if (!row) return null;
    if ((row.expires_at as Date).getTime() <= this.clock.now().getTime()) {
      await this.store.delete('session', row.id ?? null);
      return null;
    }
    return toRecord(row);
  }

  /** Replaces the session's data. */
  async save(id: Value, data: SessionData): Promise<void> {
    await this.store.update('session', id, { data: data as JsonValue });
  }

  /** Ends the session. */
  async destroy(id: Value): Promise<void> {
    await this.store.delete('session', id);
  }

  /**
   * The active user of the live session of `token`, or null, in one statement (the user row through
   * the session's key): what a request that only identifies its caller needs, where `load` then
   * `user` take two. The session's own row is not read, and an expired one is left in place.
   */
  async userOf(token: string): Promise<Row | null> {
    if (!plausible(token)) return null;
    const live: Condition = {
      all: [
        { column: 'token_hash', op: 'eq', value: hashToken(token) },
        { column: 'expires_at', op: 'gt', value: this.clock.now() },
      ],
    };
    const [user] = await this.store.findReferenced('session', 'user_id', live);
    return user && user.is_active === true ? user : null;
  }

  /**
   * Removes every session expired by now, `batch` at a time (each removal a `post_delete` of
   * `session`, so streams watching one end); returns how many. Identification never removes an
   * expired session (`userOf` only reads): run this periodically (`portico clearsessions`, or a task).
   */
  async purgeExpired(batch = 500): Promise<number> {
    const size = Math.max(1, Math.floor(batch));
    let removed = 0;
    for (;;) {
      const expired = await this.store.find('session', { where: { column: 'expires_at', op: 'lte', value: this.clock.now() }, limit: size, columns: ['id'] });
      for (const row of expired) if (await this.store.delete('session', row.id ?? null)) removed++;
      if (expired.length < size) return removed;
    }
  }

  /** The active user of a session, or null. */
  async user(record: SessionRecord): Promise<Row | null> {
    if (record.userId === null) return null;
    const user = await this.store.getById('auth_user', record.userId);
    return user && user.is_active === true ? user : null;
  }
}

/** A session token's length is in this range; anything else is not worth a statement. */
const plausible = (token: string): boolean => token.length >= 20 && token.length <= 100;

function toRecord(row: Row): SessionRecord {
  return {
    id: row.id ?? null,
    userId: row.user_id ?? null,
    data: (row.data ?? {}) as SessionData,
    expiresAt: row.expires_at as Date,
  };
}
