import Router from '@koa/router';
import fc from 'fast-check';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { bucketedRoutes, routerMiddleware, type BucketRoute } from '../../src/adapters/http-koa/route-buckets.js';

/**
 * The split routers answer every request exactly as one @koa/router holding every route does:
 * the same handler (or none), the same parameters, status and `Allow`, for paths made from the
 * routes' own segments in any case, with extra, missing and empty segments and trailing slashes.
 */
const PATHS = [
  '/',
  '/login',
  '/api',
  '/api/',
  '/api/post',
  '/api/post/',
  '/api/post/:id',
  '/api/post/:id/publish',
  '/api/post/recent',
  '/api/project/:parentId/milestone/:id',
  '/api/openapi.json',
  '/admin',
  '/admin/:table',
  '/admin/:table/:id/delete',
  '/graphql',
  '/graphql/assets/:file',
  '/:anything/feed',
  '/files/*rest',
  '/opt{/:x}/end',
  '/*everything/tail',
  '/Mixed/Case',
];
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PUT'];

function routesOf(specs: readonly { path: string; methods: string[] }[]): BucketRoute[] {
  return specs.map(({ path, methods }, i) => ({
    path,
    methods,
    handler: (ctx) => {
      ctx.status = 200;
      ctx.body = { route: i, params: ctx.params as unknown };
    },
  }));
}

function plainRouter(routes: readonly BucketRoute[]): Koa.Middleware {
  const router = new Router();
  for (const route of routes) router.register(route.path, [...route.methods], route.handler);
  return routerMiddleware(router);
}

async function answer(mw: Koa.Middleware, method: string, path: string): Promise<unknown> {
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      ctx.status = (error as { status?: number }).status ?? 500;
    }
  });
  app.use(mw);
  const ctx = app.createContext({ method, url: path, headers: { host: 'x' }, socket: {} } as never, { setHeader() {}, getHeader() {}, removeHeader() {}, getHeaderNames: () => [], hasHeader: () => false } as never);
  const headers: Record<string, string> = {};
  ctx.set = ((name: string, value: string) => void (headers[name.toLowerCase()] = value)) as never;
  await (app.middleware[0] as Koa.Middleware)(ctx, () => (app.middleware[1] as Koa.Middleware)(ctx, async () => undefined));
  return { status: ctx.status, body: ctx.body as unknown, allow: headers.allow };
}

const segment = fc.oneof(
  fc.constantFrom(...PATHS.flatMap((p) => p.split('/')).filter((s) => !/[:()]/.test(s))),
  fc.constantFrom('', '1', '42', 'x y', '%61pi', 'API', 'Post', 'ADMIN', 'feed', 'İ', 'K'),
);
const requestPath = fc
  .tuple(fc.array(segment, { minLength: 0, maxLength: 5 }), fc.boolean())
  .map(([segments, slash]) => `/${segments.map((s) => (Math.random() < 0.3 ? s.toUpperCase() : s)).join('/')}${slash ? '/' : ''}`);
const routeSet = fc.subarray(PATHS, { minLength: 1 }).chain((paths) =>
  fc.tuple(...paths.map((path) => fc.subarray(METHODS, { minLength: 1 }).map((methods) => ({ path, methods })))),
);

describe('bucketed routes', () => {
  it('answer every request as one router with every route does', async () => {
    await fc.assert(
      fc.asyncProperty(routeSet, fc.array(fc.tuple(fc.constantFrom(...METHODS), requestPath), { minLength: 1, maxLength: 20 }), async (specs, requests) => {
        const routes = routesOf(specs);
        const plain = plainRouter(routes);
        const split = bucketedRoutes(routes);
        for (const [method, path] of requests) {
          expect(await answer(split, method, path), `${method} ${path}`).toEqual(await answer(plain, method, path));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds a route under its fixed segments in any case, and a parameterised first segment under any', async () => {
    const routes = routesOf(PATHS.map((path) => ({ path, methods: ['GET'] })));
    const split = bucketedRoutes(routes);
    expect(await answer(split, 'GET', '/API/Post/7')).toEqual({ status: 200, body: { route: 6, params: { id: '7' } }, allow: undefined });
    expect(await answer(split, 'GET', '/mixed/case/')).toEqual({ status: 200, body: { route: 20, params: {} }, allow: undefined });
    expect(await answer(split, 'GET', '/news/feed')).toEqual({ status: 200, body: { route: 16, params: { anything: 'news' } }, allow: undefined });
    expect(await answer(split, 'POST', '/api/post/7')).toMatchObject({ status: 405, allow: 'HEAD, GET' });
    expect(await answer(split, 'GET', '/nowhere/at/all')).toEqual({ status: undefined, body: undefined, allow: undefined }); // nothing answered: 404 is the envelope's
  });
});
