import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** An account a stand-in provider signs in as. */
export interface StandAccount {
  readonly email: string;
  readonly emailVerified: boolean;
  readonly username: string;
}

/** The reference app's SOCIAL_* settings for `google` at an OIDC stand and `github` at a GitHub stand, one client for both. */
export function referenceProviderEnv(google: OidcStand, github: GithubStand, client: { id: string; secret: string }): NodeJS.ProcessEnv {
  return {
    SOCIAL_GOOGLE_ISSUER: google.issuer,
    SOCIAL_GOOGLE_CLIENT_ID: client.id,
    SOCIAL_GOOGLE_CLIENT_SECRET: client.secret,
    SOCIAL_GITHUB_BASE_URL: github.base,
    SOCIAL_GITHUB_API_URL: github.base,
    SOCIAL_GITHUB_CLIENT_ID: client.id,
    SOCIAL_GITHUB_CLIENT_SECRET: client.secret,
  };
}

/** A loopback port nothing listens on at the moment (for an app whose callback URL providers must know first). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  const origin = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return Number(new URL(origin).port);
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/**
 * A real OpenID Connect provider on loopback (`oidc-provider`), its login and consent answered
 * by the test: each authorization signs in as `next` (an account id of `accounts`) and grants
 * the scopes asked. Clients use client_secret_post, PKCE is required.
 */
export class OidcStand {
  readonly accounts = new Map<string, StandAccount>();
  /** The account the next authorization signs in as. */
  next = '';
  private constructor(
    readonly issuer: string,
    private readonly server: Server,
  ) {}

  static async start(clients: readonly { id: string; secret: string; redirectUri: string }[]): Promise<OidcStand> {
    const server = createServer();
    const issuer = await listen(server);
    const stand = new OidcStand(issuer, server);
    const signing = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const configuration: Configuration = {
      jwks: { keys: [{ ...signing, kid: 'stand-1', alg: 'RS256', use: 'sig' } as never] },
      clients: clients.map((c) => ({ client_id: c.id, client_secret: c.secret, redirect_uris: [c.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_post' })),
      findAccount: (_ctx, sub) => {
        const account = stand.accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ sub, email: account.email, email_verified: account.emailVerified, preferred_username: account.username }) } : undefined;
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      cookies: { keys: ['portico-test-cookie-key'] },
      ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 600, Grant: 600, RefreshToken: 86400 },
    };
    const provider = new Provider(issuer, configuration);
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        const accountId = stand.next;
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((error: unknown) => json(res, 500, { error: String(error) }));
    });
    return stand;
  }

  close(): Promise<void> {
    return close(this.server);
  }
}

/** A GitHub user of the stand-in. */
export interface GithubUser {
  readonly id: number;
  readonly login: string;
  /** The public profile address (GitHub's `/user` `email`, often null). */
  readonly email: string | null;
  readonly emails: readonly { email: string; primary: boolean; verified: boolean }[];
}

/**
 * A GitHub stand-in: OAuth 2.0 authorization code with PKCE S256 (`/login/oauth/authorize`,
 * `/login/oauth/access_token`, GitHub's shapes: `token_type: bearer`, form or JSON answers), a
 * refresh token grant, and the REST API's `/user` and `/user/emails` with the access token.
 * Codes are single-use. `slow` holds token answers back, `refreshes` counts refresh grants.
 */
export class GithubStand {
  readonly users = new Map<number, GithubUser>();
  next = 0;
  /** Milliseconds every token answer waits (a slow provider). */
  slow = 0;
  /** Drops every connection of the token and API endpoints (a provider that is down). */
  down = false;
  refreshes = 0;
  /** Seconds an access token lives. */
  accessLifetime = 28800;
  /** Every access token issued, for the at-rest checks. */
  readonly issued: string[] = [];
  private readonly codes = new Map<string, { user: number; challenge: string; redirectUri: string }>();
  private readonly access = new Map<string, number>();
  private readonly refresh = new Map<string, number>();

  private constructor(
    readonly base: string,
    private readonly server: Server,
  ) {}

  static async start(client: { id: string; secret: string }): Promise<GithubStand> {
    const server = createServer();
    const base = await listen(server);
    const stand = new GithubStand(base, server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void stand.handle(req, res, client).catch((error: unknown) => json(res, 500, { message: String(error) })));
    return stand;
  }

  private tokens(user: number): Record<string, unknown> {
    const access = `gho_${randomBytes(18).toString('base64url')}`;
    const refresh = `ghr_${randomBytes(30).toString('base64url')}`;
    this.access.set(access, user);
    this.refresh.set(refresh, user);
    this.issued.push(access);
    return { access_token: access, token_type: 'bearer', scope: 'read:user,user:email', expires_in: this.accessLifetime, refresh_token: refresh, refresh_token_expires_in: 15811200 };
  }

  private async handle(req: IncomingMessage, res: ServerResponse, client: { id: string; secret: string }): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    if (url.pathname === '/login/oauth/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== client.id || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge') || !q.get('redirect_uri')) return json(res, 400, { error: 'bad authorization request' });
      const code = randomBytes(10).toString('hex');
      this.codes.set(code, { user: this.next, challenge: q.get('code_challenge') ?? '', redirectUri: q.get('redirect_uri') ?? '' });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return void res.end();
    }
    if (this.down && url.pathname !== '/login/oauth/authorize') return void req.socket.destroy();
    if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
      const form = await readForm(req);
      if (this.slow > 0) await new Promise((resolve) => setTimeout(resolve, this.slow));
      if (form.get('client_id') !== client.id || form.get('client_secret') !== client.secret) return json(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'refresh_token') {
        const user = this.refresh.get(form.get('refresh_token') ?? '');
        if (user === undefined) return json(res, 400, { error: 'bad_refresh_token' });
        this.refresh.delete(form.get('refresh_token') ?? '');
        this.refreshes++;
        return json(res, 200, this.tokens(user));
      }
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (!code || code.redirectUri !== form.get('redirect_uri') || s256(form.get('code_verifier') ?? '') !== code.challenge) return json(res, 400, { error: 'bad_verification_code' });
      return json(res, 200, this.tokens(code.user));
    }
    const user = this.access.get((req.headers.authorization ?? '').replace(/^(bearer|token) /i, ''));
    const found = user === undefined ? undefined : this.users.get(user);
    if (!found) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/user') return json(res, 200, { id: found.id, login: found.login, email: found.email, name: found.login });
    if (url.pathname === '/user/emails') return json(res, 200, found.emails);
    json(res, 404, { message: 'Not Found' });
  }

  close(): Promise<void> {
    return close(this.server);
  }
}

/** How a rogue issuer's ID token lies. */
export type RogueLie = 'audience' | 'issuer' | 'nonce' | 'signature' | 'none';

/**
 * A misbehaving OpenID Connect issuer: a discovery document, keys, and a token endpoint whose
 * ID token carries `lie` (another audience, another issuer, another nonce, a bad signature).
 * It shows that the client, not the provider, checks each claim.
 */
export class RogueIssuer {
  lie: RogueLie = 'none';
  private readonly key: KeyObject;
  private readonly nonces = new Map<string, string>();

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
    private readonly clientId: string,
  ) {
    this.key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  }

  static async start(clientId: string): Promise<RogueIssuer> {
    const server = createServer();
    const issuer = await listen(server);
    const rogue = new RogueIssuer(issuer, server, clientId);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void rogue.handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) })));
    return rogue;
  }

  private idToken(nonce: string): string {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: this.lie === 'issuer' ? 'http://127.0.0.1:1/elsewhere' : this.issuer,
      aud: this.lie === 'audience' ? 'another-client' : this.clientId,
      sub: 'rogue-1',
      email: 'rogue@example.com',
      email_verified: true,
      nonce: this.lie === 'nonce' ? 'not-the-nonce' : nonce,
      iat: now,
      exp: now + 300,
    };
    const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${part({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${part(claims)}`;
    const signature = sign('sha256', Buffer.from(input), this.key).toString('base64url');
    return `${input}.${this.lie === 'signature' ? `${signature.slice(0, -4)}AAAA` : signature}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(res, 200, { keys: [{ ...this.key.export({ format: 'jwk' }), d: undefined, p: undefined, q: undefined, dp: undefined, dq: undefined, qi: undefined, kid: 'k1', alg: 'RS256', use: 'sig' }] });
    if (url.pathname === '/authorize') {
      const code = randomBytes(10).toString('hex');
      this.nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return void res.end();
    }
    if (url.pathname === '/token') {
      const form = await readForm(req);
      const nonce = this.nonces.get(form.get('code') ?? '') ?? '';
      return json(res, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: this.idToken(nonce) });
    }
    json(res, 404, {});
  }

  close(): Promise<void> {
    return close(this.server);
  }
}

/**
 * Follows a provider's redirects from `url` (its own cookies kept) until one leaves for
 * `callbackPrefix`; returns that callback URL. Throws when the provider answers anything else.
 */
export async function followToCallback(url: string, callbackPrefix: string): Promise<string> {
  const jar = new Map<string, string>();
  let at = url;
  for (let hop = 0; hop < 10; hop++) {
    if (at.startsWith(callbackPrefix)) return at;
    const res = await fetch(at, { redirect: 'manual', headers: jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status} at ${at}: ${(await res.text()).slice(0, 300)}`);
    at = new URL(location, at).href;
  }
  throw new Error('too many provider redirects');
}
