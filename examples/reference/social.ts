import { IdentityProviderError, oauth2, oidc, socialLogin, type FetchJson, type IdentityProvider, type Plugin, type SocialProfile } from '../../src/index.js';

/** GitHub's `/user` and `/user/emails`, mapped: the primary address counts as verified only when GitHub says so. */
async function githubProfile(user: unknown, fetchJson: FetchJson, api: string): Promise<SocialProfile> {
  const u = user as { id?: unknown; login?: unknown };
  if (typeof u.id !== 'number' && typeof u.id !== 'string') throw new IdentityProviderError('github: the user document has no id');
  const emails = (await fetchJson(`${api}/user/emails`)) as { email?: unknown; primary?: unknown; verified?: unknown }[];
  const primary = Array.isArray(emails) ? emails.find((e) => e.primary === true && typeof e.email === 'string') : undefined;
  return {
    subject: String(u.id),
    email: typeof primary?.email === 'string' ? primary.email : null,
    emailVerified: primary?.verified === true,
    username: typeof u.login === 'string' ? u.login : null,
  };
}

/**
 * The reference app's providers (REFERENCE-APP.md "Identity"): `google` by OpenID Connect
 * discovery at SOCIAL_GOOGLE_ISSUER and `github` by OAuth 2.0 at SOCIAL_GITHUB_BASE_URL (user API
 * at SOCIAL_GITHUB_API_URL), each mounted only when its SOCIAL_<NAME>_CLIENT_ID and
 * _CLIENT_SECRET are set.
 */
export function referenceProviders(env: NodeJS.ProcessEnv): IdentityProvider[] {
  const providers: IdentityProvider[] = [];
  const credentials = (name: string) => ({ clientId: env[`SOCIAL_${name}_CLIENT_ID`] ?? '', clientSecret: env[`SOCIAL_${name}_CLIENT_SECRET`] ?? '' });
  if (env.SOCIAL_GOOGLE_CLIENT_ID || env.SOCIAL_GOOGLE_CLIENT_SECRET) {
    providers.push(oidc({ name: 'google', issuer: env.SOCIAL_GOOGLE_ISSUER ?? 'https://accounts.google.com', ...credentials('GOOGLE') }));
  }
  if (env.SOCIAL_GITHUB_CLIENT_ID || env.SOCIAL_GITHUB_CLIENT_SECRET) {
    const base = (env.SOCIAL_GITHUB_BASE_URL ?? 'https://github.com').replace(/\/+$/, '');
    const api = (env.SOCIAL_GITHUB_API_URL ?? 'https://api.github.com').replace(/\/+$/, '');
    providers.push(
      oauth2({
        name: 'github',
        authorizeUrl: `${base}/login/oauth/authorize`,
        tokenUrl: `${base}/login/oauth/access_token`,
        userUrl: `${api}/user`,
        scopes: ['read:user', 'user:email'],
        ...credentials('GITHUB'),
        map: (user, fetchJson) => githubProfile(user, fetchJson, api),
      }),
    );
  }
  return providers;
}

/** Social login with the configured providers, or undefined when none is: TOKEN_KEYS is then required. */
export function referenceSocial(env: NodeJS.ProcessEnv, providers: IdentityProvider[]): Plugin | undefined {
  if (providers.length === 0) return undefined;
  return socialLogin({ providers, tokenKeys: env.TOKEN_KEYS, ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL.replace(/\/+$/, '') } : {}) });
}
