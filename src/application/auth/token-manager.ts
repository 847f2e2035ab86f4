import type { Row, Value } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus, SignalEvent } from '../../ports/event-bus.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore, Write } from '../../ports/record-store.js';
import { encodeToken, hashToken } from './secrets.js';

/** How long a resolved bearer token is trusted without asking the database, and how many are kept. */
export interface TokenCacheOptions {
  /**
   * Seconds (default 5; 0 turns the cache off). A revocation or a change to a user made in another
   * process takes effect within this time, or as soon as a cross-process event bus reports it.
   */
  readonly seconds?: number;
  /** Most tokens kept (default 10 000; the oldest go first). */
  readonly size?: number;
}

/**
 * Bearer tokens (table `auth_token`, DESIGN §3 "bearer tokens"): random, returned once at
 * login, stored only as a SHA-256, revoked at logout. Resolving a token is one statement (the
 * token's user, joined in the database), then trusted for a few seconds by its hash; a
 * revocation in this process takes effect at once. Given the app's event bus, the cache also
 * forgets a token once its row is deleted, and a user's tokens once the user's row is saved or
 * deleted (deactivated, demoted, renamed, stamped at a login): at once for writes made in this
 * process, and as soon as the bus delivers them for writes made in another (a cross-process bus);
 * the window bounds what no bus reports.
 *
 * @example
 * const token = await tokens.issue(user.id);           // Authorization: Bearer <token>
 * const { token, write } = tokens.mint(user.id);      // stored once `write` is made
 * const user = await tokens.resolve(token);            // null when unknown or revoked
 */
export class TokenManager {
  private readonly cache = new Map<string, { readonly user: Row; readonly until: number }>();
  /** The cached token hashes of each user (by the user's id as text), so a change to the user drops them. */
  private readonly byUser = new Map<string, Set<string>>();
  /**
   * Counts the invalidations (revocations, and the bus's reports): a look-up that began before one
   * may have read what it undid, and is then not cached.
   */
  private invalidations = 0;
  private readonly ttlMs: number;
  private readonly size: number;

  constructor(
    private readonly store: RecordStore,
    private readonly random: RandomSource,
    private readonly clock: Clock,
    options: TokenCacheOptions = {},
    events?: EventBus,
  ) {
    this.ttlMs = (options.seconds ?? 5) * 1000;
    this.size = options.size ?? 10_000;
    if (events && this.ttlMs > 0) {
      events.onCommitted('post_delete', 'auth_token', (event) => {
        this.invalidations++;
        if (typeof event.row.token_hash === 'string') this.forget(event.row.token_hash);
      });
      const forgetUser = (event: SignalEvent): void => {
        this.invalidations++;
        this.forgetUser(event.row.id);
      };
      events.onCommitted('post_save', 'auth_user', forgetUser);
      events.onCommitted('post_delete', 'auth_user', forgetUser);
    }
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
    if (hit) this.forget(hash);
    const invalidations = this.invalidations;
    const [user] = await this.store.findReferenced('auth_token', 'user_id', { column: 'token_hash', op: 'eq', value: hash });
    if (!user || user.is_active !== true) return null;
    if (this.ttlMs > 0 && invalidations === this.invalidations) this.remember(hash, user, now + this.ttlMs);
    return user;
  }

  /** Revokes `token`; false when it was not live. */
  async revoke(token: string): Promise<boolean> {
    if (!plausible(token)) return false;
    const hash = hashToken(token);
    const [row] = await this.store.find('auth_token', { where: { column: 'token_hash', op: 'eq', value: hash }, limit: 1 });
    const revoked = row ? await this.store.delete('auth_token', row.id ?? null) : false;
    // Once deleted: forgotten, and a look-up that raced the delete is not cached.
    this.invalidations++;
    this.forget(hash);
    return revoked;
  }

  private remember(hash: string, user: Row, until: number): void {
    if (this.cache.size >= this.size) this.forget(this.cache.keys().next().value as string);
    this.cache.set(hash, { user, until });
    const key = String(user.id);
    const hashes = this.byUser.get(key);
    if (hashes) hashes.add(hash);
    else this.byUser.set(key, new Set([hash]));
  }

  private forget(hash: string): void {
    const entry = this.cache.get(hash);
    if (!entry) return;
    this.cache.delete(hash);
    const key = String(entry.user.id);
    const hashes = this.byUser.get(key);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.byUser.delete(key);
  }

  private forgetUser(id: unknown): void {
    const hashes = this.byUser.get(String(id));
    if (!hashes) return;
    for (const hash of hashes) this.cache.delete(hash);
    this.byUser.delete(String(id));
  }
}

const plausible = (token: string): boolean => token.length >= 20 && token.length <= 100;
