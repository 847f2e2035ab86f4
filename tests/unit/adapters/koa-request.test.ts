import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerAuthentication, sessionAuthentication, type AuthBackend } from '../../../src/adapters/http-koa/authentication.js';
import { buildKoaApp, type Identify } from '../../../src/adapters/http-koa/koa-app.js';
import type { HttpRequest, HttpResponse } from '../../../src/adapters/http-koa/http-route.js';
import { ANONYMOUS, type Identity } from '../../../src/domain/auth/identity.js';
import type { Logger } from '../../../src/ports/logger.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves one GET route with `handler` and answers `path` with its JSON body. */
async function get(path: string, handler: (req: HttpRequest) => Promise<HttpResponse> | HttpResponse, identify?: Identify): Promise<unknown> {
  const app = buildKoaApp({ logger: quiet, logRequests: false, routes: [{ method: 'GET', path: '/r', handler }], ...(identify ? { identify } : {}) });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('the neutral request over Koa', () => {
  it('resolves the caller at most once per backend, whichever backend is asked first and however often', async () => {
    const asked: string[] = [];
    const identify: Identify = (backend) => {
      asked.push(backend?.kind ?? 'default');
      return Promise.resolve({ ...ANONYMOUS, id: backend?.kind ?? 'default' } as unknown as Identity);
    };
    const session: AuthBackend = sessionAuthentication();
    const bearer: AuthBackend = bearerAuthentication();
    const body = await get(
      '/r',
      async (req) => {
        const order = [bearer, bearer, session, undefined, session, bearer, undefined];
        const seen = [];
        for (const backend of order) seen.push(((await req.identity(backend)) as unknown as { id: string }).id);
        return { status: 200, body: { seen, same: req.identity(session) === req.identity(session) && req.identity(bearer) === req.identity(bearer) } };
      },
      identify,
    );
    expect(body).toEqual({ seen: ['bearer', 'bearer', 'session', 'default', 'session', 'bearer', 'default'], same: true });
    expect(asked).toEqual(['bearer', 'session', 'default']);
  });

  it('reads no parameters without a query string, and every parameter with one, read-only either way', async () => {
    const query = (req: HttpRequest): HttpResponse => {
      let written = true;
      try {
        (req.query as Record<string, string>).extra = 'x';
      } catch {
        written = false;
      }
      return { status: 200, body: { query: { ...req.query }, keys: Object.keys(req.query).length, frozen: Object.isFrozen(req.query), written, same: req.query === req.query } };
    };
    const readOnly = { frozen: true, written: false, same: true };
    expect(await get('/r', query)).toEqual({ query: {}, keys: 0, ...readOnly });
    expect(await get('/r?', query)).toEqual({ query: {}, keys: 0, ...readOnly });
    expect(await get('/r?a=1&a=2&b=&c=%20x', query)).toEqual({ query: { a: ['1', '2'], b: '', c: ' x' }, keys: 3, ...readOnly });
  });
});
