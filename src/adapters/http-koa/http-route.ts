import type { AuthBackend } from './authentication.js';
import type { FlashMessage } from '../../application/auth/session-manager.js';
import type { Identity } from '../../domain/auth/identity.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { MultipartBody, MultipartOptions } from './multipart.js';
import type { PageCacheRule } from '../../domain/cache/page-rules.js';

/**
 * The request's session, when the sessions plugin is mounted (loaded lazily, saved after the
 * response is computed).
 */
export interface SessionHandle {
  /** The signed-in user's row, or null. */
  user(): Promise<Row | null>;
  /** Adds a flash message for the next page. */
  flash(message: FlashMessage): Promise<void>;
  /** Returns and clears the pending flash messages. */
  takeFlash(): Promise<FlashMessage[]>;
  /** Signs `userId` in on a brand-new session (the old one is destroyed: fixation defence). */
  login(userId: Value): Promise<void>;
  /** Destroys the session and clears its cookie. */
  logout(): Promise<void>;
  /** The session's row key, or null without a live session. */
  id(): Promise<Value | null>;
}

/**
 * The neutral request a route handler sees (STYLE guideline 4): plugins and use cases never
 * touch a Koa context.
 */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed body, for routes that declare one (`json`: any JSON value; `form`: string fields). */
  readonly body: unknown;
  /** The request's origin (`scheme://host`), honouring trusted proxy headers. */
  readonly origin: string;
  /** The Host header as received (or forwarded by a trusted proxy). */
  readonly host: string;
  readonly ip: string;
  readonly requestId: string;
  /** The session, when the sessions plugin is mounted. */
  readonly session: SessionHandle | undefined;
  /** The CSRF token to render into forms, when the security plugin is mounted. */
  readonly csrfToken: string | undefined;
  /** Aborted when the client disconnects before the response is written. */
  readonly signal: AbortSignal;
  /** True once the client has disconnected before the response was written: `signal.aborted` without making the signal. */
  readonly departed: boolean;
  /** True when the body is `multipart/form-data`: a route with `uploads` reads it with `readMultipart`. */
  readonly multipart: boolean;
  /**
   * Reads the `multipart/form-data` body, streaming each file to `options.onFile` (once per
   * request; the CSRF token, when the request must carry one and sent no header, is its first
   * field). Only routes declared with `uploads` may call it.
   */
  readMultipart(options: MultipartOptions): Promise<MultipartBody>;
  /**
   * Resolves the caller with `backend`, or with the app's authentication when omitted
   * (anonymous without any). Resolved once per request and backend.
   */
  identity(backend?: AuthBackend): Promise<Identity>;
}

export interface HttpResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Content type for string bodies (JSON bodies default to application/json). */
  readonly type?: string;
}

/**
 * A route contributed by a plugin. `body: 'json'` makes the adapter parse (and limit) a JSON
 * body; `body: 'form'` an `application/x-www-form-urlencoded` one.
 */
export interface RouteDef {
  /** `ALL` routes every method to the handler, which answers 405 itself where it must. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'ALL';
  readonly path: string;
  readonly body?: 'json' | 'form' | 'none';
  /**
   * Served before the plugins' middleware (sessions, CSRF, hardening headers): for probes and
   * other routes that need none of it and must stay cheap.
   */
  readonly early?: boolean;
  /**
   * The handler reads a `multipart/form-data` body itself (`req.readMultipart`), after it has
   * admitted the caller; it must read it before it acts, or refuse. Any other route answers such a
   * body 415.
   */
  readonly uploads?: boolean;
  /**
   * `cachePage`: its GET and HEAD answers to callers without credentials are kept in the app's
   * cache (the cache() plugin) for `ttl` seconds and dropped when a model of `dependsOn` changes.
   */
  readonly cache?: PageCacheRule;
  readonly handler: (req: HttpRequest) => Promise<HttpResponse> | HttpResponse;
}

/**
 * Middleware run before routing, in installation order: a Koa middleware `(ctx, next) => …` (the
 * escape hatch to the Koa app for plugins that need it; Portico's own come from its adapters).
 * Named without Koa's types, so a host needs no `@types/koa` to type-check against Portico.
 */
export type HttpMiddleware = (context: never, next: () => Promise<unknown>) => unknown;
