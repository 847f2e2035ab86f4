import { describe, expect, it } from 'vitest';
import { GRAPHQL_CODE_BY_CODE } from '../../../src/adapters/graphql/error-mapping.js';
import { STATUS_BY_CODE, statusTitle } from '../../../src/adapters/http-koa/problem-mapping.js';
import { adminHandler, type AdminDeps } from '../../../src/adapters/http-koa/admin/admin-context.js';
import type { HttpRequest } from '../../../src/adapters/http-koa/http-route.js';
import { REALTIME_CODE_BY_CODE } from '../../../src/adapters/realtime/error-codes.js';
import { ERROR_CODES } from '../../../src/domain/errors/codes.js';
import { DomainError } from '../../../src/domain/errors/domain-error.js';
import type { Identity } from '../../../src/domain/auth/identity.js';

const deps = { prefix: '/admin', loginUrl: undefined, appLabel: 'app', permissions: undefined } as unknown as AdminDeps;
const root: Identity = { isAuthenticated: true, id: 1, username: 'root', isStaff: true, isSuperuser: true, via: 'session' };
const req = { path: '/admin/x', params: {}, identity: () => Promise.resolve(root), session: undefined } as unknown as HttpRequest;

/** The admin's answer to a handler that throws `error`: its error page, for a superuser. */
const adminAnswer = (error: DomainError) => adminHandler(deps, () => Promise.reject(error))(req);

describe('one error table per transport: every registry code is mapped by each', () => {
  it('REST gives every code a 4xx or 5xx status with a title', () => {
    for (const code of ERROR_CODES) {
      const status = STATUS_BY_CODE[code];
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(statusTitle(status), code).not.toBe('Error');
    }
  });

  it('GraphQL gives every code an extensions.code', () => {
    for (const code of ERROR_CODES) expect(GRAPHQL_CODE_BY_CODE[code], code).toMatch(/^[A-Za-z_]+$/);
  });

  it('the realtime WebSocket gives every code a wire code: its own, or invalid_message for a refused message', () => {
    for (const code of ERROR_CODES) expect([code, 'invalid_message'], code).toContain(REALTIME_CODE_BY_CODE[code]);
    expect(REALTIME_CODE_BY_CODE.invalid_input).toBe('invalid_message');
  });

  it('the admin answers every code with REST\'s status, as an HTML page headed by its title', async () => {
    for (const code of ERROR_CODES) {
      const res = await adminAnswer(new DomainError(code, `refused: ${code}`));
      expect(res.status, code).toBe(STATUS_BY_CODE[code]);
      expect(res.type, code).toMatch(/^text\/html/);
      expect(String(res.body), code).toContain(statusTitle(STATUS_BY_CODE[code]));
    }
  });

  it('the admin keeps the Retry-After an error names', async () => {
    const res = await adminAnswer(Object.assign(new DomainError('throttled', 'slow down'), { retryAfterSeconds: 30 }));
    expect(res).toMatchObject({ status: 429, headers: { 'Retry-After': '30' } });
  });
});
