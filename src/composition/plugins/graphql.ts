import type { StoredFiles } from '../../application/storage/stored-files.js';
import type { Value } from '../../domain/model/types.js';
import type { PresentedFile } from '../../domain/storage/file-value.js';
import type { GraphQLSchema } from 'graphql';
import { callerOf, HANDSHAKE_OUTCOME, missingPackages, noAuthentication, streamBody, type AuthBackend, type HttpRequest } from '../../adapters/http-koa/index.js';
import { buildGraphqlSchema, type Departure, type GraphqlContext } from '../../adapters/graphql/build-schema.js';
import { DEFAULT_GRAPHQL_LIMITS, GraphqlPipeline, type GraphqlLimits } from '../../adapters/graphql/pipeline.js';
import { graphqlOverHttp, graphqlOverSse, graphqlOverWebSocket, untilRevoked, type GraphqlHttpRequest, type GraphqlHttpResponse } from '../../adapters/graphql/transports.js';
import { Loaders } from '../../adapters/graphql/loaders.js';
import { GraphqlReads } from '../../application/graphql/graphql-reads.js';
import { GraphqlWrites } from '../../application/graphql/graphql-writes.js';
import { ShuttingDown } from '../../domain/errors/domain-error.js';
import type { GraphqlConfig, IdentityGate } from '../../domain/graphql/read-policy.js';
import { PASSWORD_HASH } from '../../domain/rest/field-policy.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';
import { GRAPHIQL_PACKAGES, graphiqlRoutes } from './graphiql-page.js';
import type { Identity } from '../../domain/auth/identity.js';

/**
 * The GraphQL layer (SPEC "GraphQL"): deny-by-default (nothing is in the schema until exposed),
 * per-caller gates, the models' row policies on every read and write (a caller reaches only its
 * rows: by id, in lists, connections, relations and many-to-many lists, in subscriptions), hidden
 * and private columns, relations batched per request, cursor connections, mutations
 * (`mutable`/`mutableIf`) and subscriptions (`subscribable`), over `POST /graphql` (graphql-http;
 * JSON only, 415 otherwise), `POST /graphql/sse` (graphql-sse) and `/graphql/ws` (graphql-ws),
 * all through one pipeline: the same limits, identity, error shape and introspection policy on
 * every transport.
 *
 * @example
 * app.use(graphql().authenticate(chainAuthentication(sessionAuthentication(), bearerAuthentication()))
 *   .expose('author').expose('post').exposeIf('staff_report', (who) => who.isStaff)
 *   .hide('author', 'email').allowPrivateIf('post', 'score', (who) => who.isStaff));
 */
export class GraphqlPlugin implements Plugin {
  readonly name = 'graphql';
  private readonly exposed = new Map<string, IdentityGate | undefined>();
  private readonly hidden = new Map<string, Set<string>>();
  private readonly unlocks = new Map<string, Map<string, IdentityGate>>();
  private readonly mutables = new Map<string, IdentityGate | undefined>();
  private readonly subscribables = new Set<string>();
  private backend: AuthBackend = noAuthentication();
  private schemaValue?: GraphQLSchema;
  private explorer?: boolean;
  private introspectionOn?: boolean;
  private limitValues: GraphqlLimits = DEFAULT_GRAPHQL_LIMITS;

  constructor(private readonly path = '/graphql') {}

  /** Makes a model readable (nothing is exposed by default). */
  expose(table: string): this {
    this.exposed.set(table, undefined);
    return this;
  }
  /** Exposes a model to callers passing `gate`; others get a FORBIDDEN error reading it. */
  exposeIf(table: string, gate: IdentityGate): this {
    this.exposed.set(table, gate);
    return this;
  }
  /** Removes columns from the schema (hiding a foreign key severs the relation both ways). */
  hide(table: string, columns: string | readonly string[]): this {
    const set = this.hidden.get(table) ?? new Set<string>();
    for (const c of typeof columns === 'string' ? [columns] : columns) set.add(c);
    this.hidden.set(table, set);
    return this;
  }
  /** Makes a private column readable for callers passing `gate` (others read null). */
  allowPrivateIf(table: string, column: string, gate: IdentityGate): this {
    const map = this.unlocks.get(table) ?? new Map<string, IdentityGate>();
    map.set(column, gate);
    this.unlocks.set(table, map);
    return this;
  }
  /** Opts a model into `createX`, `updateX`, `deleteX` mutations (the model must be exposed). */
  mutable(table: string): this {
    this.mutables.set(table, undefined);
    return this;
  }
  /** Like `mutable`, for callers passing `gate` (others get FORBIDDEN). */
  mutableIf(table: string, gate: IdentityGate): this {
    this.mutables.set(table, gate);
    return this;
  }
  /** Opts a model into `xChanged(id)` and `xDeleted` subscriptions over SSE and WebSocket (the model must be exposed). */
  subscribable(table: string): this {
    this.subscribables.add(table);
    return this;
  }
  /** Forces the GraphiQL explorer on or off (default: on in development, off in production). */
  graphiql(on: boolean): this {
    this.explorer = on;
    return this;
  }
  /** Allows or refuses introspection (DESIGN §3: on in development, off by default in production). */
  introspection(on: boolean): this {
    this.introspectionOn = on;
    return this;
  }
  /** How callers are identified (default: everyone is anonymous). */
  authenticate(backend: AuthBackend): this {
    this.backend = backend;
    return this;
  }

  /** The derived schema (after the app started). */
  get schema(): GraphQLSchema {
    if (!this.schemaValue) throw new Error('the GraphQL schema exists once the app has started');
    return this.schemaValue;
  }

  /** Overrides document limits (DESIGN §3 "GraphQL pipeline"; defaults in `DEFAULT_GRAPHQL_LIMITS`). */
  limits(limits: Partial<GraphqlLimits>): this {
    this.limitValues = { ...this.limitValues, ...limits };
    return this;
  }

  install(ctx: PluginContext): void {
    this.check(ctx);
    const config: GraphqlConfig = { exposed: this.exposed, hidden: this.hidden, unlocks: this.unlocks };
    const tags = ctx.get(TOKENS.EntityTags);
    // A file column answers through the storage() plugin (mounted before or after this one).
    let files: StoredFiles | undefined;
    const presentFile = (value: Value | undefined): PresentedFile | null => {
      files ??= ctx.getOptional(TOKENS.StoredFiles);
      if (!files) throw new Error('graphql: a file column is answered through the storage() plugin, which is not mounted');
      return files.present(value);
    };
    const schema = buildGraphqlSchema(ctx.registry, config, this.mutables, this.subscribables, tags, presentFile);
    this.schemaValue = schema;
    const pipeline = new GraphqlPipeline({ schema, limits: this.limitValues, introspection: this.introspectionOn ?? !ctx.production });
    // The use cases, bound to each request's caller: every read applies the caller's row policy.
    const reads = new GraphqlReads(ctx.store, ctx.registry);
    const writes = new GraphqlWrites(ctx.store, tags);
    const contextFor = (identity: Identity, signal: () => AbortSignal, departure: Departure): GraphqlContext => {
      let made: AbortSignal | undefined;
      const callerReads = reads.for(identity);
      return {
        identity,
        get signal() {
          return (made ??= signal());
        },
        departure,
        reads: callerReads,
        writes: writes.for(identity),
        loaders: new Loaders(callerReads, departure),
        events: ctx.events,
      };
    };
    const neutral = (req: HttpRequest): GraphqlHttpRequest => ({
      method: req.method,
      url: `${req.origin}${req.path}`,
      headers: req.headers,
      body: req.body,
      context: async () => contextFor(await req.identity(this.backend), () => req.signal, httpDeparture(req)),
    });
    const route = (path: string, serve: (r: GraphqlHttpRequest) => Promise<GraphqlHttpResponse>): void =>
      ctx.route({
        method: 'POST',
        path,
        body: 'json',
        handler: async (req) => {
          const res = await serve(neutral(req));
          // A draining process opens no new stream (as realtime's SSE and every WebSocket upgrade):
          // the subscription just made is returned, and the client told to connect again.
          if (res.subscription && ctx.isDraining() && res.body !== null && typeof res.body !== 'string') {
            await res.body[Symbol.asyncIterator]().return?.();
            throw new ShuttingDown();
          }
          const body = res.body === null ? '' : typeof res.body === 'string' ? res.body : streamBody(res.subscription ? await watched(req, res.body) : res.body);
          return { status: res.status, body, headers: res.headers, ...(res.headers['content-type'] ? { type: res.headers['content-type'] } : {}) };
        },
      });
    // A subscription over SSE ends when the credential its caller was identified by is revoked.
    const watched = async (req: HttpRequest, stream: AsyncIterable<string>): Promise<AsyncIterable<string>> => {
      const identity = await req.identity(this.backend);
      return identity.isAuthenticated ? untilRevoked(stream, (ended) => ctx.watchCaller(callerOf(req.headers), identity, ended)) : stream;
    };
    route(this.path, graphqlOverHttp(pipeline));
    if (this.explorer ?? !ctx.production) {
      // GraphiQL and its React are optional peers: without them the explorer is not served, said in one line.
      const missing = missingPackages(GRAPHIQL_PACKAGES);
      if (missing.length === 0) {
        for (const r of graphiqlRoutes(this.path)) ctx.route(r);
        ctx.advertise({ group: 'graphql', name: 'graphiql', method: 'GET', path: this.path, label: 'GraphiQL explorer' });
      } else {
        ctx.logger[this.explorer ? 'error' : 'warn']({ missing }, `graphql: GraphiQL is not served; install the optional ${missing.length === 1 ? 'package' : 'packages'} ${missing.join(', ')} (npm install -D ${missing.join(' ')})`);
      }
    }
    ctx.advertise({ group: 'graphql', name: 'graphql', method: 'POST', path: this.path, label: 'GraphQL endpoint' });
    // Queries and mutations are served on the subscription transports too, through the same pipeline.
    route(`${this.path}/sse`, graphqlOverSse(pipeline));
    ctx.advertise({ group: 'graphql', name: 'graphql-sse', method: 'POST', path: `${this.path}/sse`, label: 'GraphQL over SSE' });
    // Sessions and bearer tokens when sessions() and auth() are mounted (ctx.identify reads them per connection).
    const ws = graphqlOverWebSocket(
      pipeline,
      async (caller, signal) => contextFor(await ctx.identify(caller, this.backend), () => signal, signal),
      (caller, identity, ended) => ctx.watchCaller(caller, identity, ended),
      HANDSHAKE_OUTCOME,
      ctx.bodyLimit,
    );
    ctx.onUpgrade(`${this.path}/ws`, ws.upgrade);
    ctx.onListen(() => ws.close);
    ctx.advertise({ group: 'graphql', name: 'graphql-ws', method: 'GET', path: `${this.path}/ws`, label: 'GraphQL over WebSocket' });
  }

  private check(ctx: PluginContext): void {
    for (const table of [...this.exposed.keys(), ...this.hidden.keys(), ...this.unlocks.keys(), ...this.mutables.keys()]) {
      if (!ctx.registry.has(table)) throw new Error(`graphql: "${table}" names no registered model`);
    }
    for (const table of [...this.mutables.keys(), ...this.subscribables]) {
      if (!this.exposed.has(table)) throw new Error(`graphql: mutable/subscribable("${table}") needs expose("${table}") too`);
    }
    for (const [table, columns] of this.unlocks) {
      for (const column of columns.keys()) {
        if (column === PASSWORD_HASH) throw new Error('graphql: password_hash cannot be exposed');
        if (!ctx.registry.require(table).columns.some((c) => c.name === column && c.private)) {
          throw new Error(`graphql: allowPrivateIf(${table}, ${column}): not a private column`);
        }
      }
    }
    if (this.backend.kind === 'none' && [...this.exposed.values()].some((g) => g !== undefined)) {
      ctx.logger.warn({}, 'graphql: exposeIf gates are set but no authentication backend: every caller is anonymous, so the gates can only deny');
    }
  }
}

/** An HTTP request's departure, read from the response's state: no AbortSignal made for it. */
function httpDeparture(req: HttpRequest): Departure {
  return {
    get aborted() {
      return req.departed;
    },
    throwIfAborted() {
      if (req.departed) throw new Error('the client disconnected');
    },
  };
}

/** Creates the GraphQL plugin. */
export function graphql(path = '/graphql'): GraphqlPlugin {
  return new GraphqlPlugin(path);
}
