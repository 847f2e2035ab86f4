import { tokenContext } from '../../domain/auth/social-login.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { IdentityProvider, ProviderTokens } from '../../ports/identity-provider.js';
import type { TokenCipher } from '../../ports/token-cipher.js';

/** The configured providers by name, and the callback address each is registered with. */
export interface SocialProviders {
  get(name: string): IdentityProvider | undefined;
  /** The absolute callback URL of `name` (the public origin, never a request's Host). */
  callbackUrl(name: string): string;
}

/** Refuses a social login step: the form routes answer it as a 303 with `detail` as the flash. */
export const socialRefusal = (detail: string): DomainError => new DomainError('social_login_failed', detail);

/** The columns of `social_account` that carry the provider's tokens, sealed for this row. */
export function sealedTokens(cipher: TokenCipher, provider: string, userId: Value, tokens: ProviderTokens, now: Date): Row {
  return {
    access_token: cipher.seal(tokens.accessToken, tokenContext(provider, userId, 'access')),
    refresh_token: tokens.refreshToken === null ? null : cipher.seal(tokens.refreshToken, tokenContext(provider, userId, 'refresh')),
    expires_at: tokens.expiresIn === null ? null : new Date(now.getTime() + tokens.expiresIn * 1000),
  };
}
