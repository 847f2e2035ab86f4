import type Router from '@koa/router';
import type Koa from 'koa';
import { ANONYMOUS, type Identity } from '../../domain/auth/identity.js';
import type { Logger } from '../../ports/logger.js';
import type { AuthBackend } from './authentication.js';
import type { HttpMiddleware, HttpRequest, HttpResponse, RouteDef, SessionHandle } from './http-route.js';
import { problemHeaders, toProblem } from './problem-mapping.js';
import { requestIdOf } from './request-id.js';
import { readCookie } from './cookies.js';
import { hasBody, isMultipartRequest, readFormBody, readJsonBody } from './read-body.js';
import { readMultipart, type MultipartBody, type MultipartOptions } from './multipart.js';
import { CSRF_FIELD, MULTIPART_CSRF } from './csrf-middleware.js';
import { sameSecret } from '../../application/auth/secrets.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { finishOf, type Finish } from './response-finisher.js';
import { idempotencyMiddleware } from './idempotency-middleware.js';
import { SESSION_COOKIE } from './session-middleware.js';
import { bucketedRoutes, routerMiddleware, type BucketRoute } from './route-buckets.js';
import { KoaApplication, KoaRouter } from './commonjs-packages.js';
import type { IdempotentRequests } from '../../application/idempotency/idempotent-requests.js';
import type { CachedPages } from '../../application/cache/cached-pages.js';
import { mayStore, pageKey } from '../../domain/cache/page-rules.js';

/** Resolves the caller from what the request carries, with `backend` or the app's default. */
export type Identify = (
  backend: AuthBackend | undefined,
  sources: { authorization: string | undefined; session: SessionHandle | undefined },
) => Promise<Identity>;

export interface KoaAppOptions {
  readonly logger: Logger;
  readonly routes: readonly RouteDef[];
  /** Extra Koa middleware run before routing (sessions, CSRF, …), in order. */
  readonly middleware?: readonly HttpMiddleware[];
  readonly bodyLimit?: number;
  /** How many proxies in front are trusted for X-Forwarded-For/-Proto/-Host (0: none). */
  readonly trustedProxyHops?: number;
  /** Log one line per request at info level (default true). */
  readonly logRequests?: boolean;
  /** Counts requests in flight, so shutdown can wait for them even when a client has gone. */
  readonly inFlight?: { count: number };
  /** The app's authentication (anonymous when absent). */
  readonly identify?: Identify;
  /** Remembers answers to requests sent with an Idempotency-Key (DESIGN §3 "idempotency"). */
  readonly idempotency?: IdempotentRequests;
  /** Keeps the answers of routes declared with `cache` (the cache() plugin's `cachePage`). */
  readonly pages?: CachedPages;
}

/**
 * The route's body, or a promise of it while it is read (at once when the request carries none).
 * A multipart body is left for a route that takes uploads (its handler reads it) and refused by
 * any other, before anything runs: its CSRF check was left to the upload reader.
 */
function readBody(ctx: Koa.Context, route: RouteDef, limit: number | undefined): unknown {
  const kind = route.body;
  if (ctx.state[MULTIPART_CSRF] !== undefined || (route.uploads && isMultipartRequest(ctx.req))) {
    if (!route.uploads) throw new DomainError('unsupported_media_type', 'this route takes no multipart/form-data body');
    return undefined;
  }
  if (kind === 'json') return hasBody(ctx.req) ? readJsonBody(ctx.req, limit) : undefined;
  if (kind === 'form') return (ctx.state.formBody as Record<string, string> | undefined) ?? (hasBody(ctx.req) ? readFormBody(ctx.req, limit) : {});
  return undefined;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** The parameters of a request without a query string (what Koa would parse from '', shared and frozen). */
const NO_QUERY: Readonly<Record<string, string | string[] | undefined>> = Object.freeze(Object.create(null) as Record<string, never>);

/**
 * The Koa application: request id, request log, the single problem+json error mapping, then
 * the plugins' middleware and routes. Unknown paths answer 404 and known paths with another
 * method 405 with `Allow`, both as problem+json.
 */
export function buildKoaApp(options: KoaAppOptions): Koa {
  const app = new KoaApplication({ proxy: (options.trustedProxyHops ?? 0) > 0, maxIpsCount: options.trustedProxyHops ?? 0 });
  app.silent = true;
  const { router, earlyRouter } = routeRouters(options);
  const finishes: Finish[] = [];
  const middleware: Koa.Middleware[] = [];
  for (const given of options.middleware ?? []) {
    // A plugin's middleware is a Koa middleware (`HttpMiddleware` only spares hosts Koa's types).
    const mw = given as Koa.Middleware;
    const finish = finishOf(mw);
    if (finish) finishes.push(finish);
    else middleware.push(mw);
  }
  app.use(requestEnvelope(options, options.inFlight ?? { count: 0 }, finishes.reverse()));
  app.use(earlyRoutes(earlyRouter, options.routes.filter((route) => route.early)));
  for (const mw of middleware) app.use(mw);
  if (options.idempotency) app.use(idempotencyMiddleware(options.idempotency, { sessionCookie: SESSION_COOKIE, ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}) }));
  app.use(router);
  return app;
}

/**
 * The early router's routes and 405s, entered only for the paths it serves when they are all
 * fixed (the health probes, the live-reload endpoints): matching every request against them
 * would cost each request a router dispatch. The test is looser than the router's (any case, any
 * trailing slashes), so every path the router would match reaches it.
 */
function earlyRoutes(router: Router, routes: readonly RouteDef[]): Koa.Middleware {
  const serve = routerMiddleware(router);
  if (routes.some((route) => /[:*(]/.test(route.path))) return serve;
  const paths = new Set(routes.map((route) => fixedPathKey(route.path)));
  const seconds = paths.has('') ? undefined : new Set([...paths].map((key) => key.charCodeAt(1)));
  return (ctx, next) => {
    const path = ctx.path;
    // Most paths are told apart by their second character (ASCII, lower-cased) without making the
    // key. Not when an early route is the root, which '/', '//', … reach.
    const second = path.charCodeAt(1);
    if (seconds && path.charCodeAt(0) === 0x2f && second < 0x80 && !seconds.has(second >= 0x41 && second <= 0x5a ? second + 0x20 : second)) return next();
    return paths.has(fixedPathKey(path)) ? serve(ctx, next) : next();
  };
}

function fixedPathKey(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '');
}

/** The routes: `early` ones served before the plugins' middleware (on their own router), the others after it. */
function routeRouters(options: KoaAppOptions): { router: Koa.Middleware; earlyRouter: Router } {
  const earlyRouter = new KoaRouter();
  const late: BucketRoute[] = [];
  for (const route of options.routes) {
    const methods = route.method === 'ALL' ? ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] : [route.method];
    const pages = route.cache ? options.pages : undefined;
    const handler: Koa.Middleware = (ctx) => {
      if (route.early) ctx.state[SERVED_EARLY] = true;
      return pages ? cachedAnswer(ctx, route, options, pages) : answer(ctx, route, options);
    };
    if (route.early) earlyRouter.register(route.path, methods, handler);
    else late.push({ path: route.path, methods, handler });
  }
  return { router: bucketedRoutes(late), earlyRouter };
}

/** Marks a request a route served before the plugins' middleware (which then finishes nothing). */
const SERVED_EARLY = 'porticoServedEarly';

/**
 * Runs the route's handler on the neutral request (its body read and limited as the route asks)
 * and writes its answer; without a body to read, and with a handler that answers at once, nothing
 * here waits for a promise of its own.
 */
function answer(ctx: Koa.Context, route: RouteDef, options: KoaAppOptions): Promise<void> | void {
  const departure = departureSignal(ctx);
  const respond = (body: unknown): Promise<void> | void => {
    const res = route.handler(new KoaRequest(ctx, body, options.identify, departure));
    if (isThenable(res)) return Promise.resolve(res).then((r) => writeResponse(ctx, r as HttpResponse));
    writeResponse(ctx, res);
  };
  const body = readBody(ctx, route, options.bodyLimit);
  return isThenable(body) ? Promise.resolve(body).then(respond) : respond(body);
}

/** Response headers never kept with a page: the request's own, and what Node writes itself. */
const UNKEPT = new Set(['set-cookie', 'x-request-id', 'content-length', 'date', 'connection', 'transfer-encoding', 'age']);

/**
 * A route declared with `cache` (issue 52, `cachePage`): a GET or HEAD from a caller without
 * credentials is answered from the kept page when there is one (with `Age` and
 * `Cache-Control: public, max-age=<left>`; no handler, no statement), else by the route, whose
 * answer is kept when `mayStore` allows. Concurrent misses of one page wait for the first.
 */
async function cachedAnswer(ctx: Koa.Context, route: RouteDef, options: KoaAppOptions, pages: CachedPages): Promise<void> {
  const rule = route.cache as NonNullable<RouteDef['cache']>;
  if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.get('authorization') !== '' || readCookie(ctx, SESSION_COOKIE) !== undefined) return answer(ctx, route, options);
  const key = pageKey({ host: ctx.host, path: ctx.path, query: ctx.querystring, header: (name) => ctx.get(name) }, rule.vary);
  if (await serveKept(ctx, pages, key)) return;
  const fill = pages.fill(key, async () => {
    await answer(ctx, route, options);
    await keepPage(ctx, pages, key, rule);
  });
  if (fill.first) return fill.done;
  await fill.done.catch(() => undefined);
  if (await serveKept(ctx, pages, key)) return;
  return answer(ctx, route, options);
}

async function serveKept(ctx: Koa.Context, pages: CachedPages, key: string): Promise<boolean> {
  const kept = await pages.lookup(key);
  if (!kept) return false;
  ctx.status = kept.page.status;
  for (const [name, value] of Object.entries(kept.page.headers)) ctx.set(name, value);
  ctx.set('Age', String(kept.age));
  ctx.set('Cache-Control', `public, max-age=${kept.left}`);
  ctx.body = Buffer.from(kept.page.body, 'base64');
  return true;
}

async function keepPage(ctx: Koa.Context, pages: CachedPages, key: string, rule: NonNullable<RouteDef['cache']>): Promise<void> {
  const body: unknown = ctx.body;
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : undefined;
  const cacheControl = String(ctx.res.getHeader('cache-control') ?? '');
  if (!bytes || !mayStore(ctx.status, ctx.res.getHeader('set-cookie') !== undefined, cacheControl)) return;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (!UNKEPT.has(name.toLowerCase()) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  await pages.store(key, { status: ctx.status, headers, body: bytes.toString('base64') }, rule);
}

/**
 * The neutral request over a Koa context: one object per request with its accessors on the
 * prototype; origin, host and ip are worked out when read (Koa derives them from the headers,
 * and X-Forwarded-* behind trusted proxies, on every read), the caller at most once per backend.
 */
class KoaRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly requestId: string;
  readonly session: SessionHandle | undefined;
  /** The caller as the first backend asked saw them (almost every request asks one backend), then any other's. */
  private firstBackend: AuthBackend | undefined;
  private firstIdentity: Promise<Identity> | undefined;
  private otherIdentities: Map<AuthBackend | undefined, Promise<Identity>> | undefined;
  private multipartRead = false;

  constructor(
    private readonly ctx: Koa.Context,
    readonly body: unknown,
    private readonly identify: Identify | undefined,
    private readonly departure: () => AbortSignal,
  ) {
    this.method = ctx.method;
    this.path = ctx.path;
    this.params = ctx.params as Record<string, string>;
    this.headers = ctx.headers;
    this.requestId = ctx.state.requestId as string;
    this.session = ctx.state.session as SessionHandle | undefined;
  }

  /**
   * The session as a source of identity: none when the request carries no session cookie and
   * started no session (a login or logout earlier in the request), as for a WebSocket upgrade.
   */
  private identifyingSession(): SessionHandle | undefined {
    if (!this.session) return undefined;
    return this.ctx.state.sessionChanged === true || readCookie(this.ctx, SESSION_COOKIE) !== undefined ? this.session : undefined;
  }

  /**
   * The query string's parameters, read-only as typed (frozen, with a query string or without, so
   * a handler that writes to them fails the same way either way): Koa parses them when first read;
   * without a query string nothing is parsed.
   */
  get query(): Readonly<Record<string, string | string[] | undefined>> {
    return this.ctx.querystring === '' ? NO_QUERY : Object.freeze(this.ctx.query);
  }

  get origin(): string {
    return `${this.ctx.protocol}://${this.ctx.host}`;
  }

  get host(): string {
    return this.ctx.host;
  }

  get ip(): string {
    return this.ctx.ip;
  }

  get csrfToken(): string | undefined {
    const token = this.ctx.state.csrfToken as (() => string) | undefined;
    return token ? token() : undefined;
  }

  get signal(): AbortSignal {
    return this.departure();
  }

  get multipart(): boolean {
    return isMultipartRequest(this.ctx.req);
  }

  readMultipart(options: MultipartOptions): Promise<MultipartBody> {
    if (this.multipartRead) throw new Error('readMultipart: the body was read already');
    this.multipartRead = true;
    const expected = this.ctx.state[MULTIPART_CSRF] as string | undefined;
    const csrf = expected === undefined ? undefined : { field: CSRF_FIELD, matches: (submitted: string) => expected !== '' && sameSecret(submitted, expected) };
    return readMultipart(this.ctx.req, csrf ? { ...options, csrf } : options);
  }

  get departed(): boolean {
    const res = this.ctx.res;
    return res.destroyed && !res.writableFinished;
  }

  /** The caller as each backend sees them, resolved at most once per backend for the request. */
  identity(backend?: AuthBackend): Promise<Identity> {
    if (!this.firstIdentity) {
      this.firstBackend = backend;
      this.firstIdentity = this.resolveIdentity(backend);
      return this.firstIdentity;
    }
    if (backend === this.firstBackend) return this.firstIdentity;
    this.otherIdentities ??= new Map();
    let identity = this.otherIdentities.get(backend);
    if (!identity) {
      identity = this.resolveIdentity(backend);
      this.otherIdentities.set(backend, identity);
    }
    return identity;
  }

  private resolveIdentity(backend: AuthBackend | undefined): Promise<Identity> {
    return this.identify ? this.identify(backend, { authorization: this.ctx.get('authorization') || undefined, session: this.identifyingSession() }) : Promise.resolve(ANONYMOUS);
  }
}

/**
 * The signal aborted when the client leaves, made when a handler first asks for it: a response
 * whose connection already closed reads as destroyed (its request's own stream reads as destroyed
 * once its body is read, so that one cannot tell), and from then on its `close` before the
 * response finished is the departure. Handlers that never ask cost no listener.
 */
function departureSignal(ctx: Koa.Context): () => AbortSignal {
  let aborted: AbortController | undefined;
  return () => {
    if (!aborted) {
      const controller = new AbortController();
      aborted = controller;
      const res = ctx.res;
      const leave = (): void => {
        if (!res.writableFinished) controller.abort(new Error('the client disconnected'));
      };
      if (res.destroyed) leave();
      else res.once('close', leave);
    }
    return aborted.signal;
  };
}

function writeResponse(ctx: Koa.Context, res: HttpResponse): void {
  ctx.status = res.status;
  for (const [name, value] of Object.entries(res.headers ?? {})) {
    // A route's cookie joins those the session set during the request instead of replacing them.
    if (name.toLowerCase() === 'set-cookie') ctx.append(name, value);
    else ctx.set(name, value);
  }
  if (res.body !== undefined) {
    setBody(ctx, res.body);
    if (res.type) ctx.type = res.type;
  }
}

/**
 * From this length a JSON body goes to Koa as its UTF-8 bytes. Kept as a string until the
 * response was written, a large body was promoted to V8's old generation with the request's
 * other objects (12.5 kB a request for a REST list of 50 posts, and 63 µs a request in
 * scavenges; 3.5-3.7 kB and 42-47 µs as bytes, which live outside the JavaScript heap:
 * docs/performance.md, "Garbage"). A small one is cheaper as a string: Node writes it in one piece with the headers.
 */
const BUFFERED_JSON = 2048;

/**
 * Sets the body; a plain object or array is written as its JSON text (as bytes from
 * `BUFFERED_JSON` characters), with the type and length Koa gives it. Koa would tell such a body
 * from the web bodies it also takes (`ReadableStream`, `Blob`, `Response`) with `instanceof`, and
 * Node's first read of the global `Response` loads its fetch implementation (undici, some 5 MB of
 * memory) for the life of the process. Anything else (text, a Buffer, a stream, a value
 * JSON.stringify refuses) goes to Koa as it is.
 */
function setBody(ctx: Koa.Context, body: unknown): void {
  const proto: unknown = body !== null && typeof body === 'object' ? Object.getPrototypeOf(body) : undefined;
  if (Array.isArray(body) || proto === Object.prototype || proto === null) {
    let text: string | undefined;
    try {
      text = JSON.stringify(body);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      // What `ctx.type = 'json'` sets, without Koa's MIME lookup on every response.
      if (!ctx.res.headersSent && !isJsonType(ctx.res.getHeader('content-type'))) ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
      ctx.body = text.length < BUFFERED_JSON ? text : Buffer.from(text);
      return;
    }
  }
  ctx.body = body;
}

/** Whether a Content-Type header names a JSON media type (`application/json`, `application/problem+json`, …). */
function isJsonType(type: unknown): boolean {
  return typeof type === 'string' && /\bjson\b/i.test(type.split(';', 1)[0] as string);
}

/**
 * Around every request: counted in flight (so shutdown can wait for it), its id (the caller's
 * when well-formed), the problem+json answer to any error, one log line.
 */
function requestEnvelope(options: KoaAppOptions, inFlight: { count: number }, finishes: readonly Finish[]): Koa.Middleware {
  const logRequests = options.logRequests !== false;
  return async (ctx, next) => {
    inFlight.count++;
    try {
      const requestId = requestIdOf(ctx.req.headers['x-request-id']);
      ctx.state.requestId = requestId;
      ctx.res.setHeader('X-Request-Id', requestId);
      const started = logRequests ? performance.now() : 0;
      try {
        await next();
        // Nothing answered (404), or the router found the path under other methods (405 + Allow, 501).
        if (ctx.body === undefined && (ctx.status === 404 || ctx.status === 405 || ctx.status === 501)) ctx.throw(ctx.status);
      } catch (error) {
        answerProblem(ctx, error, requestId, options.logger);
      }
      // The plugins' finishing middleware, innermost first, for every request that reached them.
      if (ctx.state[SERVED_EARLY] !== true) {
        try {
          for (const finish of finishes) finish(ctx);
        } catch (error) {
          answerProblem(ctx, error, requestId, options.logger);
        }
      }
      if (logRequests) {
        options.logger.info(
          { requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
          'request',
        );
      }
    } finally {
      inFlight.count--;
    }
  };
}

/** The one error mapping: problem+json with the error's status (5xx logged), `WWW-Authenticate` on 401, `Retry-After` when known. */
function answerProblem(ctx: Koa.Context, error: unknown, requestId: string, logger: Logger): void {
  const problem = toProblem(error);
  if (problem.status >= 500) logger.error({ requestId, err: error }, 'request failed');
  ctx.status = problem.status;
  ctx.set(problemHeaders(problem, error));
  ctx.type = 'application/problem+json';
  setBody(ctx, problem);
}
