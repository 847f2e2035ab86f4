import * as client from 'openid-client';
import type { SocialProfile } from '../../domain/auth/social-login.js';
import { IdentityProviderError, type AuthorizationChecks, type IdentityProvider, type ProviderTokens } from '../../ports/identity-provider.js';

/** Seconds a provider has to answer one request (discovery, token, user): past it the login fails. */
export const PROVIDER_TIMEOUT_SECONDS = 10;

interface CommonSettings {
  readonly name: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes?: readonly string[];
  /** Seconds per provider request (default 10). */
  readonly timeoutSeconds?: number;
}

/** An OpenID Connect provider found by discovery at `issuer`. */
export interface OidcSettings extends CommonSettings {
  readonly issuer: string;
}

/** What `map` may read besides the user document: another JSON resource with the same token (GitHub's `/user/emails`). */
export type FetchJson = (url: string) => Promise<unknown>;

/** A plain OAuth 2.0 provider (GitHub): endpoints given, the account read from `userUrl` and mapped. */
export interface OAuth2Settings extends CommonSettings {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly userUrl: string;
  readonly map: (user: unknown, fetchJson: FetchJson) => SocialProfile | Promise<SocialProfile>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Checks an endpoint: https, or http on a loopback address (a provider played locally); true when http. */
function plainHttp(setting: string, value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`social login: ${setting} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol === 'https:') return false;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return true;
  throw new Error(`social login: ${setting} must be https (http only on a loopback address), got ${JSON.stringify(value)}`);
}

/** A message safe to log and show: the cause's kind, no token or code (long opaque runs are cut). */
function providerFailure(name: string, error: unknown): IdentityProviderError {
  if (error instanceof IdentityProviderError) return error;
  let what: string;
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) what = `the provider answered ${error.error}`;
  else if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError' || (error as { code?: string }).code === 'OAUTH_TIMEOUT')) what = 'the provider did not answer in time';
  else if (error instanceof Error) what = `${(error as { code?: string }).code ?? error.name}: ${error.message}`;
  else what = 'unknown failure';
  return new IdentityProviderError(`${name}: ${what.replace(/[A-Za-z0-9._~+/=-]{24,}/g, '…').slice(0, 240)}`);
}

function tokensOf(response: client.TokenEndpointResponse, keep: string | null): ProviderTokens {
  const seconds = response.expires_in;
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? keep,
    expiresIn: typeof seconds === 'number' && seconds >= 0 ? seconds : null,
  };
}

abstract class OpenIdClientProvider implements IdentityProvider {
  private config: Promise<client.Configuration> | undefined;

  protected constructor(
    readonly name: string,
    protected readonly settings: CommonSettings,
    private readonly insecure: boolean,
  ) {
    if (!settings.clientId) throw new Error(`social login: provider ${name} needs a clientId`);
    if (!settings.clientSecret) throw new Error(`social login: provider ${name} needs a clientSecret`);
  }

  protected abstract makeConfiguration(options: client.DiscoveryRequestOptions): Promise<client.Configuration>;
  protected abstract readonly defaultScopes: readonly string[];
  protected abstract readonly oidc: boolean;
  protected abstract profileOf(config: client.Configuration, response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): Promise<SocialProfile>;

  /** The client configuration, made once (OpenID Connect: one discovery); a failed one is retried on the next call. */
  protected configuration(): Promise<client.Configuration> {
    const timeout = this.settings.timeoutSeconds ?? PROVIDER_TIMEOUT_SECONDS;
    this.config ??= this.makeConfiguration({ timeout, execute: this.insecure ? [client.allowInsecureRequests] : [] }).then(
      (config) => {
        config.timeout = timeout;
        if (this.insecure) client.allowInsecureRequests(config);
        return config;
      },
      (error: unknown) => {
        this.config = undefined;
        throw error;
      },
    );
    return this.config;
  }

  protected secretAuth(): client.ClientAuth {
    return client.ClientSecretPost(this.settings.clientSecret);
  }

  async authorizationUrl(checks: AuthorizationChecks): Promise<string> {
    try {
      const config = await this.configuration();
      const parameters: Record<string, string> = {
        redirect_uri: checks.redirectUri,
        scope: (this.settings.scopes ?? this.defaultScopes).join(' '),
        state: checks.state,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...(this.oidc ? { nonce: checks.nonce } : {}),
      };
      return client.buildAuthorizationUrl(config, parameters).href;
    } catch (error) {
      throw providerFailure(this.name, error);
    }
  }

  async complete(callback: URL, checks: AuthorizationChecks): Promise<{ profile: SocialProfile; tokens: ProviderTokens }> {
    try {
      const config = await this.configuration();
      const response = await client.authorizationCodeGrant(
        config,
        callback,
        { expectedState: checks.state, pkceCodeVerifier: checks.codeVerifier, idTokenExpected: this.oidc, ...(this.oidc ? { expectedNonce: checks.nonce } : {}) },
        { redirect_uri: checks.redirectUri },
      );
      const profile = await this.profileOf(config, response);
      if (!profile.subject) throw new IdentityProviderError(`${this.name}: the provider named no account`);
      return { profile, tokens: tokensOf(response, null) };
    } catch (error) {
      throw providerFailure(this.name, error);
    }
  }

  async refresh(refreshToken: string): Promise<ProviderTokens> {
    try {
      const response = await client.refreshTokenGrant(await this.configuration(), refreshToken);
      return tokensOf(response, refreshToken);
    } catch (error) {
      throw providerFailure(this.name, error);
    }
  }
}

/**
 * OpenID Connect through openid-client: discovery, the authorization code flow with PKCE S256,
 * state and nonce; openid-client checks the ID token's signature (against the provider's keys),
 * issuer, audience, expiry and nonce. The profile comes from the ID token, the userinfo endpoint filling a missing address.
 */
export class OidcIdentityProvider extends OpenIdClientProvider {
  protected readonly defaultScopes = ['openid', 'email', 'profile'];
  protected readonly oidc = true;

  constructor(private readonly oidcSettings: OidcSettings) {
    super(oidcSettings.name, oidcSettings, plainHttp(`${oidcSettings.name}.issuer`, oidcSettings.issuer));
  }

  protected makeConfiguration(options: client.DiscoveryRequestOptions): Promise<client.Configuration> {
    // The ID token's signature is checked against the provider's keys too, not only trusted for coming over TLS.
    return client.discovery(new URL(this.oidcSettings.issuer), this.settings.clientId, undefined, this.secretAuth(), { ...options, execute: [...(options.execute ?? []), client.enableNonRepudiationChecks] });
  }

  protected async profileOf(config: client.Configuration, response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): Promise<SocialProfile> {
    const claims = response.claims();
    if (!claims) throw new IdentityProviderError(`${this.name}: no ID token`);
    let source: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) source = { ...(await client.fetchUserInfo(config, response.access_token, claims.sub)), ...claims };
    const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
    return { subject: claims.sub, email: text(source.email), emailVerified: source.email_verified === true, username: text(source.preferred_username) };
  }
}

/**
 * A plain OAuth 2.0 provider through openid-client: the authorization code flow with state and
 * PKCE S256 against the given endpoints, then the user document read with the access token and
 * mapped by the host's `map`.
 */
export class OAuth2IdentityProvider extends OpenIdClientProvider {
  protected readonly defaultScopes: readonly string[] = [];
  protected readonly oidc = false;

  constructor(private readonly oauthSettings: OAuth2Settings) {
    const insecure = [
      plainHttp(`${oauthSettings.name}.authorizeUrl`, oauthSettings.authorizeUrl),
      plainHttp(`${oauthSettings.name}.tokenUrl`, oauthSettings.tokenUrl),
      plainHttp(`${oauthSettings.name}.userUrl`, oauthSettings.userUrl),
    ].some(Boolean);
    super(oauthSettings.name, oauthSettings, insecure);
  }

  protected makeConfiguration(): Promise<client.Configuration> {
    const { authorizeUrl, tokenUrl } = this.oauthSettings;
    const metadata: client.ServerMetadata = { issuer: new URL(authorizeUrl).origin, authorization_endpoint: authorizeUrl, token_endpoint: tokenUrl };
    return Promise.resolve(new client.Configuration(metadata, this.settings.clientId, undefined, this.secretAuth()));
  }

  protected async profileOf(config: client.Configuration, response: client.TokenEndpointResponse): Promise<SocialProfile> {
    const fetchJson: FetchJson = async (url) => {
      const answer = await client.fetchProtectedResource(config, response.access_token, new URL(url), 'GET', undefined, new Headers({ Accept: 'application/json' }));
      if (!answer.ok) throw new IdentityProviderError(`${this.name}: ${new URL(url).pathname} answered ${answer.status}`);
      return answer.json() as Promise<unknown>;
    };
    const profile = await this.oauthSettings.map(await fetchJson(this.oauthSettings.userUrl), fetchJson);
    return { ...profile, subject: String(profile.subject) };
  }
}
