import type { StoredFiles } from '../../application/storage/stored-files.js';
import type { Value } from '../../domain/model/types.js';
import type { NestedSpec } from '../../application/rest/nested-tree.js';
import { restResource, type RestResource } from '../../application/rest/rest-resource.js';
import type { RestServed } from '../../application/rest/rest-served.js';
import { collectionPath, noAuthentication, restRoutes, type AuthBackend } from '../../adapters/http-koa/index.js';
import { parseRate } from '../../domain/auth/throttle-rates.js';
import type { RowPolicyDecl } from '../../domain/model/row-policy.js';
import { assertEnforceableSchema } from '../../domain/rest/action-schema.js';
import { isExposed } from '../../domain/rest/exposure.js';
import { AllowAny, ReadOnly } from '../../domain/rest/permission-classes.js';
import type { ResourceConfig, TypedResourceConfig } from '../../application/rest/resource-config.js';
import type { ModelDecl } from '../../domain/model/define-model.js';
import type { UntypedSchema } from '../../domain/model/typed-model.js';
import type { TableOf } from '../../ports/typed-store.js';
import type { AppSchema } from '../portico-app.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';
import { bindRestUseCases } from './rest-bindings.js';
export interface RestOptions<Models extends readonly ModelDecl[] = readonly ModelDecl[]> {
  /** Mount point (default `/api`; `''` mounts at the bare root, where the API root index is not served). */
  readonly prefix?: string;
  /** The app's models, for the types only: `resource()` then checks its table, columns and action rows. */
  readonly models?: Models;
}

/**
 * The REST layer (SPEC "REST layer"): JSON CRUD under `/api/<table>/` for every registered
 * model that the exposure rules let through, with per-table configuration.
 *
 * @example
 * app.use(rest()
 *   .authenticate(chainAuthentication(sessionAuthentication(), bearerAuthentication()))
 *   .resource({ table: 'author', permission: AllowAny, hide: ['secret_note'] })
 *   .exclude(['secret_config']));
 */
export class RestPlugin<S = UntypedSchema> implements Plugin {
  readonly name = 'rest';
  private includeOnlyTables?: Set<string>;
  private readonly exposed = new Set<string>();
  private readonly excluded = new Set<string>();
  private readonly configs = new Map<string, ResourceConfig>();
  private backend: AuthBackend = noAuthentication();
  private readonly prefix: string;

  constructor(options: RestOptions = {}) {
    const prefix = options.prefix ?? '/api';
    this.prefix = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  }

  /** Serves only these tables (SPEC rule 1). */
  includeOnly(tables: readonly string[]): this {
    this.includeOnlyTables = new Set([...(this.includeOnlyTables ?? []), ...tables]);
    return this;
  }
  /** Adds tables to the block-list. */
  exclude(tables: readonly string[]): this {
    for (const t of tables) this.excluded.add(t);
    return this;
  }
  /** Opts into default-blocked tables (still subject to exclude). */
  expose(tables: readonly string[]): this {
    for (const t of tables) this.exposed.add(t);
    return this;
  }
  /** Registers one table's configuration (a later call for the same table replaces it). */
  resource<N extends TableOf<S>>(config: TypedResourceConfig<S, N>): this {
    // The typed configuration is the untyped one seen through the models' types.
    this.configs.set(config.table, config as unknown as ResourceConfig);
    return this;
  }
  /** A resource's `ownedBy`/`scope`: sugar for its model's row policy, which every surface applies. */
  get rowPolicies(): RowPolicyDecl[] {
    return [...this.configs.values()]
      .filter((c) => c.ownedBy !== undefined || c.scope !== undefined)
      .map((c) => ({ table: c.table, by: `rest().resource({ table: '${c.table}' })`, policy: { ...(c.ownedBy !== undefined ? { ownedBy: c.ownedBy } : {}), ...(c.scope ? { scope: c.scope } : {}) } }));
  }

  /** Equal to one `resource(...)` per item. */
  resources(configs: Iterable<ResourceConfig>): this {
    for (const c of configs) this.configs.set(c.table, c);
    return this;
  }
  /** How the REST layer identifies callers (default NoAuthentication: everyone is anonymous). */
  authenticate(backend: AuthBackend): this {
    this.backend = backend;
    return this;
  }

  /** Binds `TOKENS.RestServed` and the REST use cases, then mounts the routes and the API root. */
  install(ctx: PluginContext): void {
    this.checkConfigs(ctx);
    const served = this.served(ctx);
    ctx.bind(TOKENS.RestServed, served);
    bindRestUseCases(ctx, new Map([...this.configs.values()].filter((c) => c.nested?.length).map((c) => [c.table, c.nested ?? []])) satisfies NestedSpec);
    this.warnAboutAnonymousAccess(ctx, served.resources);
    const throttle = ctx.get(TOKENS.RestThrottle);
    const rates = new Map(served.resources.flatMap((r) => (r.config.throttle ? [[r.model.table, parseRate(r.config.throttle)] as const] : [])));
    const routes = restRoutes({
      prefix: this.prefix,
      registry: ctx.registry,
      resources: served.resources,
      resourceOf: served.resourceOf,
      backend: this.backend,
      list: ctx.get(TOKENS.ListRows),
      retrieve: ctx.get(TOKENS.RetrieveRow),
      create: ctx.get(TOKENS.CreateRow),
      update: ctx.get(TOKENS.UpdateRow),
      remove: ctx.get(TOKENS.DeleteRow),
      bulkCreate: ctx.get(TOKENS.BulkCreate),
      bulkUpdate: ctx.get(TOKENS.BulkUpdate),
      bulkDelete: ctx.get(TOKENS.BulkDelete),
      runAction: ctx.get(TOKENS.RunAction),
      store: ctx.store,
      files: () => ctx.get(TOKENS.StoredFiles),
      throttle: (resource, identity, req) => {
        const rate = rates.get(resource.model.table);
        return rate ? throttle.consume(`rest:${resource.model.table}:${identity.isAuthenticated ? `u${String(identity.id)}` : `ip${req.ip}`}`, rate) : undefined;
      },
    });
    for (const route of routes) ctx.route(route);
    if (this.prefix !== '') this.mountApiRoot(ctx, served.resources);
  }

  /** Refuses configurations naming unknown tables, bad action names or foreign keys. */
  private checkConfigs(ctx: PluginContext): void {
    for (const [table, config] of this.configs) {
      if (!ctx.registry.has(table)) throw new Error(`rest: resource(${table}) names no registered model`);
      const names = new Set<string>();
      for (const action of config.actions ?? []) {
        if (!/^[a-z][a-z0-9_-]*$/.test(action.name)) throw new Error(`rest: action name "${action.name}" on ${table} must be a lower-case path segment`);
        if (names.has(`${action.scope}:${action.name}`)) throw new Error(`rest: action "${action.name}" is declared twice on ${table}`);
        names.add(`${action.scope}:${action.name}`);
        if (action.input) assertEnforceableSchema(action.input);
      }
      for (const n of config.nested ?? []) {
        if (!ctx.registry.has(n.table)) throw new Error(`rest: nested('${n.key}', '${n.table}') on ${table} names no registered model`);
        // The nested writer applies ownedBy to every node, but cannot re-read a tree through a scope function: no silent hole.
        for (const t of [table, n.table]) {
          if (ctx.registry.require(t).rowPolicy?.scope) throw new Error(`rest: nested('${n.key}', '${n.table}') on ${table}: nested writes cannot apply the row scope function of ${t} (use ownedBy, or drop nested)`);
        }
      }
      const under = config.under;
      if (under) {
        const fk = ctx.registry.require(table).columns.find((col) => col.name === under.fk);
        if (!fk?.references || fk.references.table !== under.parent) {
          throw new Error(`rest: under('${under.parent}', '${under.fk}') on ${table}: ${under.fk} is not a foreign key to ${under.parent}`);
        }
      }
    }
  }

  /** What this plugin serves after the exposure rules, and the field policy of every table. */
  private served(ctx: PluginContext): RestServed {
    const models = ctx.registry.all();
    const junctions = new Set(models.flatMap((m) => m.manyToMany.map((rel) => rel.through)));
    const exposure = { expose: this.exposed, exclude: this.excluded, junctions, ...(this.includeOnlyTables ? { includeOnly: this.includeOnlyTables } : {}) };
    // A file column answers through the storage() plugin (mounted before or after this one).
    let files: StoredFiles | undefined;
    const presentFile = (value: Value): Value => {
      files ??= ctx.getOptional(TOKENS.StoredFiles);
      if (!files) throw new Error('rest: a file column is answered through the storage() plugin, which is not mounted');
      return files.present(value) as unknown as Value;
    };
    const configured = models.map((m) => restResource(m, this.configs.get(m.table), presentFile));
    const resources = configured.filter((r) => isExposed(r.model.table, exposure));
    const byTable = new Map(resources.map((r) => [r.model.table, r]));
    // A table REST does not serve still has a policy for `?include` (its defaults, DESIGN §3).
    const unserved = new Map(models.map((m) => [m.table, restResource(m, undefined, presentFile)]));
    const resourceOf = (table: string): RestResource => {
      const resource = byTable.get(table) ?? unserved.get(table);
      if (!resource) throw new Error(`rest: "${table}" names no registered model`);
      return resource;
    };
    return { prefix: this.prefix, resources, resourceOf };
  }

  private mountApiRoot(ctx: PluginContext, served: readonly RestResource[]): void {
    const resources = Object.fromEntries(
      served.map((r) => {
        const base = collectionPath(this.prefix, r, '{parent_id}');
        return [r.model.table, { path: `${base}/`, detail: `${base}/{id}` }];
      }),
    );
    const handler = (req: { origin: string }) => ({
      status: 200,
      body: { resources, endpoints: ctx.endpoints().map((e) => ({ ...e, url: `${req.origin}${e.path}` })) },
    });
    ctx.route({ method: 'GET', path: `${this.prefix}/`, handler });
    ctx.route({ method: 'GET', path: this.prefix, handler });
  }

  /** SPEC "Authentication" 8: boot warnings when tables are open to anonymous callers. */
  private warnAboutAnonymousAccess(ctx: PluginContext, served: readonly RestResource[]): void {
    if (this.backend.kind !== 'none') return;
    for (const r of served) {
      if (r.permission === AllowAny) ctx.logger.warn({ table: r.model.table }, 'rest: no authentication backend: anonymous callers can read and write this table (AllowAny)');
      else if (r.permission === ReadOnly) ctx.logger.warn({ table: r.model.table }, 'rest: no authentication backend: anonymous callers can read this table (ReadOnly)');
    }
  }
}

/** Creates the REST plugin; given `models`, its `resource()` configurations are typed by them. */
export function rest<Models extends readonly ModelDecl[] = readonly ModelDecl[]>(options: RestOptions<Models> = {}): RestPlugin<AppSchema<Models>> {
  return new RestPlugin<AppSchema<Models>>(options);
}
