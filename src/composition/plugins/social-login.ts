import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { KeyringTokenCipher, parseTokenKeys } from '../../adapters/crypto/keyring-token-cipher.js';
import { OAuth2IdentityProvider, OidcIdentityProvider, type OAuth2Settings, type OidcSettings } from '../../adapters/identity/openid-providers.js';
import { socialAuthRoutes } from '../../adapters/http-koa/index.js';
import { BeginSocialLogin } from '../../application/social/begin-social-login.js';
import { CompleteSocialLogin } from '../../application/social/complete-social-login.js';
import { ProviderAccessToken } from '../../application/social/provider-access-token.js';
import { RotateTokenKeys } from '../../application/social/rotate-token-keys.js';
import type { SocialProviders } from '../../application/social/social-providers.js';
import { UnlinkSocialAccount } from '../../application/social/unlink-social-account.js';
import { PROVIDER_NAME } from '../../domain/auth/social-login.js';
import type { IdentityProvider } from '../../ports/identity-provider.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';
import { publicOrigin } from './public-origin.js';

export type { FetchJson, OAuth2Settings, OidcSettings } from '../../adapters/identity/openid-providers.js';

/** An OpenID Connect provider, found by discovery at `issuer` (Google: `https://accounts.google.com`). */
export function oidc(settings: OidcSettings): IdentityProvider {
  return new OidcIdentityProvider(settings);
}

/** A plain OAuth 2.0 provider (GitHub): its endpoints, and `map` from its user document to the account. */
export function oauth2(settings: OAuth2Settings): IdentityProvider {
  return new OAuth2IdentityProvider(settings);
}

export interface SocialLoginOptions {
  /** The providers, each mounted at `<formPrefix>/social/<name>/…`. */
  readonly providers: readonly IdentityProvider[];
  /**
   * The keys sealing stored provider tokens: `kid:<base64 of 32 bytes>,…` (the first seals,
   * every one opens). The app refuses to start when it is missing or malformed.
   */
  readonly tokenKeys: string | undefined;
  /** The origin the provider calls back (`https://example.com`); default: the address the app listens on. */
  readonly publicUrl?: string;
  /** The prefix of the routes (default `/auth`, the form prefix: CSRF applies to link and unlink). */
  readonly formPrefix?: string;
  /** Where a failed login lands with a flash (default `/login`). */
  readonly loginPage?: string;
}

/**
 * Social login through OpenID Connect and OAuth 2.0 (issue 50): per provider
 * `GET /auth/social/<name>/login?redirect=` (302 to the provider), `GET …/callback` (303 with a
 * session), `POST …/link` and `POST …/unlink` (signed in). Provider tokens are stored sealed in
 * `social_account`; `app.socialAccessToken(userId, name)` gives host code a fresh one. Needs
 * `sessions()` and `auth()` mounted before it.
 *
 * @example
 * app.use(socialLogin({
 *   tokenKeys: process.env.TOKEN_KEYS,
 *   providers: [oidc({ name: 'google', issuer: 'https://accounts.google.com', clientId, clientSecret })],
 * }));
 */
export function socialLogin(options: SocialLoginOptions): Plugin {
  return {
    name: 'social-login',
    install(ctx) {
      if (!ctx.getOptional(TOKENS.Sessions) || !ctx.getOptional(TOKENS.LogIn)) throw new Error('the social-login plugin needs sessions() and auth() mounted before it');
      const cipher = new KeyringTokenCipher(parseTokenKeys(options.tokenKeys));
      const byName = new Map<string, IdentityProvider>();
      for (const provider of options.providers) {
        if (!PROVIDER_NAME.test(provider.name)) throw new Error(`social login: a provider name is lower-case letters, digits and dashes, got ${JSON.stringify(provider.name)}`);
        if (byName.has(provider.name)) throw new Error(`social login: two providers are named ${provider.name}`);
        byName.set(provider.name, provider);
      }
      const prefix = options.formPrefix ?? '/auth';
      const origin = publicOrigin(ctx, options.publicUrl, 'socialLogin');
      const providers: SocialProviders = { get: (name) => byName.get(name), callbackUrl: (name) => `${origin()}${prefix}/social/${name}/callback` };
      ctx.bind(TOKENS.SocialProviders, providers);
      ctx.bind(TOKENS.TokenCipher, cipher);
      const box = new AesGcmSecretBox(ctx.get(TOKENS.Settings).secret, 'portico social login');
      const common = { providers, clock: ctx.clock, logger: ctx.logger } as const;
      ctx.bindFactory(TOKENS.BeginSocialLogin, (get) => new BeginSocialLogin({ ...common, random: get(TOKENS.Random), box }));
      ctx.bindFactory(TOKENS.CompleteSocialLogin, (get) => new CompleteSocialLogin({ ...common, store: get(TOKENS.Store), random: get(TOKENS.Random), box, cipher, requireVerifiedEmail: get(TOKENS.RequireVerifiedEmail) }));
      ctx.bindFactory(TOKENS.UnlinkSocialAccount, (get) => new UnlinkSocialAccount(get(TOKENS.Store)));
      ctx.bindFactory(TOKENS.ProviderAccessToken, (get) => new ProviderAccessToken({ ...common, store: get(TOKENS.Store), cipher }));
      ctx.bindFactory(TOKENS.RotateTokenKeys, (get) => new RotateTokenKeys(get(TOKENS.Store), cipher));
      ctx.get(TOKENS.CsrfProtectedPrefixes).add(prefix);
      const routes = socialAuthRoutes({
        prefix,
        providers: [...byName.keys()],
        begin: ctx.get(TOKENS.BeginSocialLogin),
        complete: ctx.get(TOKENS.CompleteSocialLogin),
        unlink: ctx.get(TOKENS.UnlinkSocialAccount),
        loginPage: options.loginPage ?? '/login',
        secure: ctx.production,
      });
      for (const route of routes) ctx.route(route);
      for (const name of byName.keys()) {
        ctx.advertise({ group: 'auth', name: `social-${name}-login`, method: 'GET', path: `${prefix}/social/${name}/login`, label: `Sign in with ${name}` });
        ctx.advertise({ group: 'auth', name: `social-${name}-link`, method: 'POST', path: `${prefix}/social/${name}/link`, label: `Link a ${name} account` });
        ctx.advertise({ group: 'auth', name: `social-${name}-unlink`, method: 'POST', path: `${prefix}/social/${name}/unlink`, label: `Unlink the ${name} account` });
      }
    },
  };
}
