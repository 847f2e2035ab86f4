import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { buildKoaApp } from '../../../src/adapters/http-koa/koa-app.js';
import type { RouteDef } from '../../../src/adapters/http-koa/http-route.js';
import type { Logger } from '../../../src/ports/logger.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/**
 * An app whose early routes answer 'early' and whose plugin middleware answers 'late' to any
 * path that reaches it: early routes are served before the plugins' middleware, on any case and
 * trailing slashes of their path (what the router matches).
 */
async function serve(earlyPaths: readonly string[]): Promise<(path: string) => Promise<string>> {
  const routes: RouteDef[] = earlyPaths.map((path) => ({ method: 'GET', path, early: true, handler: () => ({ status: 200, body: 'early' }) }));
  const late: Koa.Middleware = (ctx) => {
    ctx.body = 'late';
  };
  const app = buildKoaApp({ logger: quiet, logRequests: false, routes, middleware: [late] });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
}

describe('early routes', () => {
  it('are served on any case of their path and with a trailing slash, and every other path goes on to the plugins', async () => {
    const get = await serve(['/healthz', '/readyz']);
    expect(await get('/healthz')).toBe('early');
    expect(await get('/HEALTHZ')).toBe('early');
    expect(await get('/Readyz/')).toBe('early');
    for (const path of ['/api/author/1', '/health', '/healthzz', '/', '//healthz', '/%48ealthz', '/Hi']) expect(await get(path)).toBe('late');
  });

  it('at the root: reached by "/" and by "//"', async () => {
    const get = await serve(['/', '/healthz']);
    expect(await get('/')).toBe('early');
    expect(await get('//')).toBe('early');
    expect(await get('/HealthZ/')).toBe('early');
    expect(await get('/api')).toBe('late');
  });
});
