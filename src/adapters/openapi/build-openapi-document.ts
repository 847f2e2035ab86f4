import { MAX_INCLUDE_HOPS, RESERVED_LIST_PARAMS } from '../../domain/rest/list-query.js';
import { allowedMethods } from '../../domain/rest/view-scope.js';
import type { RestResource } from '../../application/rest/rest-resource.js';
import type { RestServed } from '../../application/rest/rest-served.js';
import { batch, bulkDeleteBody, WriteSchemas, type WriteBodies } from './openapi-inputs.js';
import { errorResponseComponents, etagHeader, IF_MATCH, operation, type Gate } from './openapi-operations.js';
import { allocateNames, FILE_SCHEMA, inputScalarSchema, json, keySchema, listSchema, PROBLEM_SCHEMA, readSchema, ref, reserveName, SHARED_PARAMETERS, typeNameOf, type Json, type Names } from './openapi-schemas.js';

/** The `info` of the document. */
export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  /** `info.description` (the plugin supplies a default; see {@link DEFAULT_API_DESCRIPTION}). */
  readonly description?: string;
  /** `info.contact`: who answers for the API (application-specific, so no default). */
  readonly contact?: { readonly name?: string; readonly url?: string; readonly email?: string };
}

/** The OpenAPI 3.1 document `buildOpenApiDocument` produces (plain JSON). */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string; contact?: Json };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, Json>;
    responses: Record<string, Json>;
    parameters: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
};

const TEXT_LOOKUPS = ['contains', 'icontains', 'iexact', 'startswith'];
const LOOKUPS = ['ne', 'gt', 'gte', 'lt', 'lte', 'in', 'isnull'];
/** The `info.description` the OpenAPI plugin publishes unless the application gives its own. */
export const DEFAULT_API_DESCRIPTION =
  'The REST API of a Portico application. Lists answer `{count, next, previous, results}`; errors are RFC 9457 `application/problem+json` documents with a stable `code`; ' +
  'writes take `application/json` bodies and refuse unknown fields.';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A comma list of items matching `item`. */
const commaList = (item: string) => `^${item}(?:,${item})*$`;
const alternatives = (names: readonly string[]) => `(?:${names.map(escapeRe).join('|')})`;

function visibleColumns(resource: RestResource) {
  return resource.model.columns.filter((c) => resource.policy.readable(c.name));
}


/**
 * Every path `?include=` accepts from `resource`: each visible foreign key followed by up to
 * MAX_INCLUDE_HOPS - 1 more of its target's, and a visible many-to-many relation as the last hop.
 */
function includePaths(resource: RestResource, served: RestServed): string[] {
  const out: string[] = [];
  // The REST layer's rule (`parseIncludePath`): what the field policy of each table lets a caller see.
  const readable = (table: string, name: string) => (table === resource.model.table ? resource : served.resourceOf(table)).policy.readable(name);
  const walk = (model: RestResource['model'], prefix: string, hops: number): void => {
    for (const col of model.columns) {
      if (!col.references || col.hidden || col.name === 'password_hash' || !readable(model.table, col.name)) continue;
      const path = `${prefix}${col.references.relation}`;
      out.push(path);
      if (hops + 1 < MAX_INCLUDE_HOPS) walk(served.resourceOf(col.references.table).model, `${path}.`, hops + 1);
    }
    for (const rel of model.manyToMany) if (readable(model.table, rel.name)) out.push(`${prefix}${rel.name}`);
  };
  walk(resource.model, '', 0);
  return out;
}

/**
 * `?include=`: a comma list of the paths the server accepts, each one named (`includePaths`); a
 * table with none has no `include` parameter (any value would answer 400).
 */
function includeParameter(resource: RestResource, served: RestServed): Json | undefined {
  const paths = includePaths(resource, served);
  if (paths.length === 0) return undefined;
  return {
    name: 'include',
    in: 'query',
    description: `Comma-separated relations to hydrate, dotted paths up to ${MAX_INCLUDE_HOPS} hops; a many-to-many relation (last hop only) adds the array of linked keys. Here: ${paths.join(', ')}`,
    schema: { type: 'string', pattern: commaList(alternatives(paths)) },
    'x-portico-items': paths,
  };
}

/**
 * `?ordering=`: visible columns, each at most once (a negative lookahead refuses a name given
 * twice, as the server does), `-` for descending.
 */
function orderingParameter(resource: RestResource): Json {
  const names = visibleColumns(resource).filter((c) => c.type !== 'json').map((c) => c.name);
  const name = alternatives(names);
  const twice = `(?!(?:.*,)?-?(${names.map(escapeRe).join('|')})(?:,.*)?,-?\\1(?:,|$))`;
  return {
    name: 'ordering',
    in: 'query',
    description: 'Comma-separated visible columns, each at most once, `-` for descending (`-a,b`); default the primary key',
    schema: { type: 'string', pattern: `^${twice}${commaList(`-?${name}`).slice(1)}` },
    'x-portico-items': names,
  };
}

function fieldsParameter(resource: RestResource): Json {
  const names = visibleColumns(resource).map((c) => c.name);
  return { name: 'fields', in: 'query', description: 'Comma-separated visible columns to return', schema: { type: 'string', pattern: commaList(alternatives(names)) }, 'x-portico-items': names };
}

function filterParameters(resource: RestResource): Json[] {
  const reserved = new Set(RESERVED_LIST_PARAMS);
  return visibleColumns(resource)
    .filter((c) => c.type !== 'json' && !reserved.has(c.name))
    .map((c) => {
      const lookups = c.type === 'text' || c.type === 'string' ? [...LOOKUPS, ...TEXT_LOOKUPS] : LOOKUPS;
      return {
        name: c.name,
        in: 'query',
        description: `Equals. Lookups: ${lookups.map((l) => `\`${c.name}__${l}\``).join(', ')} (\`in\` is comma separated)`,
        schema: inputScalarSchema(c.type),
        'x-portico-lookups': lookups,
      };
    });
}

const pkOf = (resource: RestResource) => resource.model.columns.find((c) => c.name === resource.model.primaryKey);

/** The texts shared by several operations of one resource. */
function notes(resource: RestResource, served: RestServed) {
  const under = resource.config.under;
  const nestedKeys = resource.config.nested?.map((n) => `\`${n.key}\``) ?? [];
  const serverSet = Object.keys(resource.model.setOnCreate);
  const links = resource.model.manyToMany.filter((rel) => resource.policy.writable(rel.name)).map((rel) => `\`${rel.name}\``);
  return {
    under: under ? ` Scoped to the ${under.parent} named by \`parent_id\`: a missing parent answers 404.` : '',
    fkFromUrl: under ? ` \`${under.fk}\` comes from the URL; a body naming it answers 400.` : '',
    nested:
      (!under && nestedKeys.length > 0 ? ` Arrays under ${nestedKeys.join(', ')} write child rows in the same transaction (SPEC "Nested writes").` : '') +
      (!under && links.length > 0 ? ` An array of keys under ${links.join(', ')} replaces the row's many-to-many links in the same transaction and is echoed in the answer.` : ''),
    policy:
      ` Unknown fields answer 400 \`invalid_input\` and privileged ones 400 \`privileged_field\`; generated keys, computed, hidden and noform columns are not accepted` +
      (serverSet.length > 0 ? `, nor the server-set ${serverSet.map((c) => `\`${c}\``).join(', ')}.` : '.'),
    softDelete: resource.model.softDelete ? ' The row is soft-deleted: `deleted_at` is stamped and it leaves the live API.' : '',
    /** The permission checks of the nested children a write may carry, at every level. */
    nestedGates: (actions: readonly Gate[1][]): Gate[] => (under ? [] : nestedTables(resource, served).flatMap((child) => actions.map((a): Gate => [child, a]))),
  };
}

/** The resources a nested write of `resource` can reach (children, their children, ...; SPEC "Nested writes" 3). */
function nestedTables(resource: RestResource, served: RestServed): RestResource[] {
  const seen = new Set<string>([resource.model.table]);
  const out: RestResource[] = [];
  const queue = [resource];
  for (let r = queue.shift(); r; r = queue.shift()) {
    for (const decl of r.config.nested ?? []) {
      if (seen.has(decl.table)) continue;
      seen.add(decl.table);
      const child = served.resourceOf(decl.table);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** What the operations of one resource share: its names, bodies, notes, path and parameters. */
interface PathContext {
  readonly resource: RestResource;
  readonly names: Names;
  readonly bodies: WriteBodies;
  readonly n: ReturnType<typeof notes>;
  /** The `include` parameter, when the table has relations to include. */
  readonly include: Json | undefined;
  readonly scoped: readonly string[];
  readonly base: string;
  readonly parentParam: readonly Json[];
  readonly idParam: Json;
  readonly row: (description: string) => Json;
  readonly rows: (description: string) => Json;
}

function resourcePaths(resource: RestResource, names: Names, bodies: WriteBodies, served: RestServed): Record<string, Json> {
  const table = resource.model.table;
  const under = resource.config.under;
  const ctx: PathContext = {
    resource,
    names,
    bodies,
    n: notes(resource, served),
    include: includeParameter(resource, served),
    scoped: under ? ['404'] : [],
    base: under ? `${served.prefix}/${under.parent}/{parent_id}/${table}` : `${served.prefix}/${table}`,
    parentParam: under ? [{ name: 'parent_id', in: 'path', required: true, description: `The key of the ${under.parent} row`, schema: keySchema(pkOf(served.resourceOf(under.parent))) }] : [],
    idParam: { name: 'id', in: 'path', required: true, description: `The key of the ${table} row`, schema: keySchema(pkOf(resource)) },
    row: (description) => ({ description, headers: etagHeader(true), content: json(ref('schemas', names.read)) }),
    rows: (description) => ({ description, content: json({ type: 'array', items: ref('schemas', names.read) }) }),
  };
  const paths: Record<string, Json> = {};
  const coll = { ...listAndCreate(ctx), ...bulkChanges(ctx) };
  if (Object.keys(coll).length > 0) paths[ctx.base] = ctx.parentParam.length > 0 ? { parameters: ctx.parentParam, ...coll } : coll;
  // In the order get, put, patch, delete.
  const { get, delete: del } = detailReads(ctx);
  const det = { ...(get ? { get } : {}), ...detailWrites(ctx), ...(del ? { delete: del } : {}) };
  if (Object.keys(det).length > 0) paths[`${ctx.base}/{id}`] = { parameters: [...ctx.parentParam, ctx.idParam], ...det };
  return { ...paths, ...actionPaths(ctx) };
}

/** GET (list) and POST (create, or a batch with bulk) on the collection. */
function listAndCreate({ resource, names, bodies, n, include, scoped, row }: PathContext): Json {
  const table = resource.model.table;
  const collection = allowedMethods(resource.actions, 'collection');
  const coll: Json = {};
  if (collection.includes('GET')) {
    const parameters = [ref('parameters', 'limit'), ref('parameters', 'offset'), orderingParameter(resource), ref('parameters', 'search'), ...(include ? [include] : []), fieldsParameter(resource), ...filterParameters(resource)];
    coll.get = operation(resource, {
      id: `list${names.base}`,
      summary: `List ${table} rows`,
      description: `Answers a page of the ${table} rows the caller may see as \`{count, next, previous, results}\`. Filter with \`?<column>=value\` or \`?<column>__<lookup>=value\`; an unknown, hidden or uncoercible parameter answers 400 \`invalid_query\`.${n.under}`,
      gates: [[resource, 'read']],
      parameters,
      success: ['200', { description: 'A page of rows', content: json(ref('schemas', names.list)) }],
      errors: ['400', ...scoped],
    });
  }
  const bulk = resource.config.bulk === true;
  if (collection.includes('POST')) {
    coll.post = operation(resource, {
      id: `create${names.base}`,
      summary: bulk ? `Create one or several ${table} rows` : `Create one ${table} row`,
      description:
        `Creates a row from a JSON object and answers it with 201.${n.policy}${n.fkFromUrl}${n.nested}` +
        (bulk ? ` A JSON array of 1 to 1000 items creates them all in one transaction and answers the created rows as an array; a failing item rolls the batch back and is named by its index${resource.model.manyToMany.length > 0 ? ' (batch items carry no many-to-many links)' : ''}.` : ''),
      gates: [[resource, 'add'], ...n.nestedGates(['add'])],
      body: bulk ? { oneOf: [bodies.create, batch(bodies.bulkItem)] } : bodies.create,
      ...(bodies.uploads ? { upload: bodies.uploads.create } : {}),
      success: [
        '201',
        bulk
          ? { description: 'The created row (with its `ETag`), or the created rows of a batch', headers: etagHeader(false), content: json({ oneOf: [ref('schemas', names.read), { type: 'array', items: ref('schemas', names.read) }] }) }
          : row('The created row'),
      ],
      errors: scoped,
    });
  }
  return coll;
}

/** PATCH and DELETE of several rows on the collection (bulk resources). */
function bulkChanges({ resource, names, bodies, n, rows }: PathContext): Json {
  const table = resource.model.table;
  const coll: Json = {};
  if (resource.config.bulk !== true) return coll;
  if (resource.actions.has('Update')) {
    coll.patch = operation(resource, {
      id: `bulkUpdate${names.base}`,
      summary: `Change several ${table} rows`,
      description: `Each item names a row by its key (\`${resource.model.primaryKey}\`) plus the columns to change, and optionally the version it changes (\`_version\`: the row's ETag); one transaction, all or nothing. An item without its key answers 400, an unknown or out-of-scope key 404, a stale \`_version\` 412, each naming the item's index.${n.policy}${n.under}`,
      gates: [[resource, 'change']],
      body: batch(bodies.bulkPatchItem),
      success: ['200', rows('The updated rows, in the order of the items')],
      errors: ['404', '412'],
    });
  }
  if (resource.actions.has('Delete')) {
    coll.delete = operation(resource, {
      id: `bulkDelete${names.base}`,
      summary: `Delete several ${table} rows`,
      description: `Deletes the rows whose keys are in \`ids\` in one transaction, all or nothing: an unknown or repeated key answers 404 naming its index, a row still referenced 409.${n.softDelete}${n.under}`,
      gates: [[resource, 'delete']],
      body: bulkDeleteBody(resource),
      success: ['204', { description: 'Deleted' }],
      errors: ['404', '409'],
    });
  }
  return coll;
}

/** GET and DELETE of one row. */
function detailReads({ resource, names, n, include, row }: PathContext): Json {
  const table = resource.model.table;
  const detail = allowedMethods(resource.actions, 'detail');
  const det: Json = {};
  if (detail.includes('GET')) {
    det.get = operation(resource, {
      id: `retrieve${names.base}`,
      summary: `Retrieve one ${table} row`,
      description: `Answers the row; \`?include=\` hydrates foreign keys and lists the keys linked through many-to-many relations (an unknown relation answers 400). A key that names no visible row, or cannot be a key, answers 404.${n.under}`,
      gates: [[resource, 'read']],
      ...(include ? { parameters: [include] } : {}),
      success: ['200', row('The row')],
      errors: ['400', '404'],
    });
  }
  if (detail.includes('DELETE')) {
    det.delete = operation(resource, {
      id: `delete${names.base}`,
      summary: `Delete one ${table} row`,
      description: `Deletes the row and answers 204; a row still referenced by other rows answers 409. With \`If-Match\`, only the version it names (else 412).${n.softDelete}${n.under}`,
      gates: [[resource, 'delete']],
      parameters: [IF_MATCH],
      success: ['204', { description: 'Deleted' }],
      errors: ['404', '409', '412'],
    });
  }
  return det;
}

/** PUT and PATCH of one row. */
function detailWrites({ resource, names, bodies, n, row }: PathContext): Json {
  const table = resource.model.table;
  const detail = allowedMethods(resource.actions, 'detail');
  const det: Json = {};
  const keyFromUrl = 'The key comes from the URL: a different key in the body answers 400.';
  const ifMatchNote = ' With `If-Match`, only the version it names is changed (else 412, nothing written).';
  if (detail.includes('PUT')) {
    det.put = operation(resource, {
      id: `update${names.base}`,
      summary: `Replace one ${table} row`,
      description: `Replaces the writable columns: every required one must be present (400 listing the missing ones). Answers the re-read row. ${keyFromUrl}${ifMatchNote}${n.policy}${n.fkFromUrl}${n.nested}${n.under}`,
      gates: [[resource, 'change'], ...n.nestedGates(['add', 'change'])],
      parameters: [IF_MATCH],
      body: bodies.replace,
      ...(bodies.uploads ? { upload: bodies.uploads.replace } : {}),
      success: ['200', row('The updated row')],
      errors: ['404', '412'],
    });
  }
  if (detail.includes('PATCH')) {
    det.patch = operation(resource, {
      id: `partialUpdate${names.base}`,
      summary: `Change some columns of one ${table} row`,
      description: `Changes only the columns named and answers the re-read row. ${keyFromUrl}${ifMatchNote}${n.policy}${n.fkFromUrl}${n.nested}${n.under}`,
      gates: [[resource, 'change'], ...n.nestedGates(['add', 'change'])],
      parameters: [IF_MATCH],
      body: bodies.patch,
      ...(bodies.uploads ? { upload: bodies.uploads.patch } : {}),
      success: ['200', row('The updated row')],
      errors: ['404', '412'],
    });
  }
  return det;
}

/** SPEC "Custom actions and their schemas" 4: every action is published, input as the requestBody, output as the 200. */
function actionPaths({ resource, names, n, scoped, base, parentParam, idParam }: PathContext): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const action of resource.config.actions ?? []) {
    const detail = action.scope === 'Detail';
    const gated = action.permission ? { ...resource, permission: action.permission } : resource;
    const kind = action.method === 'GET' ? 'read' : detail ? 'change' : 'add';
    const op = operation(gated, {
      id: `${action.name}${names.base}`,
      summary: action.summary ?? `${action.name} (${detail ? 'one row' : 'collection'} action)`,
      description:
        `Custom ${detail ? 'detail' : 'list'} action \`${action.name}\` of ${resource.model.table}.` +
        (action.input ? ' The body is checked against the input schema before the handler runs (400 naming the offending field).' : '') +
        (detail ? ' A key that names no visible row answers 404.' : '') +
        n.under,
      gates: [[gated, kind]],
      ...(action.input ? { body: action.input as Json } : {}),
      success: [String(action.status ?? 200), { description: 'The action result', ...(action.output && action.status !== 204 ? { content: json(action.output as Json) } : {}) }],
      errors: ['400', ...(detail ? ['404'] : scoped)],
    });
    const params = [...parentParam, ...(detail ? [idParam] : [])];
    paths[detail ? `${base}/{id}/${action.name}` : `${base}/${action.name}`] = { ...(params.length > 0 ? { parameters: params } : {}), [action.method.toLowerCase()]: op };
  }
  return paths;
}

/** Keeps the components some path reaches (transitively), so the document carries no unused component. */
function reachable(paths: Json, components: Record<string, Record<string, Json>>): Set<string> {
  const seen = new Set<string>();
  const queue: unknown[] = [paths];
  while (queue.length > 0) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...(node as unknown[]));
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/') && !seen.has(value)) {
          seen.add(value);
          const [, , kind, name] = value.split('/');
          queue.push(components[kind as string]?.[name as string]);
        } else queue.push(value);
      }
    }
  }
  return seen;
}

const only = (all: Record<string, Json>, kind: string, used: Set<string>) => Object.fromEntries(Object.entries(all).filter(([name]) => used.has(`#/components/${kind}/${name}`)));

/**
 * Builds the OpenAPI 3.1.0 document of what the REST layer serves (DESIGN §3 "OpenAPI"):
 * per served table the collection `<prefix>/<table>` (list, create, bulk PATCH/DELETE) and the
 * detail `<prefix>/<table>/{id}` (retrieve, replace, change, delete), under the parent for an
 * `under()` resource, keeping only the operations the resource's views keep (SPEC "View scope"
 * 5; a path left with no operation is omitted). The paths carry no trailing slash; the server
 * answers both forms. Schemas per table: `<Table>` (readable columns: hidden columns and
 * `password_hash` never appear), `<Table>Input` (a create body), `<Table>Replace` (a PUT body,
 * where it differs), `<Table>Patch`, `<Table>BulkItem`/`<Table>BulkPatchItem` (bulk items),
 * `<Parent><Key>Item[Update]` (nested children), `<Table>List` (the list envelope), plus the
 * shared RFC 9457 `Problem` every error response carries as `application/problem+json`. Only
 * components some operation uses are kept. Pure: the same input gives the same document.
 *
 * @example
 * const doc = buildOpenApiDocument(served, { title: 'Shop API', version: '1.0.0' });
 * doc.paths['/api/order_item']?.get; // { operationId: 'listOrderItem', ... }
 */
export function buildOpenApiDocument(served: RestServed, info: OpenApiInfo): OpenApiDocument {
  const taken = new Set(['Problem', 'StoredFile']);
  const names = allocateNames(served.resources, taken);
  const schemas: Record<string, Json> = {};
  const writes = new WriteSchemas(served, schemas, taken);
  const paths: Record<string, Json> = {};
  const keyOf = (table: string) => pkOf(served.resourceOf(table));
  // The row schema of each table an include reaches: a served table's, else one of its own (its default field policy).
  const rowNames = new Map<string, string>();
  for (const resource of served.resources) if (!rowNames.has(resource.model.table)) rowNames.set(resource.model.table, (names.get(resource) as Names).read);
  const rowOf = (table: string): string => {
    let name = rowNames.get(table);
    if (name === undefined) {
      name = reserveName(taken, typeNameOf(table) || 'Row');
      rowNames.set(table, name);
      schemas[name] = readSchema(served.resourceOf(table), keyOf, rowOf);
    }
    return name;
  };
  for (const resource of served.resources) {
    const n = names.get(resource) as Names;
    schemas[n.read] = readSchema(resource, keyOf, rowOf);
    schemas[n.list] = listSchema(n.read);
    Object.assign(paths, resourcePaths(resource, n, writes.forResource(resource, n), served));
  }
  schemas.Problem = PROBLEM_SCHEMA;
  if (JSON.stringify(schemas).includes('"#/components/schemas/StoredFile"')) schemas.StoredFile = FILE_SCHEMA;
  const components = { schemas, responses: errorResponseComponents(), parameters: SHARED_PARAMETERS };
  const used = reachable(paths, components);
  const tagged = new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => ((op as { tags?: string[] }).tags ?? []))));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}), ...(info.contact ? { contact: { ...info.contact } } : {}) },
    servers: [{ url: '/', description: 'The server this document is served from' }],
    tags: served.resources.filter((r) => tagged.has(r.model.table)).map((r) => ({ name: r.model.table, description: `The ${r.model.table} table` })),
    paths: paths as Record<string, Record<string, unknown>>,
    components: {
      schemas: only(schemas, 'schemas', used),
      responses: only(components.responses, 'responses', used),
      parameters: only(SHARED_PARAMETERS, 'parameters', used),
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A token issued by the JSON login, sent as `Authorization: Bearer <token>`' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'portico_session', description: 'The session of a form login; unsafe requests also need the `X-CSRF-Token` header' },
      },
    },
  };
}
export { typeNameOf } from './openapi-schemas.js';
