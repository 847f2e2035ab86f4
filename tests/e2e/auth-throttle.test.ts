import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference('sqlite', { env: {} });
});
afterAll(async () => ref.close());
const c = () => new HttpClient(ref.url);

describe('auth throttles (DESIGN §3: 5 login attempts per 5 minutes per IP + username)', () => {
  it('the sixth login attempt answers 429 with Retry-After, even with the right password', async () => {
    for (let i = 0; i < 5; i++) expect((await c().json('/api/auth/login', 'POST', { username: 'bob', password: 'wrong-password' })).status).toBe(401);
    const blocked = await c().json('/api/auth/login', 'POST', { username: 'bob', password: 'bob-password-1' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    expect(await blocked.json()).toMatchObject({ code: 'throttled', status: 429 });
    const form = await c().form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    expect(form.status).toBe(429);
  });

  it('the budget is per username, and a success clears it', async () => {
    for (let i = 0; i < 4; i++) await c().json('/api/auth/login', 'POST', { username: 'staff', password: 'wrong-password' });
    expect((await c().json('/api/auth/login', 'POST', { username: 'staff', password: 'staff-password-1' })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await c().json('/api/auth/login', 'POST', { username: 'staff', password: 'wrong-password' })).status).toBe(401);
    expect((await c().json('/api/auth/login', 'POST', { username: 'root', password: 'root-password-1' })).status).toBe(200);
  });

  it('verify-email answers 429 past 5 attempts per address', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await c().json('/api/auth/verify-email', 'POST', { email: 'alice@example.com', code: '000000' })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});

describe('client IP behind proxies (DESIGN §3: X-Forwarded-For only with trustedProxyHops > 0)', () => {
  it('ignores X-Forwarded-For without trusted proxies: one budget for the connection', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await c().json('/api/auth/login', 'POST', { username: 'nobody-xff', password: 'x' }, { 'x-forwarded-for': `198.51.100.${i}` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('uses X-Forwarded-For and X-Forwarded-Host/Proto with TRUSTED_PROXY_HOPS=1', async () => {
    const proxied = await startReference('sqlite', { env: { TRUSTED_PROXY_HOPS: '1' } });
    try {
      const client = new HttpClient(proxied.url);
      for (let i = 0; i < 6; i++) {
        const res = await client.json('/api/auth/login', 'POST', { username: 'nobody-xff', password: 'x' }, { 'x-forwarded-for': `198.51.100.${i}` });
        expect(res.status).toBe(401);
      }
      const root = await client.request('/api/', { headers: { 'x-forwarded-host': 'api.example.com', 'x-forwarded-proto': 'https' } });
      const body = (await root.json()) as { endpoints: { url: string }[] };
      expect(body.endpoints[0]?.url.startsWith('https://api.example.com/')).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});
