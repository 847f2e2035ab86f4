import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuth2IdentityProvider, OidcIdentityProvider } from '../../src/adapters/identity/openid-providers.js';
import { IdentityProviderError, type AuthorizationChecks, type IdentityProvider } from '../../src/ports/identity-provider.js';
import { followToCallback, GithubStand, OidcStand, RogueIssuer } from '../support/identity-providers.js';

/*
 * The IdentityProvider contract (src/ports/identity-provider.ts) over both adapters, each
 * against a real server on loopback: oidc-provider for OpenID Connect, the GitHub stand-in for
 * OAuth 2.0. An authorization URL carries state, PKCE S256 (and a nonce for OIDC); a callback
 * completes once with the right checks, and a wrong state, a wrong verifier, a reused code or a
 * provider error is an IdentityProviderError; a refresh gives a new access token.
 */
const REDIRECT = 'http://127.0.0.1:9/auth/social/p/callback';
const CLIENT = { id: 'portico-test', secret: 'portico-test-secret' };

interface Backend {
  readonly provider: IdentityProvider;
  readonly oidc: boolean;
  /** Makes the provider's next login the account with this address. */
  signInAs(email: string, verified: boolean): void;
}

let oidcStand: OidcStand;
let github: GithubStand;
const backends: Record<string, Backend> = {};

beforeAll(async () => {
  oidcStand = await OidcStand.start([{ ...CLIENT, redirectUri: REDIRECT }]);
  github = await GithubStand.start(CLIENT);
  backends.oidc = {
    oidc: true,
    provider: new OidcIdentityProvider({ name: 'p', issuer: oidcStand.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret, scopes: ['openid', 'email', 'profile'] }),
    signInAs: (email, verified) => {
      const id = `acct-${email}`;
      oidcStand.accounts.set(id, { email, emailVerified: verified, username: email.split('@')[0] ?? '' });
      oidcStand.next = id;
    },
  };
  backends.oauth2 = {
    oidc: false,
    provider: new OAuth2IdentityProvider({
      name: 'p',
      authorizeUrl: `${github.base}/login/oauth/authorize`,
      tokenUrl: `${github.base}/login/oauth/access_token`,
      userUrl: `${github.base}/user`,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      map: async (user, fetchJson) => {
        const u = user as { id: number; login: string };
        const emails = (await fetchJson(`${github.base}/user/emails`)) as { email: string; primary: boolean; verified: boolean }[];
        const primary = emails.find((e) => e.primary);
        return { subject: String(u.id), email: primary?.email ?? null, emailVerified: primary?.verified === true, username: u.login };
      },
    }),
    signInAs: (email, verified) => {
      const id = github.users.size + 1;
      github.users.set(id, { id, login: email.split('@')[0] ?? '', email: null, emails: [{ email, primary: true, verified }] });
      github.next = id;
    },
  };
});
afterAll(async () => {
  await oidcStand.close();
  await github.close();
});

const checks = (): AuthorizationChecks => ({ state: `st-${Math.random().toString(36).slice(2)}`, nonce: `no-${Math.random().toString(36).slice(2)}`, codeVerifier: 'v'.repeat(20) + Math.random().toString(36).slice(2).padEnd(30, 'x'), redirectUri: REDIRECT });

describe.each(['oidc', 'oauth2'])('IdentityProvider contract: %s', (name) => {
  const backend = (): Backend => backends[name] as Backend;
  const authorize = async (c: AuthorizationChecks): Promise<URL> => new URL(await followToCallback(await backend().provider.authorizationUrl(c), REDIRECT));

  it('sends the browser to the provider with state, the S256 challenge and the redirect', async () => {
    const c = checks();
    const url = new URL(await backend().provider.authorizationUrl(c));
    expect(url.searchParams.get('state')).toBe(c.state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).not.toBe(c.codeVerifier);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.id);
    expect(url.searchParams.get('nonce')).toBe(backend().oidc ? c.nonce : null);
  });

  it('completes a callback: the account, its address and whether it is verified, and tokens', async () => {
    backend().signInAs(`ann-${name}@example.com`, true);
    const c = checks();
    const { profile, tokens } = await backend().provider.complete(await authorize(c), c);
    expect(profile).toMatchObject({ email: `ann-${name}@example.com`, emailVerified: true, username: `ann-${name}` });
    expect(profile.subject).not.toBe('');
    expect(tokens.accessToken.length).toBeGreaterThan(10);
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.expiresIn).toBeGreaterThan(0);
  });

  it('reports an unverified address as unverified', async () => {
    backend().signInAs(`bob-${name}@example.com`, false);
    const c = checks();
    expect((await backend().provider.complete(await authorize(c), c)).profile.emailVerified).toBe(false);
  });

  it('refuses a callback whose state is not the one sent', async () => {
    backend().signInAs(`cy-${name}@example.com`, true);
    const c = checks();
    const callback = await authorize(c);
    await expect(backend().provider.complete(callback, { ...c, state: 'another' })).rejects.toBeInstanceOf(IdentityProviderError);
  });

  it('refuses a code with the wrong PKCE verifier, and a code used twice', async () => {
    backend().signInAs(`di-${name}@example.com`, true);
    const c = checks();
    const callback = await authorize(c);
    await expect(backend().provider.complete(callback, { ...c, codeVerifier: 'w'.repeat(50) })).rejects.toBeInstanceOf(IdentityProviderError);
    const again = checks();
    const second = await authorize(again);
    await backend().provider.complete(second, again);
    await expect(backend().provider.complete(second, again)).rejects.toBeInstanceOf(IdentityProviderError);
  });

  it('refuses a provider error answer, naming it without any secret', async () => {
    const c = checks();
    const callback = new URL(`${REDIRECT}?error=access_denied&state=${c.state}`);
    if (backend().oidc) callback.searchParams.set('iss', oidcStand.issuer);
    const error = await backend().provider.complete(callback, c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityProviderError);
    expect((error as Error).message).toContain('access_denied');
  });

  it('refreshes: a new access token, and the refresh token kept or replaced', async () => {
    backend().signInAs(`ed-${name}@example.com`, true);
    const c = checks();
    const { tokens } = await backend().provider.complete(await authorize(c), c);
    const fresh = await backend().provider.refresh(tokens.refreshToken ?? '');
    expect(fresh.accessToken).not.toBe(tokens.accessToken);
    expect(fresh.refreshToken).toEqual(expect.any(String));
    await expect(backend().provider.refresh('not-a-refresh-token')).rejects.toBeInstanceOf(IdentityProviderError);
  });
});

describe('OpenID Connect: the client checks every ID token claim', () => {
  let rogue: RogueIssuer;
  beforeAll(async () => {
    rogue = await RogueIssuer.start(CLIENT.id);
  });
  afterAll(() => rogue.close());

  it.each(['audience', 'issuer', 'nonce', 'signature'] as const)('refuses an ID token with a wrong %s', async (lie) => {
    const provider = new OidcIdentityProvider({ name: 'rogue', issuer: rogue.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret });
    const c = checks();
    rogue.lie = 'none';
    const honest = new URL(await followToCallback(await provider.authorizationUrl(c), REDIRECT));
    expect((await provider.complete(honest, c)).profile.subject).toBe('rogue-1');
    rogue.lie = lie;
    const c2 = checks();
    const callback = new URL(await followToCallback(await provider.authorizationUrl(c2), REDIRECT));
    await expect(provider.complete(callback, c2)).rejects.toBeInstanceOf(IdentityProviderError);
  });

  it('answers within its timeout when the provider does not answer, and refuses http off loopback', async () => {
    const stand = await GithubStand.start(CLIENT);
    stand.slow = 3000;
    const provider = new OAuth2IdentityProvider({ name: 'slow', authorizeUrl: `${stand.base}/login/oauth/authorize`, tokenUrl: `${stand.base}/login/oauth/access_token`, userUrl: `${stand.base}/user`, clientId: CLIENT.id, clientSecret: CLIENT.secret, timeoutSeconds: 1, map: () => ({ subject: '1', email: null, emailVerified: false, username: null }) });
    const c = checks();
    const callback = new URL(await followToCallback(await provider.authorizationUrl(c), REDIRECT));
    const error = await provider.complete(callback, c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdentityProviderError);
    expect((error as Error).message).toContain('did not answer in time');
    await stand.close();
    expect(() => new OidcIdentityProvider({ name: 'x', issuer: 'http://idp.example.com', clientId: 'a', clientSecret: 'b' })).toThrow(/must be https/);
  });
});
