import { describe, expect, it } from 'vitest';
import type { TokenManager } from '../../../src/application/auth/token-manager.js';
import {
  bearerAuthentication,
  chainAuthentication,
  noAuthentication,
  resolveIdentity,
  sessionAuthentication,
  type AuthBackend,
} from '../../../src/adapters/http-koa/authentication.js';
import type { SessionHandle } from '../../../src/adapters/http-koa/http-route.js';
import { ANONYMOUS } from '../../../src/domain/auth/identity.js';

const asked: string[] = [];
const tokens = {
  resolve: async (token: string) => {
    asked.push(`token ${token}`);
    return token === 'a'.repeat(32) ? { id: 7, username: 'alice', is_active: true } : null;
  },
} as unknown as TokenManager;
const session = (user: Record<string, unknown> | null): SessionHandle =>
  ({
    user: async () => {
      asked.push('session');
      return user;
    },
  }) as unknown as SessionHandle;

const backends: [string, AuthBackend][] = [
  ['none', noAuthentication()],
  ['session', sessionAuthentication()],
  ['bearer', bearerAuthentication()],
  ['chain', chainAuthentication(sessionAuthentication(), bearerAuthentication())],
];

describe('resolveIdentity', () => {
  it.each(backends)('%s: a request with neither an Authorization header nor a session is anonymous, and no source is read', async (_name, backend) => {
    asked.length = 0;
    expect(await resolveIdentity(backend, { authorization: undefined, session: undefined, tokens })).toBe(ANONYMOUS);
    expect(await resolveIdentity(backend, { authorization: '', session: undefined, tokens })).toBe(ANONYMOUS);
    expect(asked).toEqual([]);
  });

  it('a chain still reads the session, then the bearer token, when either is present', async () => {
    asked.length = 0;
    const viaSession = await resolveIdentity(backends[3]![1], { authorization: undefined, session: session({ id: 3, username: 'bob', is_active: true }), tokens });
    expect([viaSession.isAuthenticated, viaSession.via]).toEqual([true, 'session']);
    const viaToken = await resolveIdentity(backends[3]![1], { authorization: `Bearer ${'a'.repeat(32)}`, session: session(null), tokens });
    expect([viaToken.isAuthenticated, viaToken.via]).toEqual([true, 'bearer']);
    expect(asked).toEqual(['session', 'session', `token ${'a'.repeat(32)}`]);
  });

  it('a present but unknown or malformed bearer token is refused, never anonymous', async () => {
    await expect(resolveIdentity(bearerAuthentication(), { authorization: `Bearer ${'b'.repeat(32)}`, session: undefined, tokens })).rejects.toMatchObject({ code: 'not_authenticated' });
    await expect(resolveIdentity(bearerAuthentication(), { authorization: 'Bearer !', session: undefined, tokens })).rejects.toMatchObject({ code: 'not_authenticated' });
  });
});
