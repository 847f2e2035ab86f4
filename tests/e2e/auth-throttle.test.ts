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
