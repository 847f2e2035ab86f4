import { tokenContext } from '../../domain/auth/social-login.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { TokenCipher } from '../../ports/token-cipher.js';
import { sealedTokens, socialRefusal, type SocialProviders } from './social-providers.js';

/** An access token this close to its expiry is refreshed first. */
const EARLY_MS = 60_000;

export interface ProviderAccessTokenDeps {
  readonly providers: SocialProviders;
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly cipher: TokenCipher;
  readonly logger: Logger;
}

/**
 * A usable access token of a user's linked provider account, for host code calling the
 * provider's API (`app.socialAccessToken(userId, 'github')`). An expired one is refreshed with
 * the stored refresh token and the new tokens stored sealed; concurrent calls for the same
 * account in this process share one refresh (single flight). Throws `not_found` when the user
 * has no such account, `social_login_failed` when it cannot be refreshed (sign in again).
 */
export class ProviderAccessToken {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly deps: ProviderAccessTokenDeps) {}

  /** The user's account at the provider (`not_found` without one). */
  private async account(userId: Value, providerName: string): Promise<Row> {
    const [account] = await this.deps.store.find('social_account', { where: { all: [{ column: 'user_id', op: 'eq', value: userId }, { column: 'provider', op: 'eq', value: providerName }] }, limit: 1 });
    if (!account) throw new DomainError('not_found', `the user has no ${providerName} account linked`);
    return account;
  }

  /** The account's access token while it works (no expiry, or more than a minute left), else undefined. */
  private usable(account: Row, userId: Value, providerName: string): string | undefined {
    if (typeof account.access_token !== 'string') return undefined;
    const expires = account.expires_at instanceof Date ? account.expires_at.getTime() : null;
    if (expires !== null && expires - EARLY_MS <= this.deps.clock.now().getTime()) return undefined;
    return this.deps.cipher.open(account.access_token, tokenContext(providerName, userId, 'access'));
  }

  async execute(userId: Value, providerName: string): Promise<string> {
    const usable = this.usable(await this.account(userId, providerName), userId, providerName);
    if (usable !== undefined) return usable;
    const key = `${providerName}:${String(userId)}`;
    let flight = this.inFlight.get(key);
    if (!flight) {
      flight = this.refresh(userId, providerName).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, flight);
    }
    return flight;
  }

  private async refresh(userId: Value, providerName: string): Promise<string> {
    const { store, cipher, providers } = this.deps;
    const provider = providers.get(providerName);
    // Read again: another call may have refreshed between the first read and this flight's start.
    const account = await this.account(userId, providerName);
    const usable = this.usable(account, userId, providerName);
    if (usable !== undefined) return usable;
    if (!provider || typeof account.refresh_token !== 'string') throw socialRefusal(`The ${providerName} sign-in expired; sign in with ${providerName} again.`);
    let tokens;
    try {
      tokens = await provider.refresh(cipher.open(account.refresh_token, tokenContext(providerName, userId, 'refresh')));
    } catch (error) {
      this.deps.logger.warn({ provider: providerName, user: userId, reason: error instanceof Error ? error.message : String(error) }, 'provider token refresh failed');
      throw socialRefusal(`The ${providerName} sign-in expired; sign in with ${providerName} again.`);
    }
    const now = this.deps.clock.now();
    await store.update('social_account', account.id ?? null, { ...sealedTokens(cipher, providerName, userId, tokens, now), updated_at: now });
    return tokens.accessToken;
  }
}
