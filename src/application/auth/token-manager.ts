import type { Row, Value } from '../../domain/model/types.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore } from '../../ports/record-store.js';
import { encodeToken, hashToken } from './secrets.js';

/**
 * Bearer tokens (table `auth_token`, DESIGN §3 "bearer tokens"): random, returned once at
 * login, stored only as a SHA-256, revoked at logout.
 *
 * @example
 * const token = await tokens.issue(user.id);           // Authorization: Bearer <token>
 * const user = await tokens.resolve(token);            // null when unknown or revoked
 */
export class TokenManager {
  constructor(
    private readonly store: RecordStore,
    private readonly random: RandomSource,
  ) {}

  async issue(userId: Value): Promise<string> {
    const token = encodeToken(this.random.bytes(32));
    await this.store.insert('auth_token', { token_hash: hashToken(token), user_id: userId });
    return token;
  }

  /** The active user holding `token`, or null. */
  async resolve(token: string): Promise<Row | null> {
    const row = await this.row(token);
    if (!row) return null;
    const user = await this.store.getById('auth_user', row.user_id ?? null);
    return user && user.is_active === true ? user : null;
  }

  /** Revokes `token`; false when it was not live. */
  async revoke(token: string): Promise<boolean> {
    const row = await this.row(token);
    return row ? this.store.delete('auth_token', row.id ?? null) : false;
  }

  private async row(token: string): Promise<Row | undefined> {
    if (token.length < 20 || token.length > 100) return undefined;
    const [row] = await this.store.find('auth_token', { where: { column: 'token_hash', op: 'eq', value: hashToken(token) }, limit: 1 });
    return row;
  }
}
