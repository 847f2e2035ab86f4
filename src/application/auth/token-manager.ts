import type { Row, Value } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, Write } from '../../ports/record-store.js';
import { encodeToken, hashToken } from './secrets.js';

/** How long a resolved bearer token is trusted without asking the database, and how many are kept. */
export interface TokenCacheOptions {
  /** Seconds (default 5; 0 turns the cache off). A revocation in another process takes effect within this time. */
  readonly seconds?: number;
  /** Most tokens kept (default 10 000; the oldest go first). */
  readonly size?: number;
}

/**
 * Bearer tokens (table `auth_token`, DESIGN §3 "bearer tokens"): random, returned once at
 * login, stored only as a SHA-256, revoked at logout. Resolving a token is one statement (the
 * token's user, joined in the database), then trusted for a few seconds by its hash; a
 * revocation in this process takes effect at once.
 *
 * @example
 * const token = await tokens.issue(user.id);           // Authorization: Bearer <token>
 * const { token, write } = tokens.mint(user.id);      // stored once `write` is made
 * const user = await tokens.resolve(token);            // null when unknown or revoked
 */
export class TokenManager {
  private readonly cache = new Map<string, { readonly user: Row; readonly until: number }>();
  private readonly ttlMs: number;
  private readonly size: number;

  constructor(
    private readonly store: RecordStore,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    options: TokenCacheOptions = {},
  ) {
    this.ttlMs = (options.seconds ?? 5) * 1000;
    this.size = options.size ?? 10_000;
  }

  async issue(userId: Value): Promise<string> {
    const { token, write } = this.mint(userId);
    await this.store.writeTogether([write]);
    return token;
  }

  /**
   * A new token for `userId` and the write that stores it, for a caller that makes the write
   * with others (`LogIn`'s grant). The token is valid once the write is.
   */
  mint(userId: Value): { readonly token: string; readonly write: Write } {
    const token = encodeToken(this.random.bytes(32));
    return { token, write: { insert: 'auth_token', row: { token_hash: hashToken(token), user_id: userId } } };
  }

  /** The active user holding `token`, or null. */
  async resolve(token: string): Promise<Row | null> {
    if (!plausible(token)) return null;
    const hash = hashToken(token);
    const now = this.clock.now().getTime();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.user;
    this.cache.delete(hash);
    const [user] = await this.store.findReferenced('auth_token', 'user_id', { column: 'token_hash', op: 'eq', value: hash });
    if (!user || user.is_active !== true) return null;
    if (this.ttlMs > 0) {
      if (this.cache.size >= this.size) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, { user, until: now + this.ttlMs });
    }
    return user;
  }

  /** Revokes `token`; false when it was not live. */
  async revoke(token: string): Promise<boolean> {
    if (!plausible(token)) return false;
    const hash = hashToken(token);
    this.cache.delete(hash);
    const [row] = await this.store.find('auth_token', { where: { column: 'token_hash', op: 'eq', value: hash }, limit: 1 });
    return row ? this.store.delete('auth_token', row.id ?? null) : false;
  }
}

const plausible = (token: string): boolean => token.length >= 20 && token.length <= 100;
