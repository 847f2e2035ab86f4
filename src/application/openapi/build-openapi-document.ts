import { ANONYMOUS } from '../../domain/auth/identity.js';
import { MAX_INCLUDE_HOPS, RESERVED_LIST_PARAMS } from '../../domain/rest/list-query.js';
import type { PermissionAction, PermissionDecision } from '../../domain/rest/resource-config.js';
import { allowedMethods } from '../../domain/rest/view-scope.js';
import type { RestResource } from '../rest/rest-resource.js';
import type { RestServed } from '../rest/rest-served.js';
import {
  allocateNames,
  inputSchemas,
  json,
  listSchema,
  PROBLEM_SCHEMA,
  readSchema,
  ref,
  scalarSchema,
  SHARED_PARAMETERS,
  type Json,
  type Names,
} from './openapi-schemas.js';


/** The `info` of the document. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
}

/** The OpenAPI 3.1 document `buildOpenApiDocument` produces (plain JSON). */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    parameters: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
};

const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
const TEXT_LOOKUPS = ['contains', 'icontains', 'iexact', 'startswith'];
const LOOKUPS = ['ne', 'gt', 'gte', 'lt', 'lte', 'in', 'isnull'];

/** Error responses by status, each a problem+json document (DESIGN §3 "errors"). */
const ERROR_RESPONSES: Readonly<Record<string, readonly [name: string, description: string]>> = {
  '400': ['BadRequest', 'Invalid input or query (`invalid_input`, `invalid_query`, `malformed_json`, `privileged_field`, constraint violations)'],
  '401': ['Unauthorized', 'Authentication required (`not_authenticated`)'],
  '403': ['Forbidden', 'Refused by the permission class (`forbidden`) or the CSRF check of a session-cookie write (`csrf_failed`)'],
  '404': ['NotFound', 'No such row, or not visible to the caller (`not_found`)'],
  '409': ['Conflict', 'The row is still referenced by other rows (`still_referenced`)'],
  '413': ['PayloadTooLarge', 'The body exceeds the request body limit (`payload_too_large`)'],
  '415': ['UnsupportedMediaType', 'The body is not `application/json` (`unsupported_media_type`)'],
  '429': ['TooManyRequests', 'Throttled (`throttled`); retry after `Retry-After` seconds'],
};

/** What the permission class answers an anonymous caller; a class that throws counts as "needs an identity". */
function anonymousDecision(resource: RestResource, action: PermissionAction): PermissionDecision {
  try {
    return resource.permission.decide(ANONYMOUS, action);
  } catch {
    return 'unauthenticated';
  }
}

/** `?include=`, naming the relations of the table's visible foreign keys. */
function includeParameter(resource: RestResource): Json {
  const relations = resource.model.columns.flatMap((c) => (c.references && resource.policy.readable(c.name) ? [c.references.relation] : []));
  const list = relations.length > 0 ? ` (here: ${relations.join(', ')})` : ' (this table has none)';
  return {
    name: 'include',
    in: 'query',
    description: `Comma-separated relations to hydrate, dotted paths up to ${MAX_INCLUDE_HOPS} hops${list}`,
    schema: { type: 'string' },
  };
}

function filterParameters(resource: RestResource): Json[] {
  const reserved = new Set(RESERVED_LIST_PARAMS);
  return resource.model.columns
    .filter((c) => resource.policy.readable(c.name) && c.type !== 'json' && !reserved.has(c.name))
    .map((c) => {
      const lookups = c.type === 'text' || c.type === 'string' ? [...LOOKUPS, ...TEXT_LOOKUPS] : LOOKUPS;
      return {
        name: c.name,
        in: 'query',
        description: `Equals. Lookups: ${lookups.map((l) => `\`${c.name}__${l}\``).join(', ')} (\`in\` is comma separated)`,
        schema: scalarSchema(c.type),
      };
    });
}

interface OperationSpec {
  readonly id: string;
  readonly summary: string;
  readonly action: PermissionAction;
  readonly parameters?: readonly Json[];
  readonly body?: string;
  readonly success: readonly [status: string, response: Json];
  readonly errors: readonly string[];
}

function operation(resource: RestResource, spec: OperationSpec): Json {
  const anonymous = anonymousDecision(resource, spec.action);
  const unsafe = spec.action !== 'read';
  const statuses = new Set(spec.errors);
  if (anonymous === 'unauthenticated') statuses.add('401');
  if (anonymous !== 'allow' || unsafe) statuses.add('403');
  if (resource.config.throttle) statuses.add('429');
  const responses: Json = { [spec.success[0]]: spec.success[1] };
  for (const status of [...statuses].sort()) {
    const entry = ERROR_RESPONSES[status];
    if (entry) responses[status] = ref('responses', entry[0]);
  }
  const identified = [{ bearerAuth: [] }, { sessionCookie: [] }];
  return {
    operationId: spec.id,
    summary: spec.summary,
    tags: [resource.model.table],
    ...(spec.parameters && spec.parameters.length > 0 ? { parameters: spec.parameters } : {}),
    ...(spec.body ? { requestBody: { required: true, content: json(ref('schemas', spec.body)) } } : {}),
    responses,
    security: anonymous === 'allow' ? [{}, ...identified] : identified,
  };
}

function resourcePaths(resource: RestResource, names: Names, served: RestServed): Record<string, Json> {
  const table = resource.model.table;
  const collection = allowedMethods(resource.actions, 'collection');
  const detail = allowedMethods(resource.actions, 'detail');
  const include = includeParameter(resource);
  const row = (description: string) => ({ description, content: json(ref('schemas', names.read)) });
  const paths: Record<string, Json> = {};

  const coll: Json = {};
  if (collection.includes('GET')) {
    const parameters = [...['limit', 'offset', 'ordering', 'search'].map((p) => ref('parameters', p)), include, ref('parameters', 'fields'), ...filterParameters(resource)];
    coll.get = operation(resource, { id: `list${names.base}`, summary: `List ${table} rows`, action: 'read', parameters, success: ['200', { description: 'A page of rows', content: json(ref('schemas', names.list)) }], errors: ['400'] });
  }
  if (collection.includes('POST')) {
    coll.post = operation(resource, { id: `create${names.base}`, summary: `Create one ${table} row`, action: 'add', body: names.input, success: ['201', row('The created row')], errors: ['400', '413', '415'] });
  }
  if (resource.config.bulk && resource.actions.has('Update')) {
    coll.patch = operation(resource, {
      id: `bulkUpdate${names.base}`,
      summary: `Change several ${table} rows (each item carries its key); all or nothing`,
      action: 'change',
      body: names.patch,
      success: ['200', { description: 'The updated rows', content: json({ type: 'array', items: ref('schemas', names.read) }) }],
      errors: ['400', '404', '413', '415'],
    });
    (coll.patch as Record<string, Json>).requestBody = { required: true, content: json({ type: 'array', maxItems: 1000, items: ref('schemas', names.patch) }) };
  }
  if (resource.config.bulk && resource.actions.has('Delete')) {
    coll.delete = operation(resource, { id: `bulkDelete${names.base}`, summary: `Delete several ${table} rows; all or nothing`, action: 'delete', success: ['204', { description: 'Deleted' }], errors: ['400', '404', '413', '415'] });
    (coll.delete as Record<string, Json>).requestBody = {
      required: true,
      content: json({ type: 'object', required: ['ids'], properties: { ids: { type: 'array', maxItems: 1000, items: {} } } }),
    };
  }
  if (resource.config.bulk && coll.post) {
    (coll.post as Record<string, Json>).requestBody = {
      required: true,
      content: json({ oneOf: [ref('schemas', names.input), { type: 'array', maxItems: 1000, items: ref('schemas', names.input) }] }),
    };
  }
  const under = resource.config.under;
  const base = under ? `${served.prefix}/${under.parent}/{parent_id}/${table}` : `${served.prefix}/${table}`;
  const parentParam = under ? [{ name: 'parent_id', in: 'path', required: true, description: `The ${under.parent} key`, schema: { type: 'string' } }] : [];
  if (Object.keys(coll).length > 0) paths[`${base}/`] = parentParam.length > 0 ? { parameters: parentParam, ...coll } : coll;

  const pk = resource.model.columns.find((c) => c.name === resource.model.primaryKey);
  const det: Json = {};
  if (detail.includes('GET')) {
    det.get = operation(resource, { id: `retrieve${names.base}`, summary: `Retrieve one ${table} row`, action: 'read', parameters: [include], success: ['200', row('The row')], errors: ['400', '404'] });
  }
  if (detail.includes('PUT')) {
    det.put = operation(resource, { id: `update${names.base}`, summary: `Replace one ${table} row`, action: 'change', body: names.input, success: ['200', row('The updated row')], errors: ['400', '404', '413', '415'] });
  }
  if (detail.includes('PATCH')) {
    det.patch = operation(resource, { id: `partialUpdate${names.base}`, summary: `Change some columns of one ${table} row`, action: 'change', body: names.patch, success: ['200', row('The updated row')], errors: ['400', '404', '413', '415'] });
  }
  if (detail.includes('DELETE')) {
    det.delete = operation(resource, { id: `delete${names.base}`, summary: `Delete one ${table} row`, action: 'delete', success: ['204', { description: 'Deleted' }], errors: ['404', '409'] });
  }
  if (Object.keys(det).length > 0) {
    const id = { name: 'id', in: 'path', required: true, description: 'The primary key', schema: pk ? scalarSchema(pk.type) : { type: 'string' } };
    paths[`${base}/{id}`] = { parameters: [...parentParam, id], ...det };
  }
  // SPEC "Custom actions and their schemas" 4: every action is published, input as the requestBody, output as the 200.
  for (const action of resource.config.actions ?? []) {
    const idParam = { name: 'id', in: 'path', required: true, description: 'The primary key', schema: pk ? scalarSchema(pk.type) : { type: 'string' } };
    const path = action.scope === 'Detail' ? `${base}/{id}/${action.name}/` : `${base}/${action.name}/`;
    const safe = action.method === 'GET';
    const op = operation(action.permission ? { ...resource, permission: action.permission } : resource, {
      id: `${action.name}${names.base}`,
      summary: action.summary ?? `${action.name} (${action.scope === 'Detail' ? 'one row' : 'collection'} action)`,
      action: safe ? 'read' : action.scope === 'Detail' ? 'change' : 'add',
      success: ['200', { description: 'The action result', ...(action.output ? { content: json(action.output as Json) } : {}) }],
      errors: action.scope === 'Detail' ? ['400', '404'] : ['400'],
    });
    if (action.input) (op as Record<string, Json>).requestBody = { required: true, content: json(action.input as Json) };
    const params = [...parentParam, ...(action.scope === 'Detail' ? [idParam] : [])];
    paths[path] = { ...(params.length > 0 ? { parameters: params } : {}), [action.method.toLowerCase()]: op };
  }
  return paths;
}

/**
 * Builds the OpenAPI 3.1.0 document of what the REST layer serves (DESIGN §3 "OpenAPI"):
 * per served table the collection `<prefix>/<table>/` (list, create) and the detail
 * `<prefix>/<table>/{id}` (retrieve, replace, change, delete), keeping only the operations the
 * resource's views keep (SPEC "View scope" 5; a path left with no operation is omitted).
 * Schemas per table: `<Table>` (readable columns: hidden columns and `password_hash` never
 * appear), `<Table>Input` (writable, non-privileged columns; `required` as a PUT requires),
 * `<Table>Patch` (the same, nothing required), `<Table>List` (the list envelope), plus the
 * shared RFC 9457 `Problem` every error response carries as `application/problem+json`.
 * Pure: the same input gives the same document.
 *
 * @example
 * const doc = buildOpenApiDocument(served, { title: 'Shop API', version: '1.0.0' });
 * doc.paths['/api/order_item/']?.get; // { operationId: 'listOrderItem', ... }
 */
export function buildOpenApiDocument(served: RestServed, info: OpenApiInfo): OpenApiDocument {
  const names = allocateNames(served.resources);
  const schemas: Record<string, Json> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  for (const resource of served.resources) {
    const n = names.get(resource) as Names;
    const { input, patch } = inputSchemas(resource);
    schemas[n.read] = readSchema(resource);
    schemas[n.input] = input;
    schemas[n.patch] = patch;
    schemas[n.list] = listSchema(n.read);
    Object.assign(paths, resourcePaths(resource, n, served));
  }
  schemas.Problem = PROBLEM_SCHEMA;
  const responses = Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(([name, description]) => [
      name,
      name === 'TooManyRequests'
        ? { description, headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } }, content: PROBLEM }
        : { description, content: PROBLEM },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    tags: served.resources.map((r) => ({ name: r.model.table, description: `The ${r.model.table} table` })),
    paths,
    components: {
      schemas,
      responses,
      parameters: SHARED_PARAMETERS,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A token issued by the JSON login, sent as `Authorization: Bearer <token>`' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'portico_session', description: 'The session of a form login; unsafe requests also need the `X-CSRF-Token` header' },
      },
    },
  };
}
export { typeNameOf } from './openapi-schemas.js';
