import type { TaskClient } from '../application/tasks/tasks.js';
import type { AuthBackend, Duplex, HttpMiddleware, IncomingMessage, RouteDef, Server, UpgradeCaller } from '../adapters/http-koa/index.js';
import type { ModelDecl } from '../domain/model/define-model.js';
import type { RowPolicyDecl } from '../domain/model/row-policy.js';
import type { MigrationDef } from '../domain/model/migration.js';
import type { ModelRegistry } from '../domain/model/model-registry.js';
import type { Clock } from '../ports/clock.js';
import type { EventBus } from '../ports/event-bus.js';
import type { HealthCheck } from '../ports/health-check.js';
import type { Logger } from '../ports/logger.js';
import type { Mailer } from '../ports/mailer.js';
import type { MailTemplates } from '../ports/mail-templates.js';
import type { ThrottleStore } from '../ports/throttle-store.js';
import type { MigrationSource } from '../ports/migration-source.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RandomSource } from '../ports/random-source.js';
import type { RecordStore } from '../ports/record-store.js';
import type { NamedCheck } from '../application/check-readiness.js';
import type { Resolve, Token } from './tokens.js';
import type { Identity } from '../domain/auth/identity.js';

/** An entry of the API root's `endpoints` list (SPEC "API root document"); `url` is added per request. */
export interface EndpointEntry {
  readonly group: string;
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly label: string;
}

/**
 * What a plugin receives when the app starts. The common ports are properties; everything the
 * container holds is reachable through `get` with a typed token (`TOKENS` in `tokens.ts`).
 */
export interface PluginContext {
  readonly registry: ModelRegistry;
  readonly store: RecordStore;
  readonly events: EventBus;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly hasher: PasswordHasher;
  readonly logger: Logger;
  readonly migrations: MigrationSource;
  readonly mailer: Mailer;
  readonly templates: MailTemplates;
  readonly throttleStore: ThrottleStore;
  /** The task queue of the tasks() plugin, mounted before or after this one; throws naming tasks() when it is not mounted. */
  tasks(): TaskClient;
  /** True once the app drains (after SIGTERM) until it has closed. */
  isDraining(): boolean;
  /** Adds an HTTP route. */
  route(def: RouteDef): void;
  /** Adds middleware that runs before routing, in installation order: a Koa middleware `(ctx, next) => …` (see `HttpMiddleware`). */
  middleware(mw: HttpMiddleware): void;
  /** Adds a readiness check (run by the health plugin's `/ready`). */
  addHealthCheck(name: string, check: HealthCheck): void;
  /** Every readiness check added so far. */
  healthChecks(): readonly NamedCheck[];
  /** Advertises an endpoint in the API root document. */
  advertise(entry: EndpointEntry): void;
  /** Every advertised endpoint. */
  endpoints(): readonly EndpointEntry[];
  /** Sets how the app identifies callers (`HttpRequest.identity()`); the last call wins. */
  authenticate(backend: AuthBackend): void;
  /**
   * The service bound to `token` in the app's container: a port (`TOKENS.Store`), a use case
   * (`TOKENS.LogIn`) or what an earlier plugin bound (`TOKENS.Sessions`, `TOKENS.RestServed`).
   * Throws when nothing is bound to it.
   */
  get<T>(token: Token<T>): T;
  /** Like `get`, or undefined when nothing is bound to `token` (an optional plugin is not mounted). */
  getOptional<T>(token: Token<T>): T | undefined;
  /** Binds `value` to `token` for this plugin and those installed after it; a token is bound once. */
  bind<T>(token: Token<T>, value: NoInfer<T>): void;
  /** Binds `token` to a factory, run once on the first `get`, that resolves its dependencies with `get`. */
  bindFactory<T>(token: Token<T>, build: (get: Resolve) => NoInfer<T>): void;
  /** The app secret (signing CSRF tokens, keying stored codes). */
  readonly secret: string;
  /** True when NODE_ENV is production (Secure cookies, HSTS). */
  readonly production: boolean;
  /** The request body limit in bytes. */
  readonly bodyLimit: number;
  /** Origins besides the app's own whose pages may send unsafe requests (AppOptions.trustedOrigins). */
  readonly trustedOrigins: ReadonlySet<string>;
  /**
   * Runs `fn` with the Node HTTP server once the app listens; the returned function, if any, runs
   * at close (before the server stops: close WebSocket servers there).
   */
  onListen(fn: (server: Server) => void | (() => Promise<void>)): void;
  /**
   * Serves WebSocket handshakes whose pathname is exactly `path`. The app installs one
   * `upgrade` listener that dispatches by pathname: an unknown path is answered 404, a request
   * while the app drains 503, a malformed handshake (not a GET, no valid Sec-WebSocket-Key or
   * -Version) 405 or 400, each with a problem document and the socket destroyed; a request that
   * asks to upgrade to another protocol (`h2c`) is served as plain HTTP. A path is claimed once.
   *
   * @example
   * const wss = new WebSocketServer({ noServer: true }); // in an adapter
   * ctx.onUpgrade('/chat/ws', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
   */
  onUpgrade(path: string, handler: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): void;
  /**
   * Resolves the caller of a request no route serves (a WebSocket upgrade) from its
   * `Authorization` and `Cookie` headers, with `backend` or else the app's authentication (the
   * session is read-only there). A present but invalid bearer token throws
   * DomainError('not_authenticated').
   */
  identify(caller: UpgradeCaller, backend?: AuthBackend): Promise<Identity>;
  /**
   * Watches what a long-lived stream's caller rests on (the bearer token or session `caller`
   * carried, and the user): `ended` runs once when it is revoked (a logout, a new login replacing
   * the session), the session expires, or the user is deactivated or deleted, whether in this
   * process or, with a cross-process event bus, in another; a revocation made while the stream was
   * being identified counts too. Returns the function that stops watching; call it when the stream
   * ends. An anonymous caller is not watched.
   *
   * @example
   * const stop = ctx.watchCaller({ authorization, cookie }, identity, () => socket.close(1008, 'credential revoked'));
   * socket.once('close', stop);
   */
  watchCaller(caller: UpgradeCaller, identity: Identity, ended: () => void): () => void;
  /** Runs `fn` when the app closes, from the start of the drain, before the database closes (workers stopping). */
  onClose(fn: (graceMs: number) => Promise<void>): void;
}

/**
 * A feature mounted on an app: it may contribute models and migrations, and on start it
 * adds routes, middleware, health checks and API-root entries.
 *
 * @example
 * app.use({ name: 'hello', install: (ctx) => ctx.route({ method: 'GET', path: '/hello', handler: () => ({ status: 200, body: 'hi' }) }) });
 */
export interface Plugin {
  readonly name: string;
  readonly models?: readonly ModelDecl[];
  /** Row policies the plugin declares for models (a REST resource's `ownedBy`/`scope`), merged into each model's one policy before any plugin installs. */
  readonly rowPolicies?: readonly RowPolicyDecl[];
  readonly migrations?: readonly MigrationDef[];
  install(ctx: PluginContext): void | Promise<void>;
}
