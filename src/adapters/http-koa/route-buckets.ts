import type Router from '@koa/router';
import type Koa from 'koa';
import { KoaRouter } from './commonjs-packages.js';

/** A route as the router registers it. */
export interface BucketRoute {
  readonly path: string;
  readonly methods: readonly string[];
  readonly handler: Koa.Middleware;
}

/** A router's dispatch followed by its 404/405/501 answers (`allowedMethods`), as one middleware. */
export function routerMiddleware(router: Router): Koa.Middleware {
  const dispatch = router.routes() as Koa.Middleware;
  const allowed = router.allowedMethods() as Koa.Middleware;
  return (ctx, next) => dispatch(ctx, () => allowed(ctx, next));
}

/** A path segment that matches only its own text (no parameter, wildcard, group or modifier). */
const STATIC_SEGMENT = /^[^:*(){}?+\\]*$/;

/**
 * The routes' dispatch and their 404/405 answers through @koa/router, with each request matched
 * only against the routes that could match its path. @koa/router tries every route's regular
 * expression in turn (the reference app registers some 90), so the routes are split by their
 * first two path segments when those are fixed text: `/api/post/:id` can only match a path whose
 * segments start `api`, `post`. A route whose first segment is not fixed text stays in every
 * split, and one whose second segment is not fixed text in every split under its first segment,
 * so each router holds, in registration order, every route that could match the paths sent to
 * it: what @koa/router matches, answers 405 for and lists in `Allow` is unchanged. Segments are
 * compared case-insensitively (the routers are), and the request path is split as it arrives.
 */
export function bucketedRoutes(routes: readonly BucketRoute[]): Koa.Middleware {
  const keys = routes.map((route) => routeKey(route.path));
  const firsts = new Set(keys.flatMap((key) => (key.first === undefined ? [] : [key.first])));
  const build = (take: (key: RouteKey) => boolean): Koa.Middleware => {
    const router = new KoaRouter();
    routes.forEach((route, i) => {
      if (take(keys[i] as RouteKey)) router.register(route.path, [...route.methods], route.handler);
    });
    return routerMiddleware(router);
  };
  // Routes whose first segment is not fixed text go with every path.
  const anywhere = (key: RouteKey): boolean => key.first === undefined;
  const fallback = build(anywhere);
  const byFirst = new Map<string, { any: Koa.Middleware; bySecond: Map<string, Koa.Middleware> }>();
  for (const first of firsts) {
    const under = (key: RouteKey): boolean => anywhere(key) || (key.first === first && key.second === undefined);
    const seconds = new Set(keys.flatMap((key) => (key.first === first && key.second !== undefined ? [key.second] : [])));
    const bySecond = new Map<string, Koa.Middleware>();
    for (const second of seconds) bySecond.set(second, build((key) => under(key) || (key.first === first && key.second === second)));
    byFirst.set(first, { any: build(under), bySecond });
  }
  return (ctx, next) => {
    // A path that does not start with '/' matches no fixed-text route.
    if (ctx.path.charCodeAt(0) !== 0x2f) return fallback(ctx, next);
    const [first, second] = requestSegments(ctx.path);
    const level = byFirst.get(first);
    if (!level) return fallback(ctx, next);
    return (level.bySecond.get(second) ?? level.any)(ctx, next);
  };
}

interface RouteKey {
  /** The first segment, lower-cased, when it is fixed text (undefined: it may match anything). */
  readonly first: string | undefined;
  /** The second segment, likewise; undefined also when the route has none (it then matches an empty one, `/api/`). */
  readonly second: string | undefined;
}

function routeKey(path: string): RouteKey {
  const segments = path.split('/');
  // A route's path starts with '/': segments[0] is empty.
  const first = segments[1];
  if (segments[0] !== '' || first === undefined || !STATIC_SEGMENT.test(first)) return { first: undefined, second: undefined };
  const second = segments[2];
  const fixedSecond = second !== undefined && second !== '' && STATIC_SEGMENT.test(second) ? second.toLowerCase() : undefined;
  return { first: first.toLowerCase(), second: fixedSecond };
}

/** The first two segments of a request path, lower-cased ('' where there is none). */
function requestSegments(path: string): [string, string] {
  const a = path.indexOf('/', 1);
  if (a < 0) return [path.slice(1).toLowerCase(), ''];
  const b = path.indexOf('/', a + 1);
  return [path.slice(1, a).toLowerCase(), path.slice(a + 1, b < 0 ? undefined : b).toLowerCase()];
}
