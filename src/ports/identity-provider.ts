import type { SocialProfile } from '../domain/auth/social-login.js';

/** The tokens a provider issued for an account. */
export interface ProviderTokens {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  /** Seconds the access token works for from now, if the provider said. */
  readonly expiresIn: number | null;
}

/** What binds one authorization request to its callback; made by the caller, kept in the browser. */
export interface AuthorizationChecks {
  readonly state: string;
  /** OpenID Connect only; an OAuth 2.0 provider ignores it. */
  readonly nonce: string;
  /** The PKCE verifier; the request carries its S256 challenge. */
  readonly codeVerifier: string;
  /** The callback address registered with the provider. */
  readonly redirectUri: string;
}

/**
 * A refusal or failure of a provider: a forged or replayed callback, a provider error, an
 * unreachable or slow provider. `message` is safe to log and to show: never a token or a code.
 */
export class IdentityProviderError extends Error {
  override readonly name = 'IdentityProviderError';
}

/**
 * An external identity provider (OpenID Connect or OAuth 2.0) as social login uses it. Every
 * call either answers or throws an IdentityProviderError within the provider's timeout.
 *
 * @example
 * const url = await provider.authorizationUrl(checks); // 302 the browser there
 * const { profile, tokens } = await provider.complete(new URL(callbackUrl), checks);
 */
export interface IdentityProvider {
  /** The name in routes and rows (`google`). */
  readonly name: string;
  /** Where to send the browser: the provider's authorization endpoint with state, nonce and the PKCE S256 challenge. */
  authorizationUrl(checks: AuthorizationChecks): Promise<string>;
  /**
   * Checks the callback (state; for OpenID Connect the ID token's signature, issuer, audience
   * and nonce), exchanges the code and reads the account.
   */
  complete(callback: URL, checks: AuthorizationChecks): Promise<{ readonly profile: SocialProfile; readonly tokens: ProviderTokens }>;
  /** New tokens for a refresh token. The refresh token is kept when the provider sends none. */
  refresh(refreshToken: string): Promise<ProviderTokens>;
}
