import type { BulkCreate } from '../../../application/rest/bulk-create.js';
import type { BulkDelete } from '../../../application/rest/bulk-delete.js';
import type { BulkUpdate } from '../../../application/rest/bulk-update.js';
import type { CreateRow } from '../../../application/rest/create-row.js';
import type { DeleteRow } from '../../../application/rest/delete-row.js';
import type { IfMatch, TaggedRow } from '../../../application/rest/entity-tags.js';
import { existsOr404 } from '../../../application/rest/exists-or-404.js';
import type { ListRows } from '../../../application/rest/list-rows.js';
import type { ActionDef } from '../../../application/rest/resource-config.js';
import type { RunAction } from '../../../application/rest/run-action.js';
import type { RestResource } from '../../../application/rest/rest-resource.js';
import type { RetrieveRow } from '../../../application/rest/retrieve-row.js';
import type { UpdateRow } from '../../../application/rest/update-row.js';
import type { StoredFiles } from '../../../application/storage/stored-files.js';
import type { Identity } from '../../../domain/auth/identity.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import { columnOf, type ModelRegistry } from '../../../domain/model/model-registry.js';
import type { ColumnDef, Value } from '../../../domain/model/types.js';
import { parseListQuery, parseTextValue } from '../../../domain/rest/list-query.js';
import type { ParentScope } from '../../../domain/rest/resource-config.js';
import { uploadBody } from '../../../domain/rest/upload-body.js';
import { fileColumnsOf } from '../../../domain/storage/file-value.js';
import { allowedMethods } from '../../../domain/rest/view-scope.js';
import type { RecordStore } from '../../../ports/record-store.js';
import type { AuthBackend } from '../authentication.js';
import type { HttpRequest, HttpResponse, RouteDef } from '../http-route.js';
import { toProblem } from '../problem-mapping.js';

export interface RestRouteDeps {
  readonly prefix: string;
  readonly registry: ModelRegistry;
  readonly store: RecordStore;
  readonly resources: readonly RestResource[];
  readonly resourceOf: (table: string) => RestResource;
  readonly backend: AuthBackend;
  readonly list: ListRows;
  readonly retrieve: RetrieveRow;
  readonly create: CreateRow;
  readonly update: UpdateRow;
  readonly remove: DeleteRow;
  readonly bulkCreate: BulkCreate;
  readonly bulkUpdate: BulkUpdate;
  readonly bulkDelete: BulkDelete;
  readonly runAction: RunAction;
  /** Spends the resource's throttle for this caller (429 when over); undefined at once for a resource without a rate. */
  readonly throttle: (resource: RestResource, identity: Identity, req: HttpRequest) => Promise<void> | undefined;
  /** The files of file columns (the storage() plugin; asked for only by resources that have any). */
  readonly files: () => StoredFiles;
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

/** A one-row answer with the strong entity tag of the stored row (REST detail reads and writes). */
function tagged(status: number, answer: TaggedRow): HttpResponse {
  return { status, body: answer.body, headers: { ETag: answer.etag } };
}

/** One element of an If-Match list (RFC 9110 §5.6.1, §8.8.3): empty, or an optionally weak quoted tag; then a comma or the end. */
const LIST_ELEMENT = /[ \t]*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*"))?[ \t]*(?:,|$)/y;

/**
 * The `If-Match` precondition of a request (RFC 9110 §13.1.1): none without the header; `*`; else
 * the strong tags it lists. Weak tags never match for If-Match and are dropped; a value that is
 * not a list of entity tags is an empty list, which no row satisfies (412, never a blind write).
 */
export function parseIfMatch(header: string | string[] | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(', ') : header).trim();
  if (value === '*') return '*';
  const tags: string[] = [];
  for (let at = 0; at < value.length; ) {
    LIST_ELEMENT.lastIndex = at;
    const element = LIST_ELEMENT.exec(value);
    if (!element) return [];
    if (element[2] !== undefined && element[1] === undefined) tags.push(element[2]);
    at = LIST_ELEMENT.lastIndex;
  }
  return tags;
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

/** The collection path of a resource: flat, or under its parent (SPEC "Parent-scoped sub-resources"). */
export function collectionPath(prefix: string, resource: RestResource, parentParam = ':parentId'): string {
  const under = resource.config.under;
  return under ? `${prefix}/${under.parent}/${parentParam}/${resource.model.table}` : `${prefix}/${resource.model.table}`;
}

/**
 * The CRUD routes of every served table (SPEC "REST resource routes", "View scope", "Bulk
 * endpoints", "Parent-scoped sub-resources"): a collection and a detail URI, flat or under the
 * declared parent (then the flat ones do not exist). A URI that serves no method after views is
 * not routed at all (404); a scoped-out method answers 405 with Allow; OPTIONS answers 204
 * with Allow. Handlers only convert: the use cases decide.
 */
export function restRoutes(deps: RestRouteDeps): RouteDef[] {
  return deps.resources.flatMap((resource) => resourceRoutes(deps, resource));
}

/** What the handlers of one resource share. */
interface ResourceScope {
  readonly deps: RestRouteDeps;
  readonly resource: RestResource;
  readonly table: string;
  readonly pkCol: ColumnDef | undefined;
  readonly visible: (table: string, column: string) => boolean;
  /** The declared parent, for a parent-scoped resource. */
  readonly under: RestResource['config']['under'];
  /** The methods of the collection URI (with OPTIONS; empty when it serves none). */
  readonly collection: string[];
  /** The methods of the detail URI (with OPTIONS; empty when it serves none). */
  readonly detail: string[];
  /** True when the model has file columns: create, PUT and PATCH take `multipart/form-data`. */
  readonly uploads: boolean;
}

/** One resource's routes: its actions first (`/<table>/<name>/` must win over the detail route `/<table>/:id`), then collection and detail. */
function resourceRoutes(deps: RestRouteDeps, resource: RestResource): RouteDef[] {
  const bulkExtra = resource.config.bulk
    ? [...(resource.actions.has('Update') ? ['PATCH'] : []), ...(resource.actions.has('Delete') ? ['DELETE'] : [])]
    : [];
  const scope: ResourceScope = {
    deps,
    resource,
    table: resource.model.table,
    pkCol: columnOf(resource.model, resource.model.primaryKey),
    visible: (t, c) => deps.resourceOf(t).policy.readable(c),
    under: resource.config.under,
    collection: allowedMethods(resource.actions, 'collection', bulkExtra),
    detail: allowedMethods(resource.actions, 'detail'),
    uploads: fileColumnsOf(resource.model).size > 0,
  };
  const base = collectionPath(deps.prefix, resource);
  const routes: RouteDef[] = [];
  for (const action of resource.config.actions ?? []) {
    const handler = actionHandler(scope, action);
    const path = action.scope === 'Detail' ? `${base}/:id/${action.name}` : `${base}/${action.name}`;
    routes.push({ method: 'ALL', path, body: 'json', handler });
    routes.push({ method: 'ALL', path: `${path}/`, body: 'json', handler });
  }
  if (scope.collection.length > 0) {
    const handler = collectionHandler(scope);
    routes.push({ method: 'ALL', path: base, body: 'json', uploads: scope.uploads, handler });
    routes.push({ method: 'ALL', path: `${base}/`, body: 'json', uploads: scope.uploads, handler });
  }
  if (scope.detail.length > 0) routes.push({ method: 'ALL', path: `${base}/:id`, body: 'json', uploads: scope.uploads, handler: detailHandler(scope) });
  return routes;
}

/** The caller, once the throttle let them through, and the parent of a parent-scoped request. */
async function admit(scope: ResourceScope, req: HttpRequest): Promise<{ identity: Identity; parent: ParentScope | undefined }> {
  const identity = await req.identity(scope.deps.backend);
  // Awaited only where there is something to wait for: a throttled resource, a parent to look up.
  const throttled = scope.deps.throttle(scope.resource, identity, req);
  if (throttled) await throttled;
  const parent = scope.under ? await parentOf(scope.deps, scope.under, req, identity) : undefined;
  return { identity, parent };
}

/** The parent of a parent-scoped request: missing, uncoercible or outside the caller's rows answers 404, never an empty list. */
async function parentOf(deps: ResourceScope['deps'], under: NonNullable<ResourceScope['under']>, req: HttpRequest, identity: Identity): Promise<ParentScope> {
  const parent = await existsOr404(deps.store, deps.registry.require(under.parent), req.params.parentId ?? '', identity);
  const parentModel = deps.registry.require(under.parent);
  return { column: under.fk, value: parent[parentModel.primaryKey] ?? null };
}

/** The key in the URI. An id that cannot be coerced to the key type cannot name a row: 404 (SPEC "Parent-scoped sub-resources" 7). */
function rowId({ pkCol, table }: ResourceScope, req: HttpRequest): Value {
  const id = pkCol ? parseTextValue(pkCol, req.params.id ?? '') : undefined;
  if (id === undefined || id === null) throw new DomainError('not_found', `${table} not found`);
  return id;
}

/** `/<table>`: list (GET), create (POST, or bulk create with an array), bulk update (PATCH) and bulk delete (DELETE). */
function collectionHandler(scope: ResourceScope): RouteDef['handler'] {
  const { deps, resource, table, collection } = scope;
  return async (req: HttpRequest): Promise<HttpResponse> => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method === 'OPTIONS') return { status: 204, headers: { Allow: collection.join(', ') } };
    if (!collection.includes(method)) return methodNotAllowed(collection);
    if (req.multipart && method !== 'POST') throw notAnUpload(method);
    const { identity, parent } = await admit(scope, req);
    if (method === 'POST') {
      if (req.multipart) return tagged(201, await deps.create.execute(resource, identity, uploaded(scope, req), parent));
      if (Array.isArray(req.body)) {
        if (!resource.config.bulk) throw new DomainError('invalid_input', `bulk writes are not enabled on ${table}`);
        return { status: 201, body: await deps.bulkCreate.execute(resource, identity, req.body, parent) };
      }
      return tagged(201, await deps.create.execute(resource, identity, req.body, parent));
    }
    if (method === 'PATCH') return { status: 200, body: await deps.bulkUpdate.execute(resource, identity, req.body, parent) };
    if (method === 'DELETE') {
      await deps.bulkDelete.execute(resource, identity, req.body, parent);
      return { status: 204 };
    }
    return listPage(scope, req, identity, parent);
  };
}

/** One page of the list, with the URLs of the next and previous pages. */
async function listPage({ deps, resource, visible }: ResourceScope, req: HttpRequest, identity: Identity, parent: ParentScope | undefined): Promise<HttpResponse> {
  const query = parseListQuery(req.query, { registry: deps.registry, model: resource.model, visible });
  const page = await deps.list.execute(resource, identity, query, parent);
  const next = query.offset + query.limit < page.count && query.limit > 0 ? pageUrl(req, query.limit, query.offset + query.limit) : null;
  const previous = query.offset > 0 ? pageUrl(req, query.limit, Math.max(0, query.offset - query.limit)) : null;
  return { status: 200, body: { count: page.count, next, previous, results: page.results } };
}

/**
 * `/<table>/:id`: retrieve (GET, with `include`), update (PUT, PATCH partial) and delete (DELETE).
 * The row answers carry its `ETag`; the writes honour `If-Match` (412 when stale).
 */
function detailHandler(scope: ResourceScope): RouteDef['handler'] {
  const { deps, resource, visible, detail } = scope;
  return async (req: HttpRequest): Promise<HttpResponse> => {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method === 'OPTIONS') return { status: 204, headers: { Allow: detail.join(', ') } };
    if (!detail.includes(method)) return methodNotAllowed(detail);
    if (req.multipart && method !== 'PUT' && method !== 'PATCH') throw notAnUpload(method);
    const id = rowId(scope, req);
    const { identity, parent } = await admit(scope, req);
    if (method === 'GET') {
      const include = req.query.include === undefined ? [] : parseListQuery({ include: req.query.include }, { registry: deps.registry, model: resource.model, visible }).include;
      return tagged(200, await deps.retrieve.execute(resource, identity, id, include, parent));
    }
    const ifMatch = parseIfMatch(req.headers['if-match']);
    if (method === 'DELETE') {
      await deps.remove.execute(resource, identity, id, parent, ifMatch);
      return { status: 204 };
    }
    const body = req.multipart ? uploaded(scope, req) : req.body;
    return tagged(200, await deps.update.execute(resource, identity, id, body, method === 'PATCH', parent, ifMatch));
  };
}

/** A multipart body on a method that takes none (only create, PUT and PATCH upload). */
const notAnUpload = (method: string): DomainError => new DomainError('unsupported_media_type', `${method} takes no multipart/form-data body; send application/json`);

/**
 * The body of an upload, read when the use case asks (after the caller is admitted and allowed):
 * each file streamed into storage under its column's rule, the text fields coerced by their
 * column types. Files kept before a later part or a field fails are removed.
 */
function uploaded({ deps, resource }: ResourceScope, req: HttpRequest): () => Promise<Record<string, unknown>> {
  const { model } = resource;
  return async () => {
    const files = deps.files();
    const form = await req.readMultipart({ fileFields: files.fields(model, (c) => resource.policy.writable(c) && !resource.policy.privileged(c)), onFile: (part) => files.keep(model, part), discard: (kept) => files.discard(kept) });
    return files.writing(form.files, async () => uploadBody(model, form.fields, form.files));
  };
}

/** A custom action's URI: its one method (HEAD for GET) and OPTIONS; a Detail action names a row. */
function actionHandler(scope: ResourceScope, action: ActionDef): RouteDef['handler'] {
  const allow = ['OPTIONS', action.method];
  return async (req: HttpRequest): Promise<HttpResponse> => {
    if (req.method === 'OPTIONS') return { status: 204, headers: { Allow: allow.join(', ') } };
    if (req.method !== action.method && !(req.method === 'HEAD' && action.method === 'GET')) return methodNotAllowed(allow);
    const id = action.scope === 'Detail' ? rowId(scope, req) : undefined;
    const { identity, parent } = await admit(scope, req);
    const result = await scope.deps.runAction.execute(scope.resource, action, {
      identity,
      body: req.body,
      query: req.query,
      ...(id !== undefined && id !== null ? { id } : {}),
      ...(parent ? { parent } : {}),
    });
    return { status: result.status ?? action.status ?? 200, ...(result.body === undefined ? {} : { body: result.body }) };
  };
}
