/**
 * Social callback server time (issue 50, "Benchmark"): `GET /auth/social/<p>/callback` against a
 * JSON login (`POST /api/auth/login`, one argon2id verify) on the reference app over SQLite. The
 * provider is an in-process IdentityProvider that answers at once (its contract suite runs the
 * real adapters against real servers), so the callback's time is Portico's alone: opening the
 * pending cookie, the state check, the linking transaction, two sealed tokens and a new
 * session. Returning users (the account linked) and new users (a user and an account created)
 * alternate with logins, 200 of each after 20 warm-up rounds; medians are reported.
 *
 *   npm run build && node dist/bench/social-callback.js
 *
 * Writes bench/results/social-callback.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildReferenceApp } from '../examples/reference/app.js';
import { MemoryMailer, socialLogin, type AuthorizationChecks, type IdentityProvider, type ProviderTokens, type SocialProfile } from '../src/index.js';
import { median } from './stats.js';

const ROUNDS = 200;
const WARMUP = 20;


/** A provider with no network: the authorization URL is the callback itself, the code names the account. */
class InstantProvider implements IdentityProvider {
  readonly name = 'bench';
  subject = 'returning';

  authorizationUrl(checks: AuthorizationChecks): Promise<string> {
    return Promise.resolve(`${checks.redirectUri}?code=${this.subject}&state=${checks.state}`);
  }

  complete(callback: URL): Promise<{ profile: SocialProfile; tokens: ProviderTokens }> {
    const subject = callback.searchParams.get('code') ?? '';
    return Promise.resolve({
      profile: { subject, email: `${subject}@bench.example`, emailVerified: true, username: subject },
      tokens: { accessToken: `at-${randomBytes(16).toString('hex')}`, refreshToken: `rt-${randomBytes(16).toString('hex')}`, expiresIn: 3600 },
    });
  }

  refresh(): Promise<ProviderTokens> {
    return Promise.reject(new Error('not used'));
  }
}

/** One social login: the login's cookie, then the timed callback. */
async function callback(url: string): Promise<number> {
  const begun = await fetch(`${url}/auth/social/bench/login?redirect=/`, { redirect: 'manual' });
  const cookie = (begun.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const location = begun.headers.get('location') ?? '';
  const started = performance.now();
  const res = await fetch(location, { redirect: 'manual', headers: { cookie } });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 303 || res.headers.get('location') !== '/') throw new Error(`callback answered ${res.status} ${res.headers.get('location')}`);
  return ms;
}

async function login(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bob', password: 'bob-password-1' }) });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return ms;
}

async function main(): Promise<void> {
  const provider = new InstantProvider();
  const app = buildReferenceApp({ database: 'sqlite::memory:', logRequests: false, env: { THROTTLE: 'off' }, mailer: new MemoryMailer() });
  app.use(socialLogin({ providers: [provider], tokenKeys: `k1:${randomBytes(32).toString('base64')}` }));
  const { url } = await app.listen(0);
  const returning: number[] = [];
  const created: number[] = [];
  const logins: number[] = [];
  try {
    for (let i = 0; i < WARMUP + ROUNDS; i++) {
      provider.subject = 'returning';
      const r = await callback(url);
      provider.subject = `new${i}`;
      const c = await callback(url);
      const l = await login(url);
      if (i >= WARMUP) {
        returning.push(r);
        created.push(c);
        logins.push(l);
      }
    }
  } finally {
    await app.close();
  }
  const login50 = median(logins);
  const row = (name: string, xs: number[]) => `| ${name} | ${median(xs).toFixed(2)} | ${(median(xs) / login50).toFixed(3)} |`;
  const table = ['| request | median ms | / JSON login |', '|---|---|---|', row('social callback, returning user', returning), row('social callback, new user', created), row('JSON login (argon2id verify)', logins)].join('\n');
  console.log(table);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/social-callback.md', `# Social callback server time\n\n${ROUNDS} rounds after ${WARMUP} warm-up rounds, reference app on SQLite, an in-process provider (\`node dist/bench/social-callback.js\`).\n\n${table}\n`);
}

void main();
