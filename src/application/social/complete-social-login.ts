import { decideSocialLogin, readPending, usernameCandidates, type PendingSocialLogin, type SocialProfile } from '../../domain/auth/social-login.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { ProviderTokens } from '../../ports/identity-provider.js';
import type { Logger } from '../../ports/logger.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { TokenCipher } from '../../ports/token-cipher.js';
import { sameSecret } from '../auth/secrets.js';
import { sealedTokens, socialRefusal, type SocialProviders } from './social-providers.js';

export interface CompleteSocialLoginDeps {
  readonly providers: SocialProviders;
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly box: SecretBox;
  readonly cipher: TokenCipher;
  readonly logger: Logger;
  /** Login needs a verified address (`auth({ requireVerifiedEmail })`): no user without one is signed in. */
  readonly requireVerifiedEmail: boolean;
}

export interface CompleteSocialLoginInput {
  readonly provider: string;
  /** The callback's query string as the provider sent it (`?code=…&state=…`). */
  readonly search: string;
  /** What `BeginSocialLogin` gave the browser, from its cookie (undefined when the browser holds none). */
  readonly pending: string | undefined;
}

/** How the callback ended: the user to sign in, where to land, and what happened to the account. */
export interface SocialLoginResult {
  readonly user: Row;
  readonly redirect: string;
  readonly outcome: 'signed-in' | 'linked' | 'created';
}

const EXPIRED = 'Your sign-in expired or was started in another browser. Try again.';

/**
 * Ends a social login (issue 50). The browser's sealed pending login must exist, be unexpired,
 * name this provider and carry the callback's `state`; the provider then checks the code (PKCE,
 * and for OpenID Connect the ID token's issuer, audience and nonce) and names the account. In
 * one transaction the linking rules (`decideSocialLogin`) pick the user: the linked one, an
 * explicit or verified-address link, or a new user without a password. The provider's tokens
 * are stored sealed with the row's provider and user as associated data. Every refusal is
 * `social_login_failed` with nothing written; the log names the provider's reason, never a
 * token or a code.
 */
export class CompleteSocialLogin {
  constructor(private readonly deps: CompleteSocialLoginDeps) {}

  async execute(input: CompleteSocialLoginInput): Promise<SocialLoginResult> {
    const { providers, clock, logger } = this.deps;
    const provider = providers.get(input.provider);
    const pending = this.openPending(input.pending);
    const query = new URLSearchParams(input.search);
    const state = query.get('state') ?? '';
    if (!provider || !pending || pending.provider !== provider.name || !sameSecret(state, pending.state)) {
      logger.warn({ provider: input.provider, reason: pending ? 'state mismatch' : 'no pending login in this browser' }, 'social login callback refused');
      throw socialRefusal(EXPIRED);
    }
    const redirectUri = providers.callbackUrl(provider.name);
    const callback = new URL(redirectUri);
    callback.search = query.toString();
    let profile: SocialProfile;
    let tokens: ProviderTokens;
    try {
      ({ profile, tokens } = await provider.complete(callback, { state: pending.state, nonce: pending.nonce, codeVerifier: pending.verifier, redirectUri }));
    } catch (error) {
      logger.warn({ provider: provider.name, reason: error instanceof Error ? error.message : String(error) }, 'social login callback refused');
      throw socialRefusal(`Signing in with ${provider.name} failed. Try again.`);
    }
    const now = clock.now();
    const result = await this.deps.store.transaction((tx) => this.settle(tx, provider.name, pending, profile, tokens, now));
    logger.info({ provider: provider.name, user: result.user.id ?? null, outcome: result.outcome }, 'social login');
    return result;
  }

  private openPending(sealed: string | undefined): PendingSocialLogin | undefined {
    if (!sealed || sealed.length > 4096) return undefined;
    try {
      return readPending(this.deps.box.open(sealed), this.deps.clock.now());
    } catch {
      return undefined;
    }
  }

  private async settle(tx: RecordStore, provider: string, pending: PendingSocialLogin, profile: SocialProfile, tokens: ProviderTokens, now: Date): Promise<SocialLoginResult> {
    const { cipher } = this.deps;
    const [account] = await tx.find('social_account', { where: { all: [{ column: 'provider', op: 'eq', value: provider }, { column: 'subject', op: 'eq', value: profile.subject }] }, limit: 1 });
    const byId = async (id: unknown): Promise<Row | null> => (id === null || id === undefined ? null : await tx.getById('auth_user', id as string | number));
    const linkedUser = account ? await byId(account.user_id) : null;
    const linkingUser = pending.linkUserId !== null ? await byId(pending.linkUserId) : null;
    if (pending.linkUserId !== null && !linkingUser) throw socialRefusal(EXPIRED);
    const [sameEmailUser] = profile.email && !linkingUser && !account ? await tx.find('auth_user', { where: { column: 'email', op: 'iexact', value: profile.email }, limit: 1 }) : [];
    const linkingHasProvider = linkingUser
      ? (await tx.count('social_account', { all: [{ column: 'user_id', op: 'eq', value: linkingUser.id ?? null }, { column: 'provider', op: 'eq', value: provider }] })) > 0
      : false;
    const decision = decideSocialLogin({ provider, profile, linkedUser, linkingUser, sameEmailUser: sameEmailUser ?? null, linkingHasProvider, requireVerifiedEmail: this.deps.requireVerifiedEmail });
    const stamp = async (user: Row): Promise<Row> => (await tx.update('auth_user', user.id ?? null, { last_login: now })) ?? user;
    switch (decision.kind) {
      case 'refuse':
        throw socialRefusal(decision.reason);
      case 'sign-in': {
        const user = linkedUser ?? linkingUser;
        if (!account || !user) throw socialRefusal(EXPIRED);
        await tx.update('social_account', account.id ?? null, { ...sealedTokens(cipher, provider, user.id ?? null, tokens, now), email: profile.email, updated_at: now });
        return { user: await stamp(user), redirect: pending.redirect, outcome: 'signed-in' };
      }
      case 'link': {
        const user = await byId(decision.userId);
        if (!user) throw socialRefusal(EXPIRED);
        await this.insertAccount(tx, provider, profile, tokens, user, now);
        return { user: await stamp(user), redirect: pending.redirect, outcome: 'linked' };
      }
      case 'create': {
        const user = await this.createUser(tx, provider, profile, now);
        await this.insertAccount(tx, provider, profile, tokens, user, now);
        return { user, redirect: pending.redirect, outcome: 'created' };
      }
    }
  }

  private async insertAccount(tx: RecordStore, provider: string, profile: SocialProfile, tokens: ProviderTokens, user: Row, now: Date): Promise<void> {
    const userId = user.id ?? null;
    await tx.insert('social_account', { user_id: userId, provider, subject: profile.subject, email: profile.email, ...sealedTokens(this.deps.cipher, provider, userId, tokens, now), created_at: now, updated_at: now });
  }

  /** A new active user without a password, named after the provider's account; verified only when the provider asserts it. */
  private async createUser(tx: RecordStore, provider: string, profile: SocialProfile, now: Date): Promise<Row> {
    const suffix = (): string => String(this.deps.random.int(10_000)).padStart(4, '0');
    for (const username of usernameCandidates(profile, provider, suffix)) {
      if ((await tx.count('auth_user', { column: 'username', op: 'iexact', value: username })) > 0) continue;
      return tx.insert('auth_user', { username, email: profile.email, password_hash: null, last_login: now, email_verified_at: profile.emailVerified ? now : null });
    }
    throw new DomainError('social_login_failed', 'No free username could be made for this account. Try again.');
  }
}
