import type { CreateRow } from '../../../application/rest/create-row.js';
import type { DeleteRow } from '../../../application/rest/delete-row.js';
import type { ListRows } from '../../../application/rest/list-rows.js';
import type { RestResource } from '../../../application/rest/rest-resource.js';
import type { RetrieveRow } from '../../../application/rest/retrieve-row.js';
import type { UpdateRow } from '../../../application/rest/update-row.js';
import type { Identity } from '../../../domain/auth/identity.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import { columnOf, type ModelRegistry } from '../../../domain/model/model-registry.js';
import { parseListQuery, parseTextValue } from '../../../domain/rest/list-query.js';
import { allowedMethods } from '../../../domain/rest/view-scope.js';
import type { AuthBackend } from '../authentication.js';
import type { HttpRequest, HttpResponse, RouteDef } from '../http-route.js';
import { toProblem } from '../problem-mapping.js';

export interface RestRouteDeps {
  readonly prefix: string;
  readonly registry: ModelRegistry;
  readonly resources: readonly RestResource[];
  readonly resourceOf: (table: string) => RestResource;
  readonly backend: AuthBackend;
  readonly list: ListRows;
  readonly retrieve: RetrieveRow;
  readonly create: CreateRow;
  readonly update: UpdateRow;
  readonly remove: DeleteRow;
  /** Spends the resource's throttle for this caller (429 when over). */
  readonly throttle: (resource: RestResource, identity: Identity, req: HttpRequest) => Promise<void>;
}

/** 405 with the Allow header, as problem+json (SPEC "View scope" 1). */
function methodNotAllowed(allow: readonly string[]): HttpResponse {
  return {
    status: 405,
    body: toProblem(new DomainError('method_not_allowed', `allowed: ${allow.join(', ')}`)),
    type: 'application/problem+json',
    headers: { Allow: allow.join(', ') },
  };
}

/** The URL of the same list with another offset. */
function pageUrl(req: HttpRequest, limit: number, offset: number): string {
  const url = new URL(`${req.origin}${req.path}`);
  for (const [k, v] of Object.entries(req.query)) {
    if (k === 'limit' || k === 'offset' || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, item);
  }
  url.searchParams.set('limit', String(limit));
  url.searchParams.set('offset', String(offset));
  return url.toString();
}

/**
 * The CRUD routes of every served table (SPEC "REST resource routes", "View scope"): the
 * collection `/<prefix>/<table>/` and the detail `/<prefix>/<table>/{id}`. A URI that serves no
 * method after views is not routed at all (404); a scoped-out method answers 405 with Allow;
 * OPTIONS answers 204 with Allow. Handlers only convert: the use cases decide.
 */
export function restRoutes(deps: RestRouteDeps): RouteDef[] {
  const routes: RouteDef[] = [];
  for (const resource of deps.resources) {
    const table = resource.model.table;
    const pkCol = columnOf(resource.model, resource.model.primaryKey);
    const visible = (t: string, c: string) => deps.resourceOf(t).policy.readable(c);
    const collection = allowedMethods(resource.actions, 'collection');
    const detail = allowedMethods(resource.actions, 'detail');

    const collectionHandler = async (req: HttpRequest): Promise<HttpResponse> => {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: collection.join(', ') } };
      if (!collection.includes(method)) return methodNotAllowed(collection);
      const identity = await req.identity(deps.backend);
      await deps.throttle(resource, identity, req);
      if (method === 'POST') return { status: 201, body: await deps.create.execute(resource, identity, req.body) };
      const query = parseListQuery(req.query, { registry: deps.registry, model: resource.model, visible });
      const page = await deps.list.execute(resource, identity, query);
      const next = query.offset + query.limit < page.count && query.limit > 0 ? pageUrl(req, query.limit, query.offset + query.limit) : null;
      const previous = query.offset > 0 ? pageUrl(req, query.limit, Math.max(0, query.offset - query.limit)) : null;
      return { status: 200, body: { count: page.count, next, previous, results: page.results } };
    };

    const detailHandler = async (req: HttpRequest): Promise<HttpResponse> => {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method === 'OPTIONS') return { status: 204, headers: { Allow: detail.join(', ') } };
      if (!detail.includes(method)) return methodNotAllowed(detail);
      // An id that cannot be coerced to the key type cannot name a row: 404 (SPEC "Parent-scoped sub-resources" 7).
      const id = pkCol ? parseTextValue(pkCol, req.params.id ?? '') : undefined;
      if (id === undefined || id === null) throw new DomainError('not_found', `${table} not found`);
      const identity = await req.identity(deps.backend);
      await deps.throttle(resource, identity, req);
      if (method === 'GET') {
        const { include } = parseListQuery(req.query.include === undefined ? {} : { include: req.query.include }, { registry: deps.registry, model: resource.model, visible });
        return { status: 200, body: await deps.retrieve.execute(resource, identity, id, include) };
      }
      if (method === 'DELETE') {
        await deps.remove.execute(resource, identity, id);
        return { status: 204 };
      }
      return { status: 200, body: await deps.update.execute(resource, identity, id, req.body, method === 'PATCH') };
    };

    if (collection.length > 0) {
      routes.push({ method: 'ALL', path: `${deps.prefix}/${table}`, body: 'json', handler: collectionHandler });
      routes.push({ method: 'ALL', path: `${deps.prefix}/${table}/`, body: 'json', handler: collectionHandler });
    }
    if (detail.length > 0) routes.push({ method: 'ALL', path: `${deps.prefix}/${table}/:id`, body: 'json', handler: detailHandler });
  }
  return routes;
}
