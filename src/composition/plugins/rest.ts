import { ThrottleGate } from '../../application/auth/throttle-gate.js';
import { BulkCreate } from '../../application/rest/bulk-create.js';
import { BulkDelete } from '../../application/rest/bulk-delete.js';
import { BulkUpdate } from '../../application/rest/bulk-update.js';
import { CreateRow } from '../../application/rest/create-row.js';
import { DeleteRow } from '../../application/rest/delete-row.js';
import { HydrateIncludes } from '../../application/rest/hydrate-includes.js';
import { ListRows } from '../../application/rest/list-rows.js';
import type { NestedSpec } from '../../application/rest/nested-tree.js';
import { NestedWrites } from '../../application/rest/nested-writes.js';
import { restResource, type RestResource } from '../../application/rest/rest-resource.js';
import { RetrieveRow } from '../../application/rest/retrieve-row.js';
import { RunAction } from '../../application/rest/run-action.js';
import { UpdateRow } from '../../application/rest/update-row.js';
import { noAuthentication, type AuthBackend } from '../../adapters/http-koa/authentication.js';
import { collectionPath, restRoutes } from '../../adapters/http-koa/routes/rest-routes.js';
import { parseRate } from '../../domain/auth/throttle-rates.js';
import { assertEnforceableSchema } from '../../domain/rest/action-schema.js';
import { isExposed } from '../../domain/rest/exposure.js';
import { AllowAny, ReadOnly } from '../../domain/rest/permission-classes.js';
import type { ResourceConfig } from '../../application/rest/resource-config.js';
import type { Plugin, PluginContext } from '../plugin.js';

export interface RestOptions {
  /** Mount point (default `/api`; `''` mounts at the bare root, where the API root index is not served). */
  readonly prefix?: string;
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
export class RestPlugin implements Plugin {
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
  resource(config: ResourceConfig): this {
    this.configs.set(config.table, config);
    return this;
  }
  /** Equal to one `resource(...)` per item. */
  resources(configs: Iterable<ResourceConfig>): this {
    for (const c of configs) this.resource(c);
    return this;
  }
  /** How the REST layer identifies callers (default NoAuthentication: everyone is anonymous). */
  authenticate(backend: AuthBackend): this {
    this.backend = backend;
    return this;
  }

  install(ctx: PluginContext): void {
    const junctions = new Set(ctx.registry.all().flatMap((m) => m.manyToMany.map((rel) => rel.through)));
    const exposure = { expose: this.exposed, exclude: this.excluded, junctions, ...(this.includeOnlyTables ? { includeOnly: this.includeOnlyTables } : {}) };
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
      }
      const under = config.under;
      if (under) {
        const fk = ctx.registry.require(table).columns.find((col) => col.name === under.fk);
        if (!fk?.references || fk.references.table !== under.parent) {
          throw new Error(`rest: under('${under.parent}', '${under.fk}') on ${table}: ${under.fk} is not a foreign key to ${under.parent}`);
        }
      }
    }
    const byTable = new Map<string, RestResource>(ctx.registry.all().map((m) => [m.table, restResource(m, this.configs.get(m.table))]));
    // A table REST does not serve still has a policy for `?include` (its defaults, DESIGN §3).
    const unserved = new Map(ctx.registry.all().map((m) => [m.table, restResource(m, undefined)]));
    const served = ctx.registry.all().filter((m) => isExposed(m.table, exposure)).map((m) => byTable.get(m.table) as RestResource);
    const servedTables = new Set(served.map((r) => r.model.table));
    const resourceOf = (table: string): RestResource => (servedTables.has(table) ? byTable.get(table) : unserved.get(table)) as RestResource;
    this.warnAboutAnonymousAccess(ctx, served);

    const hydrate = new HydrateIncludes(ctx.store, ctx.registry, resourceOf);
    const spec: NestedSpec = new Map([...this.configs.values()].filter((c) => c.nested?.length).map((c) => [c.table, c.nested ?? []]));
    const nested = new NestedWrites(ctx.store, ctx.registry, spec, resourceOf);
    const throttle = new ThrottleGate(ctx.throttleStore);
    const rates = new Map(served.filter((r) => r.config.throttle).map((r) => [r.model.table, parseRate(r.config.throttle as string)]));
    const routes = restRoutes({
      prefix: this.prefix,
      registry: ctx.registry,
      resources: served,
      resourceOf,
      backend: this.backend,
      list: new ListRows(ctx.store, hydrate),
      retrieve: new RetrieveRow(ctx.store, hydrate),
      create: new CreateRow(ctx.store, hydrate, nested),
      update: new UpdateRow(ctx.store, hydrate, nested),
      remove: new DeleteRow(ctx.store),
      bulkCreate: new BulkCreate(ctx.store, hydrate),
      bulkUpdate: new BulkUpdate(ctx.store, hydrate),
      bulkDelete: new BulkDelete(ctx.store),
      runAction: new RunAction(ctx.store),
      store: ctx.store,
      throttle: async (resource, identity, req) => {
        const rate = rates.get(resource.model.table);
        if (rate) await throttle.consume(`rest:${resource.model.table}:${identity.isAuthenticated ? `u${String(identity.id)}` : `ip${req.ip}`}`, rate);
      },
    });
    for (const route of routes) ctx.route(route);
    if (this.prefix !== '') this.mountApiRoot(ctx, served);
    ctx.provide('rest.served', { prefix: this.prefix, resources: served, resourceOf });
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

/** Creates the REST plugin. */
export function rest(options: RestOptions = {}): RestPlugin {
  return new RestPlugin(options);
}
