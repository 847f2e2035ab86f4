import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { followToCallback, freePort, GithubStand, OidcStand, referenceProviderEnv } from '../support/identity-providers.js';
import { ManualClock } from '../support/open-test-database.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { runNode } from '../support/spawn-node.js';

/**
 * Issue 50, "social login" (REFERENCE-APP "Identity"), on SQLite and PostgreSQL: the reference
 * app's `google` against a real OpenID provider on loopback (oidc-provider) and its `github`
 * against a GitHub stand-in, driven over HTTP as a browser would: new users, the linking rules,
 * explicit link and unlink, forged and replayed callbacks, tokens sealed at rest, key rotation
 * with `portico rotate-keys`, and one refresh for concurrent expired calls.
 */
const pg = await postgresAvailable();
const CLIENT = { id: 'portico-ref', secret: 'portico-ref-secret' };
const OTHER_RP = { id: 'other-rp', secret: 'other-rp-secret' };
const key = (kid: string): string => `${kid}:${randomBytes(32).toString('base64')}`;
const KEY_A = key('a');
const KEY_B = key('b');

/** A logger keeping every line, to check that none holds a secret. */
function capturingLogger(lines: string[]): Logger {
  const keep = (level: string) => (obj: object, msg?: string) => void lines.push(`${level} ${msg ?? ''} ${JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v))}`);
  return { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

describe.each<'sqlite' | 'postgresql'>(['sqlite', ...(pg ? (['postgresql'] as const) : [])])('social login on %s', (backend) => {
  let google: OidcStand;
  let github: GithubStand;
  let ref: RunningReference;
  let origin: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  const logs: string[] = [];
  const clock = new ManualClock(new Date());
  const dir = mkdtempSync(join(tmpdir(), 'portico-social-'));
  const schema = backend === 'postgresql' ? freshPgSchema() : undefined;
  const database = schema ? schema.url : `sqlite:${join(dir, 'reference.db')}`;
  let n = 0;

  const start = async (keys: string): Promise<void> => {
    ref = await startReference(backend, { database, env: { ...env, TOKEN_KEYS: keys }, port, logger: capturingLogger(logs), clock });
  };

  beforeAll(async () => {
    port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const callback = `${origin}/auth/social/google/callback`;
    google = await OidcStand.start([
      { ...CLIENT, redirectUri: callback },
      { ...OTHER_RP, redirectUri: callback },
    ]);
    github = await GithubStand.start(CLIENT);
    env = {
      THROTTLE: 'off',
      PUBLIC_URL: origin,
      ...referenceProviderEnv(google, github, CLIENT),
    };
    await start(KEY_A);
  }, 60_000);
  afterAll(async () => {
    await ref?.close();
    await google?.close();
    await github?.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const unique = (stem: string): string => `${stem}${Date.now().toString(36)}${n++}`;
  /** The provider's next login is a fresh account with this address. */
  const asGoogle = (email: string, verified: boolean): string => {
    const id = unique('g');
    google.accounts.set(id, { email, emailVerified: verified, username: email.split('@')[0] ?? '' });
    google.next = id;
    return id;
  };
  const asGithub = (email: string, verified: boolean): number => {
    const id = 1000 + n++;
    github.users.set(id, { id, login: unique('octo'), email: null, emails: [{ email, primary: true, verified }] });
    github.next = id;
    return id;
  };
  const count = async (table: 'auth_user' | 'social_account'): Promise<number> => ref.app.store.count(table);
  const accountsOf = async (userId: unknown) => ref.app.store.find('social_account', { where: { column: 'user_id', op: 'eq', value: userId as number } });
  const userByEmail = async (email: string) => (await ref.app.store.find('auth_user', { where: { column: 'email', op: 'iexact', value: email } }))[0];

  /** GET …/login: the 302 to the provider. */
  async function begin(browser: HttpClient, provider: string, redirect = '/account'): Promise<URL> {
    const res = await browser.request(`/auth/social/${provider}/login?redirect=${encodeURIComponent(redirect)}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('set-cookie')).toMatch(/portico_social=[^;]+; Path=\/auth\/social\/; Max-Age=600; HttpOnly; SameSite=Lax/);
    return new URL(res.headers.get('location') ?? '');
  }
  /** The provider's answer to the browser: the callback path it is sent back to. */
  async function atProvider(authorize: URL, provider: string): Promise<string> {
    const back = new URL(await followToCallback(authorize.href, `${origin}/auth/social/${provider}/callback`));
    return `${back.pathname}${back.search}`;
  }
  /** A whole login: its 303 (the callback's answer). */
  async function socialLogin(browser: HttpClient, provider: string, redirect = '/account'): Promise<Response> {
    return browser.request(await atProvider(await begin(browser, provider, redirect), provider));
  }
  const me = async (browser: HttpClient) => (await browser.request('/api/auth/me')).json() as Promise<{ user: { username: string; email: string }; social_accounts: { provider: string }[] }>;
  /** A refusal: 303 to /login, the pending cookie cleared, and the flash on the next page. */
  async function expectRefused(browser: HttpClient, res: Response, flash: RegExp): Promise<void> {
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
    expect(browser.cookies.has('portico_social')).toBe(false);
    expect((await browser.home()).flash.join('\n')).toMatch(flash);
    expect((await browser.request('/api/auth/me')).status).toBe(401);
  }

  it('signs up a new user: 302 with state, nonce and PKCE S256, then 303 with a session; me lists the provider', async () => {
    const email = `${unique('new')}@example.com`;
    const account = asGoogle(email, true);
    const browser = new HttpClient(ref.url);
    const authorize = await begin(browser, 'google', '/account');
    expect(authorize.origin).toBe(google.issuer);
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${origin}/auth/social/google/callback`);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const res = await browser.request(await atProvider(authorize, 'google'));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
    expect(browser.cookies.has('portico_session')).toBe(true);
    expect(browser.cookies.has('portico_social')).toBe(false);
    const body = await me(browser);
    expect(body.user.email).toBe(email);
    expect(body.social_accounts).toEqual([{ provider: 'google', email, linked_at: expect.any(String) }]);
    const user = await userByEmail(email);
    expect(user?.password_hash).toBeNull();
    expect(user?.email_verified_at).toBeInstanceOf(Date);
    // A second login finds the same user.
    const again = new HttpClient(ref.url);
    google.next = account;
    expect((await socialLogin(again, 'google')).status).toBe(303);
    expect((await me(again)).user.username).toBe(body.user.username);
  });

  it('links a verified local account automatically when the provider verified the same address', async () => {
    const browser = new HttpClient(ref.url);
    const alice = await userByEmail('alice@example.com');
    asGithub('ALICE@example.com', true);
    const res = await socialLogin(browser, 'github');
    expect(res.status).toBe(303);
    expect((await me(browser)).user.username).toBe('alice');
    expect((await accountsOf(alice?.id)).map((a) => a.provider)).toEqual(['github']);
  });

  it('never links an unverified local account holding the address (pre-hijack), nor on an unverified provider address', async () => {
    const email = `${unique('victim')}@example.com`;
    const signup = await new HttpClient(ref.url).json('/api/auth/signup', 'POST', { username: unique('squatter'), email, password: 'correct horse battery staple' });
    expect(signup.status).toBe(201);
    const squatter = await userByEmail(email);
    expect(squatter?.email_verified_at).toBeNull();
    const before = { users: await count('auth_user'), accounts: await count('social_account') };
    const browser = new HttpClient(ref.url);
    asGoogle(email, true);
    await expectRefused(browser, await socialLogin(browser, 'google'), /An account with this email address exists\. Log in with your password, then link google/);
    // The provider not vouching for the address: no link to the verified bob either.
    asGithub('bob@example.com', false);
    await expectRefused(browser, await socialLogin(browser, 'github'), /An account with this email address exists/);
    expect({ users: await count('auth_user'), accounts: await count('social_account') }).toEqual(before);
    expect(await accountsOf(squatter?.id)).toEqual([]);
  });

  it('links from a session and unlinks; refuses a link without a session or CSRF token, and unlinking the only way in', async () => {
    const browser = new HttpClient(ref.url);
    const login = await browser.form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    expect(login.status).toBe(303);
    const bob = await userByEmail('bob@example.com');
    // Another address at the provider, unverified: an explicit link does not need it to match.
    asGithub(`${unique('bob-elsewhere')}@example.org`, false);
    expect((await browser.request('/auth/social/github/link', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status).toBe(403);
    const link = await browser.form('/auth/social/github/link', {});
    expect(link.status).toBe(303);
    const res = await browser.request(await atProvider(new URL(link.headers.get('location') ?? ''), 'github'));
    expect(res.status).toBe(303);
    expect((await browser.home()).flash).toContain('Your github account is now linked.');
    expect((await me(browser)).social_accounts.map((a) => a.provider)).toEqual(['github']);
    expect((await accountsOf(bob?.id)).length).toBe(1);
    const unlink = await browser.form('/auth/social/github/unlink?redirect=/account', {});
    expect(unlink.status).toBe(303);
    expect(unlink.headers.get('location')).toBe('/account');
    expect(await accountsOf(bob?.id)).toEqual([]);
    expect((await me(browser)).social_accounts).toEqual([]);

    const anonymous = new HttpClient(ref.url);
    const refused = await anonymous.form('/auth/social/github/link', {});
    expect(refused.headers.get('location')).toBe('/login');
    expect((await anonymous.home()).flash).toContain('Log in to link a github account.');

    // A user made by the provider has no password: its only account stays.
    const only = new HttpClient(ref.url);
    asGithub(`${unique('only')}@example.com`, true);
    expect((await socialLogin(only, 'github')).status).toBe(303);
    const kept = await only.form('/auth/social/github/unlink', {}, { csrf: await only.csrf('/account') });
    expect(kept.status).toBe(303);
    expect((await only.home()).flash.join()).toMatch(/only way to sign in/);
    expect((await me(only)).social_accounts.map((a) => a.provider)).toEqual(['github']);
  });

  it('refuses forged and replayed callbacks: 303 /login with a flash, nothing created, linked or logged with a secret', async () => {
    const before = { users: await count('auth_user'), accounts: await count('social_account') };
    const secrets: string[] = [];
    const started = async (browser: HttpClient, provider: 'google' | 'github', tamper?: (url: URL) => void) => {
      if (provider === 'google') asGoogle(`${unique('forged')}@example.com`, true);
      else asGithub(`${unique('forged')}@example.com`, true);
      const authorize = await begin(browser, provider);
      tamper?.(authorize);
      const back = await atProvider(authorize, provider);
      const query = new URL(back, origin).searchParams;
      secrets.push(query.get('code') ?? '', query.get('state') ?? '', browser.cookies.get('portico_social') ?? '');
      return { back, query };
    };
    const path = (provider: string, query: URLSearchParams) => `/auth/social/${provider}/callback?${query.toString()}`;

    // A missing and a wrong state.
    for (const change of [(q: URLSearchParams) => q.delete('state'), (q: URLSearchParams) => q.set('state', 'x'.repeat(43))]) {
      const browser = new HttpClient(ref.url);
      const { query } = await started(browser, 'github');
      change(query);
      await expectRefused(browser, await browser.request(path('github', query)), /expired or was started in another browser/);
    }
    // Another browser's state: without a pending login, and with one of its own.
    {
      const victim = new HttpClient(ref.url);
      const { back } = await started(new HttpClient(ref.url), 'google');
      await expectRefused(victim, await victim.request(back), /expired or was started in another browser/);
      const other = new HttpClient(ref.url);
      await begin(other, 'google');
      await expectRefused(other, await other.request(back), /expired or was started in another browser/);
    }
    // A nonce other than the one sent, and a code issued to another client (its ID token for another audience).
    for (const tamper of [(u: URL) => u.searchParams.set('nonce', 'n'.repeat(43)), (u: URL) => u.searchParams.set('client_id', OTHER_RP.id)]) {
      const browser = new HttpClient(ref.url);
      const { back } = await started(browser, 'google', tamper);
      await expectRefused(browser, await browser.request(back), /Signing in with google failed/);
    }
    // A provider error.
    {
      const browser = new HttpClient(ref.url);
      const { query } = await started(browser, 'github');
      const error = new URLSearchParams({ error: 'access_denied', state: query.get('state') ?? '' });
      await expectRefused(browser, await browser.request(path('github', error)), /Signing in with github failed/);
    }
    expect({ users: await count('auth_user'), accounts: await count('social_account') }).toEqual(before);

    // A code used twice, with the browser's pending cookie replayed: the second is refused.
    {
      const browser = new HttpClient(ref.url);
      const { back } = await started(browser, 'github');
      const pending = browser.cookies.get('portico_social') ?? '';
      expect((await browser.request(back)).status).toBe(303);
      const replay = new HttpClient(ref.url);
      replay.cookies.set('portico_social', pending);
      await expectRefused(replay, await replay.request(back), /Signing in with github failed/);
    }
    const logged = logs.join('\n');
    for (const secret of [...secrets, ...github.issued].filter((s) => s.length >= 16)) expect(logged).not.toContain(secret);
    expect(logged).toContain('social login callback refused');
  });

  it('stores provider tokens sealed: a dump of the database holds none of them in plaintext', async () => {
    const browser = new HttpClient(ref.url);
    const id = asGithub(`${unique('sealed')}@example.com`, true);
    expect((await socialLogin(browser, 'github')).status).toBe(303);
    const [account] = await ref.app.store.find('social_account', { where: { column: 'subject', op: 'eq', value: String(id) } });
    expect(account?.access_token).toMatch(/^t1\.a\./);
    const dump =
      backend === 'postgresql'
        ? execFileSync('pg_dump', ['--data-only', '--schema', schema?.schema ?? '', schema?.url.split('?')[0] ?? ''], { encoding: 'utf8' })
        : readdirSync(dir)
            .map((f) => readFileSync(join(dir, f)).toString('latin1'))
            .join('');
    expect(dump).toContain(String(account?.access_token).slice(0, 40));
    expect(github.issued.length).toBeGreaterThan(0);
    for (const token of github.issued) expect(dump).not.toContain(token);
  });

  it('refreshes an expired token once for 20 concurrent calls', async () => {
    const browser = new HttpClient(ref.url);
    asGithub(`${unique('refresh')}@example.com`, true);
    expect((await socialLogin(browser, 'github')).status).toBe(303);
    const { user } = await me(browser);
    const userId = (await userByEmail(user.email))?.id ?? null;
    const first = await ref.app.socialAccessToken(userId, 'github');
    expect(first).toBe(github.issued.at(-1));
    const refreshes = github.refreshes;
    clock.advance(9 * 3600_000);
    try {
      const tokens = await Promise.all(Array.from({ length: 20 }, () => ref.app.socialAccessToken(userId, 'github')));
      expect(github.refreshes - refreshes).toBe(1);
      expect(new Set(tokens)).toEqual(new Set([github.issued.at(-1)]));
      expect(tokens[0]).not.toBe(first);
      // Stored: the next call reads it without a refresh.
      expect(await ref.app.socialAccessToken(userId, 'github')).toBe(tokens[0]);
      expect(github.refreshes - refreshes).toBe(1);
    } finally {
      clock.set(new Date());
    }
  });

  it('answers a provider that is down with 303 /login and a flash', async () => {
    const browser = new HttpClient(ref.url);
    asGithub(`${unique('down')}@example.com`, true);
    const back = await atProvider(await begin(browser, 'github'), 'github');
    github.down = true;
    try {
      await expectRefused(browser, await browser.request(back), /Signing in with github failed/);
    } finally {
      github.down = false;
    }
  });

  // The provider's 10 s budget: the request ends with the refusal, not hung.
  it('answers a provider slower than its 10 s timeout with 303 /login and a flash', async () => {
    const browser = new HttpClient(ref.url);
    asGithub(`${unique('slow')}@example.com`, true);
    const back = await atProvider(await begin(browser, 'github'), 'github');
    github.slow = 15_000;
    try {
      await expectRefused(browser, await browser.request(back), /Signing in with github failed/);
    } finally {
      github.slow = 0;
    }
    expect(logs.join('\n')).toMatch(/github: the provider did not answer in time/);
  }, 30_000);

  it('rotates keys with portico rotate-keys, and logins keep working on the new key alone', async () => {
    const browser = new HttpClient(ref.url);
    const email = `${unique('rotate')}@example.com`;
    const id = asGithub(email, true);
    expect((await socialLogin(browser, 'github')).status).toBe(303);
    const userId = (await userByEmail(email))?.id ?? null;
    const token = await ref.app.socialAccessToken(userId, 'github');
    await ref.close();
    const cli = await runNode(['dist/src/cli/portico.js', 'rotate-keys', '--app', 'dist/examples/reference/app.js', '--db', database], 60_000, { ...env, TOKEN_KEYS: `${KEY_B},${KEY_A}` });
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toMatch(/^re-sealed [1-9]\d* of [1-9]\d* provider accounts? with the first key\n$/);
    expect(cli.code).toBe(0);
    await start(KEY_B);
    const [account] = await ref.app.store.find('social_account', { where: { column: 'subject', op: 'eq', value: String(id) } });
    expect(account?.access_token).toMatch(/^t1\.b\./);
    expect(await ref.app.socialAccessToken(userId, 'github')).toBe(token);
    github.next = id;
    const again = new HttpClient(ref.url);
    expect((await socialLogin(again, 'github')).status).toBe(303);
    expect((await me(again)).user.email).toBe(email);
    // A second run has nothing left to do.
    await ref.close();
    const twice = await runNode(['dist/src/cli/portico.js', 'rotate-keys', '--app', 'dist/examples/reference/app.js', '--db', database], 60_000, { ...env, TOKEN_KEYS: KEY_B });
    expect(twice.stdout).toMatch(/^re-sealed 0 of/);
    await start(KEY_B);
  }, 120_000);
});

describe('TOKEN_KEYS while social login is configured', () => {
  it.each([
    ['missing', undefined],
    ['malformed', 'k1:too-short'],
  ])('%s: the reference app refuses to start with one line naming it', async (_case, keys) => {
    const run = await runNode(['dist/examples/reference/main.js', '--port', '0', '--db', 'sqlite::memory:'], 60_000, {
      SOCIAL_GITHUB_CLIENT_ID: 'id',
      SOCIAL_GITHUB_CLIENT_SECRET: 'secret',
      ...(keys === undefined ? { TOKEN_KEYS: '' } : { TOKEN_KEYS: keys }),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^portico: TOKEN_KEYS (is not set|is malformed at entry 1): [^\n]+\n$/);
    expect(run.stdout).toBe('');
  });
});
