import type Koa from 'koa';
import type { Container } from 'inversify';
import type { NamedCheck } from '../application/check-readiness.js';
import { CheckSchema } from '../application/check-schema.js';
import { loadMigrationFolder } from '../adapters/persistence/migration-files.js';
import {
  buildKoaApp,
  callerWatch,
  identifyUpgrade,
  noAuthentication,
  NodeServer,
  resolveIdentity,
  upgradeOriginPolicy,
  type AuthBackend,
  type HttpMiddleware,
  type IncomingMessage,
  type RouteDef,
  type Server,
  type ServerResponse,
} from '../adapters/http-koa/index.js';
import type { Database } from '../adapters/persistence/open-database.js';
import type { Realtime } from '../application/realtime/publish-realtime.js';
import { BUILTIN_MIGRATIONS, BUILTIN_MODELS } from '../domain/model/builtin-tables.js';
import type { ModelDecl } from '../domain/model/define-model.js';
import type { BuiltinSchema } from '../domain/model/builtin-tables.js';
import type { RelationName, Row, SchemaOf, UntypedSchema, WithRelated } from '../domain/model/typed-model.js';
import type { Row as AnyRow, Value } from '../domain/model/types.js';
import type { FileStorage } from '../ports/file-storage.js';
import type { Cache } from '../ports/cache.js';
import { CachedPages } from '../application/cache/cached-pages.js';
import type { Clock } from '../ports/clock.js';
import { checkPageRule } from '../domain/cache/page-rules.js';
import type { RecordStore } from '../ports/record-store.js';
import type { TableOf, TypedStore } from '../ports/typed-store.js';
import { LoadRelated } from '../application/read/load-related.js';
import type { MigrationDef } from '../domain/model/migration.js';
import { ModelRegistry } from '../domain/model/model-registry.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Logger } from '../ports/logger.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { TaskClient } from '../application/tasks/tasks.js';
import { eventBusCheck } from './backends.js';
import { buildContainer, type Overrides } from './container.js';
import type { EndpointEntry, Plugin } from './plugin.js';
import { createPluginContext, type BootHooks } from './plugin-context.js';
import { TOKENS, type Token } from './tokens.js';
import { guardProcess } from './process-guard.js';
import { management, type Management } from './management.js';
import { resolve, resolveAsync, resolveOptional } from './typed-container.js';
import { buildOpenApiDocument } from '../adapters/openapi/build-openapi-document.js';

/** Options of `createApp`. */
export interface AppOptions extends Overrides {
  /** `sqlite:<path>`, `sqlite::memory:`, `postgres://…` (optionally `?schema=name`) or `memory:`. */
  readonly database: string;
  /** The host app's models. */
  readonly models?: readonly ModelDecl[];
  /**
   * The host app's migrations: the folder `portico makemigrations` writes (`'./migrations'`,
   * relative to the working directory, or a `file:` URL), or the definitions themselves. Default:
   * one migration `app_0001_initial` creating every app model (and junction table) as the
   * registry defines them, the same first migration `makemigrations` generates.
   */
  readonly migrations?: readonly MigrationDef[] | string | URL;
  /**
   * Apply pending migrations when the app starts (default false): a development convenience; it
   * applies the app's migrations and never derives a change from the models by itself.
   */
  readonly autoMigrate?: boolean;
  /** Request body limit in bytes (default 1 MiB). */
  readonly bodyLimit?: number;
  /** Proxies in front whose X-Forwarded-* headers are trusted (default 0). */
  readonly trustedProxyHops?: number;
  /**
   * Origins other than the server's own (`https://app.example.com`) whose pages may send it
   * unsafe requests subject to CSRF (form posts, requests with the session cookie) and open a
   * WebSocket identified by the session cookie; one from any other origin (`Origin`, else
   * `Referer`) is refused 403 (`csrf_failed`). Bearer-token callers, and clients that send
   * neither header over plain HTTP, are not affected. Default: none.
   */
  readonly trustedOrigins?: readonly string[];
  /** One log line per request (default true). */
  readonly logRequests?: boolean;
  /**
   * The app secret signing CSRF tokens and keying stored codes (default: `PORTICO_SECRET`, else a
   * random one per process, which a production app must not rely on).
   */
  readonly secret?: string;
  /** Production mode: Secure cookies, HSTS on secure requests (default: NODE_ENV === 'production'). */
  readonly production?: boolean;
  /**
   * While the app listens, an unhandled promise rejection or an uncaught exception anywhere in the
   * process is logged through the app's logger (error level) and the process keeps serving
   * (default true). `false` leaves the process's `unhandledRejection` and `uncaughtException`
   * handling to the host.
   */
  readonly processGuard?: boolean;
}

/**
 * A Portico application: models, plugins, a database and an HTTP server.
 *
 * @example
 * const app = createApp({ database: 'sqlite:./data/app.db', models: [author], autoMigrate: true }).use(health());
 * const { url } = await app.listen(3000);
 * await app.close();
 */
export class PorticoApp<S = UntypedSchema> {
  private readonly plugins: Plugin[] = [];
  private container?: Container;
  private database?: Database;
  private registryValue?: ModelRegistry;
  private koa?: Koa;
  private draining = false;
  private readonly inFlight = { count: 0 };
  private starting?: Promise<void>;
  private readonly checks: NamedCheck[] = [];
  private readonly advertised: EndpointEntry[] = [];
  private closed = false;
  private readonly listenHooks: ((server: Server) => void | (() => Promise<void>))[] = [];
  private readonly beforeServerClose: (() => Promise<void>)[] = [];
  private authBackend: AuthBackend = noAuthentication();
  /** The Node HTTP server hosting the Koa app (created on `listen`), and the upgrades it routes. */
  private readonly http: NodeServer;
  private readonly closeHooks: ((graceMs: number) => Promise<void>)[] = [];
  /** Removes the process guard `listen` installed (see `processGuard`). */
  private unguard?: () => void;
  private appMigrations?: readonly MigrationDef[];
  private createDatabase = false;

  constructor(private readonly options: AppOptions) {
    this.http = new NodeServer({
      draining: () => this.draining,
      origins: upgradeOriginPolicy(options.trustedOrigins, options.trustedProxyHops),
      log: () => ({ logger: this.logger, requests: options.logRequests !== false }),
    });
  }

  /** Mounts a plugin; plugins install in the order they are used. */
  use(plugin: Plugin): this {
    if (this.koa) throw new Error('plugins must be added before the app starts');
    this.plugins.push(plugin);
    return this;
  }

  /** The model registry (available after `open()`). */
  get registry(): ModelRegistry {
    return this.required(this.registryValue, 'registry');
  }

  /**
   * The record store (available after `open()`), typed by the app's models: `insert('post', …)`
   * takes `Insert<typeof post>` and returns `Row<typeof post>`; an unknown table or column does
   * not compile. The same object as `RecordStore`, which plugins and use cases get untyped.
   */
  get store(): TypedStore<S> {
    return this.required(this.database, 'database').store as unknown as TypedStore<S>;
  }

  /**
   * Rows of `table` with the rows relations name (foreign keys: `author_id` is `author`), each
   * under the relation's name, the target row or null; one `IN (…)` read per relation, on `store`
   * (a transaction's) or the app's. Trusted like `store`: no row policy.
   *
   * @example
   * const posts = await app.loadRelated('post', await app.store.find('post'), ['author']);
   * posts[0]?.author?.name; // Row<post> & { author: Row<author> | null }
   */
  async loadRelated<N extends TableOf<S>, R extends RelationName<S[N]>>(table: N, rows: readonly Row<S[N], S>[], relations: readonly R[], store?: TypedStore<S>): Promise<WithRelated<S[N], S, R>[]> {
    const on = (store ?? this.store) as unknown as RecordStore;
    return (await new LoadRelated(this.registry).execute(on, table, rows as readonly AnyRow[], relations)) as WithRelated<S[N], S, R>[];
  }

  /**
   * The database handle: store, migrations, and for SQL backends the MikroORM instance.
   * @internal Portico's own tools and tests use it; a host app uses `store` and `migrate()`.
   */
  get db(): Database {
    return this.required(this.database, 'database');
  }

  /** The app's logger (pino unless `logger` was passed). */
  get logger(): Logger {
    return this.fromContainer(TOKENS.Logger);
  }

  /**
   * The event bus: model signals (`on` inside the transaction, `onCommitted` after it) and
   * application topics (`subscribe`/`publish`; a publish inside a transaction waits for its commit).
   */
  get events(): EventBus {
    return this.fromContainer(TOKENS.Events);
  }

  /**
   * Publishing to the realtime plugin's channels (`app.realtime.publish('chat/42', payload)`);
   * throws when `realtime()` is not mounted or the app has not started.
   */
  get realtime(): Realtime {
    const realtime = this.container && !this.closed ? resolveOptional(this.container, TOKENS.Realtime) : undefined;
    if (!realtime) {
      if (this.closed) throw new Error('the app is closed');
      throw new Error(this.koa ? 'app.realtime: the realtime plugin is not mounted (app.use(realtime().channel(…)))' : 'app.realtime is available once the app has started (start() or listen())');
    }
    return realtime;
  }

  /** The task queue client (`tasks()` plugin): `enqueue`, `enqueueIn(tx, …)`, `stats`, `retry`. */
  get tasks(): TaskClient {
    return this.fromContainer(TOKENS.Tasks);
  }

  /**
   * A usable access token of the user's linked `provider` account (`socialLogin()`), refreshed
   * first when it expired (one refresh for concurrent calls); for calling the provider's API.
   */
  socialAccessToken(userId: Value, provider: string): Promise<string> {
    const container = this.required(this.container, 'container');
    const tokens = this.closed ? undefined : resolveOptional(container, TOKENS.ProviderAccessToken);
    if (!tokens) throw new Error(this.closed ? 'the app is closed' : 'app.socialAccessToken: the socialLogin() plugin is not mounted, or the app has not started');
    return tokens.execute(userId, provider);
  }

  /** The cache of `cache()`: this process's memory or Redis. */
  get cache(): Cache {
    const found = this.container && !this.closed ? resolveOptional(this.container, TOKENS.Cache) : undefined;
    if (!found) throw new Error('app.cache: the cache() plugin is not mounted, or the app has not started');
    return found;
  }

  /** The file storage of `storage()`: the disk, S3 or memory. */
  get storage(): FileStorage {
    const found = this.container && !this.closed ? resolveOptional(this.container, TOKENS.FileStorage) : undefined;
    if (!found) throw new Error('app.storage: the storage() plugin is not mounted, or the app has not started');
    return found;
  }

  /** A signed link to stored file `key`, shown as `name`, valid for `seconds` (default: the plugin's, 1 h). */
  mediaUrl(key: string, name: string, seconds?: number): string {
    const links = this.container && !this.closed ? resolveOptional(this.container, TOKENS.MediaLinks) : undefined;
    if (!links) throw new Error('app.mediaUrl: the storage() plugin is not mounted, or the app has not started');
    return links.url(key, name, seconds);
  }

  /** The URL of static file `name` (`staticFiles()`): its hashed name once collected, else the plain one. */
  staticUrl(name: string): string {
    const settings = this.container && !this.closed ? resolveOptional(this.container, TOKENS.StaticFiles) : undefined;
    if (!settings) throw new Error('app.staticUrl: the staticFiles() plugin is not mounted, or the app has not started');
    return settings.url(name);
  }

  /** The password hasher (argon2id unless `hasher` was passed). */
  get hasher(): PasswordHasher {
    return this.fromContainer(TOKENS.Hasher);
  }

  /**
   * Every migration of the app, in ledger order: Portico's own, the plugins', then the app's.
   * @internal For the `portico migrate` command.
   */
  migrationDefs(): MigrationDef[] {
    return [...this.frameworkMigrations(), ...this.hostMigrations()];
  }

  /**
   * Portico's and the plugins' migrations (the app's come after them).
   * @internal For `portico makemigrations`.
   */
  frameworkMigrations(): MigrationDef[] {
    return [...BUILTIN_MIGRATIONS, ...this.plugins.flatMap((p) => p.migrations ?? [])];
  }

  /**
   * The host app's own migrations, and the tables they manage.
   * @internal For `portico makemigrations`.
   */
  hostMigrations(): readonly MigrationDef[] {
    if (this.appMigrations) return this.appMigrations;
    const option = this.options.migrations;
    if (option !== undefined && (typeof option === 'string' || option instanceof URL)) throw new Error('the app\'s migrations folder is read when the app opens: call open() first');
    return option ?? ((this.options.models ?? []).length > 0 ? [{ name: 'app_0001_initial', createTables: this.appTables() }] : []);
  }

  /**
   * The tables of the host app's models (and their junction tables): those its migrations manage.
   * @internal For `portico makemigrations`.
   */
  appTables(): string[] {
    const builtin = new Set([...BUILTIN_MODELS, ...this.plugins.flatMap((p) => p.models ?? [])].map((m) => m.table));
    return this.registry.all().map((m) => m.table).filter((t) => !builtin.has(t));
  }

  /**
   * The management commands (`portico makemigrations`, `createsuperuser`, `clearsessions`, …),
   * after `prepare()`; those that need the database open it.
   * @internal For the `portico` command.
   */
  get management(): Management {
    const container = this.required(this.container, 'container');
    return management({
      registry: this.registry,
      db: async () => {
        await this.open();
        return this.db;
      },
      hasher: this.hasher,
      clock: resolve(container, TOKENS.Clock),
      random: resolve(container, TOKENS.Random),
      frameworkMigrations: () => this.frameworkMigrations(),
      hostMigrations: () => this.hostMigrations(),
      appTables: () => this.appTables(),
      rotateTokenKeys: () => resolveOptional(container, TOKENS.RotateTokenKeys),
      staticFiles: () => resolveOptional(container, TOKENS.StaticFiles),
      openApiDocument: () => {
        const built = resolveOptional(container, TOKENS.OpenApiDocument);
        if (built) return built();
        const served = resolveOptional(container, TOKENS.RestServed);
        return served && buildOpenApiDocument(served, { title: 'Portico API', version: '1.0.0' });
      },
    });
  }

  /**
   * Creates a missing PostgreSQL database or SQLite folder when the app opens (`--create-db`).
   * @internal For the `portico` command.
   */
  createDatabaseIfMissing(): this {
    if (this.container) throw new Error('createDatabaseIfMissing must be called before the app opens');
    this.createDatabase = true;
    return this;
  }

  /**
   * The `migrations` option when it names a folder.
   * @internal For the `portico` command.
   */
  get migrationsFolder(): string | URL | undefined {
    const option = this.options.migrations;
    return typeof option === 'string' || option instanceof URL ? option : undefined;
  }

  /**
   * Uses these migrations instead of the `migrations` option (before `open()`).
   * @internal The `portico` command passes the folder it was given.
   */
  async useMigrations(from: readonly MigrationDef[] | string | URL): Promise<void> {
    if (this.container) throw new Error('useMigrations must be called before the app opens');
    this.appMigrations = typeof from === 'string' || from instanceof URL ? await loadMigrationFolder(from) : from;
  }

  /**
   * Builds the registry and the container, then opens the database; rejects with an Error when a
   * backend choice is impossible (before anything is opened) and with DatabaseUnavailable when the
   * database cannot be reached.
   */
  async open(): Promise<void> {
    if (this.database) return;
    await this.prepare();
    this.database = await resolveAsync(this.required(this.container, 'container'), TOKENS.Database);
  }

  /**
   * Builds the registry and the container without opening the database (`portico makemigrations`
   * needs the models, not a connection).
   * @internal For the `portico` command; `open()` does it first.
   */
  async prepare(): Promise<void> {
    if (this.container) return;
    const option = this.options.migrations;
    if (!this.appMigrations && option !== undefined && (typeof option === 'string' || option instanceof URL)) this.appMigrations = await loadMigrationFolder(option);
    this.registryValue = ModelRegistry.build(
      [...BUILTIN_MODELS, ...this.plugins.flatMap((p) => p.models ?? []), ...(this.options.models ?? [])],
      this.plugins.flatMap((p) => p.rowPolicies ?? []),
    );
    const { secret, production, bodyLimit } = this.options;
    this.container = buildContainer({
      url: this.options.database,
      registry: this.registryValue,
      migrations: this.migrationDefs(),
      overrides: this.createDatabase ? { ...this.options, createDatabase: true } : this.options,
      settings: {
        ...(secret !== undefined ? { secret } : {}),
        ...(production !== undefined ? { production } : {}),
        ...(bodyLimit !== undefined ? { bodyLimit } : {}),
        trustedOrigins: upgradeOriginPolicy(this.options.trustedOrigins).trustedOrigins,
      },
    });
  }

  /**
   * Applies pending migrations; returns the names applied. With `to`, applies up to that
   * migration, or, when it is applied already, reverses every migration after it.
   */
  async migrate(to?: string): Promise<string[]> {
    await this.open();
    return this.db.migrate(to);
  }

  /**
   * The difference between the models and the database's schema, one line, or undefined when
   * they agree ("schema drift: table post: column pages is missing (run portico makemigrations,
   * then portico migrate)").
   */
  async schemaDrift(): Promise<string | undefined> {
    await this.open();
    return new CheckSchema(this.registry, this.db).summary();
  }

  /** Opens the database, migrates when `autoMigrate` is set, and installs every plugin. */
  start(): Promise<void> {
    this.starting ??= this.boot();
    return this.starting;
  }

  private async boot(): Promise<void> {
    await this.open();
    if (this.options.autoMigrate) await this.migrate();
    const container = this.required(this.container, 'container');
    const drift = await this.schemaDrift();
    if (drift !== undefined) {
      // Serving a schema the models do not describe fails request by request: refused in production.
      if (resolve(container, TOKENS.Settings).production) throw new Error(drift);
      this.logger.warn({}, drift);
    }
    // Connects the Redis throttle store when that is the choice; every later resolution is synchronous.
    await resolveAsync(container, TOKENS.ThrottleStore);
    const settings = resolve(container, TOKENS.Settings);
    if (!this.options.secret && !process.env.PORTICO_SECRET && settings.production) {
      this.logger.warn({}, 'no secret configured: CSRF tokens and codes are keyed by a random per-process secret');
    }
    const routes: RouteDef[] = [];
    const middleware: HttpMiddleware[] = [];
    const hooks: BootHooks = {
      authenticate: (backend) => void (this.authBackend = backend),
      onListen: (fn) => void this.listenHooks.push(fn),
      onUpgrade: (path, handler) => this.http.onUpgrade(path, handler),
      identify: (caller, backend) =>
        identifyUpgrade(backend ?? this.authBackend, caller, { sessions: resolveOptional(container, TOKENS.Sessions), tokens: resolveOptional(container, TOKENS.BearerTokens) }),
      watchCaller: callerWatch({
        events: () => resolve(container, TOKENS.Events),
        sessions: () => resolveOptional(container, TOKENS.Sessions),
        tokens: () => resolveOptional(container, TOKENS.BearerTokens),
        clock: resolve(container, TOKENS.Clock),
        logger: this.logger,
      }),
      onClose: (fn) => void this.closeHooks.push(fn),
      isDraining: () => this.draining,
      route: (def) => void routes.push(def),
      middleware: (mw) => void middleware.push(mw),
      addHealthCheck: (name, check) => void this.checks.push({ name, check }),
      healthChecks: () => this.checks,
      advertise: (entry) => void this.advertised.push(entry),
      endpoints: () => this.advertised,
    };
    for (const plugin of this.plugins) await plugin.install(createPluginContext(container, plugin, hooks));
    const fileColumn = this.registry.all().flatMap((m) => m.columns.filter((c) => c.file).map((c) => `${m.table}.${c.name}`))[0];
    if (fileColumn && !resolveOptional(container, TOKENS.StoredFiles)) throw new Error(`${fileColumn} is a file column: mount the storage() plugin (app.use(storage({ url: 'file:./data/media' })))`);
    const pages = cachedPagesOf(routes, resolveOptional(container, TOKENS.Cache), resolve(container, TOKENS.Clock));
    pages?.follow(resolve(container, TOKENS.Events), routes.flatMap((r) => r.cache?.dependsOn ?? []));
    const eventsCheck = eventBusCheck(resolve(container, TOKENS.Events));
    if (eventsCheck) this.checks.push(eventsCheck);
    const tokens = resolveOptional(container, TOKENS.BearerTokens);
    this.koa = buildKoaApp({
      logger: this.logger,
      routes,
      middleware,
      inFlight: this.inFlight,
      bodyLimit: settings.bodyLimit,
      idempotency: resolve(container, TOKENS.IdempotentRequests),
      ...(pages ? { pages } : {}),
      // Spelled out, not `{ ...sources, tokens }`: a spread copy that then gains a property is slow in V8 (docs/performance.md).
      identify: (backend, sources) => resolveIdentity(backend ?? this.authBackend, { authorization: sources.authorization, session: sources.session, tokens }),
      ...(this.options.trustedProxyHops !== undefined ? { trustedProxyHops: this.options.trustedProxyHops } : {}),
      ...(this.options.logRequests !== undefined ? { logRequests: this.options.logRequests } : {}),
    });
  }

  /** The Node request listener (starts the app first): hand it to a server of the host's own. */
  async callback(): Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> {
    await this.start();
    return this.required(this.koa, 'koa').callback();
  }

  /** Starts and listens; resolves with the bound port and base URL. */
  async listen(port = 0, host = '127.0.0.1'): Promise<{ port: number; url: string }> {
    const koa = await this.callback();
    const { server, ...address } = await this.http.listen(koa, port, host);
    if (this.options.processGuard !== false) this.unguard ??= guardProcess(this.logger);
    for (const hook of this.listenHooks) {
      const stop = hook(server);
      if (stop) this.beforeServerClose.push(stop);
    }
    return address;
  }

  /** Marks the app as draining: readiness answers 503 `draining` from now on. */
  drain(): void {
    this.draining = true;
  }

  /**
   * Graceful shutdown: drains (readiness 503, every response `Connection: close`), keeps serving
   * for `drainMs` so that keep-alive clients finish on a clean close and a load balancer notices,
   * stops accepting connections, waits (up to `graceMs`) for requests in flight, including those
   * whose client has already gone, then releases the container (closing the database and the
   * Redis connection of the throttle store).
   */
  async close(graceMs = 10_000, drainMs = 0): Promise<void> {
    this.drain();
    const closing = Promise.all(this.closeHooks.splice(0).map((fn) => fn(graceMs).catch((err: unknown) => this.logger.error({ err }, 'a close hook failed'))));
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    if (drainMs > 0) await pause(drainMs);
    for (const fn of this.beforeServerClose.splice(0)) await fn();
    await this.http.close(graceMs, drainMs);
    const deadline = Date.now() + graceMs;
    while (this.inFlight.count > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await closing;
    this.closed = true;
    // A database that never opened has nothing to close: its failed binding's rejection was answered already.
    const unbinding = this.container?.unbindAll();
    await (this.database ? unbinding : unbinding?.catch(() => undefined));
    this.unguard?.();
    this.unguard = undefined;
  }

  private fromContainer<T>(token: Token<T>): T {
    if (this.closed) throw new Error('the app is closed');
    return resolve(this.required(this.container, 'container'), token);
  }

  private required<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new Error(`the app's ${what} is not ready: call open() or start() first`);
    return value;
  }
}

/**
 * The schema of an app whose models are `Models`: theirs and Portico's own tables; a list whose
 * table names are not known at compile time (`ModelDecl[]`) gives the untyped schema.
 */
export type AppSchema<Models extends readonly ModelDecl[]> = string extends Models[number]['table'] ? UntypedSchema : SchemaOf<Models> & BuiltinSchema;

/** Creates an app (nothing is opened until `open`, `start` or `listen`), typed by its models. */
export function createApp<Models extends readonly ModelDecl[] = readonly []>(options: AppOptions & { readonly models?: Models }): PorticoApp<AppSchema<Models>> {
  return new PorticoApp<AppSchema<Models>>(options);
}

/** The page cache of the routes declared with `cache`, checked: a rule with a bad TTL, or no cache() plugin, stops the app. */
function cachedPagesOf(routes: readonly RouteDef[], cache: Cache | undefined, clock: Clock): CachedPages | undefined {
  const cached = routes.filter((r) => r.cache);
  for (const route of cached) checkPageRule(route.cache as NonNullable<RouteDef['cache']>, `${route.method} ${route.path}`);
  const first = cached[0];
  if (!first) return undefined;
  if (!cache) throw new Error(`cachePage on ${first.method} ${first.path} keeps pages in the app's cache: mount the cache() plugin`);
  return new CachedPages(cache, () => clock.now().getTime());
}
