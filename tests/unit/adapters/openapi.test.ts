import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, typeNameOf, type OpenApiDocument } from '../../../src/adapters/openapi/build-openapi-document.js';
import { restResource, type RestResource } from '../../../src/application/rest/rest-resource.js';
import type { RestServed } from '../../../src/application/rest/rest-served.js';
import { c, defineModel } from '../../../src/domain/model/index.js';
import { ModelRegistry } from '../../../src/domain/model/model-registry.js';
import { AllowAny, IsAuthenticated, IsStaff } from '../../../src/domain/rest/permission-classes.js';
import type { ResourceConfig } from '../../../src/application/rest/resource-config.js';

/*
 * The OpenAPI document of a small served set (DESIGN §3 "OpenAPI"; SPEC "View scope" 5).
 */

const registry = ModelRegistry.build([
  defineModel('author', {
    id: c.id(),
    name: c.text(),
    bio: c.text().nullable(),
    secret_note: c.text().nullable(),
    password_hash: c.text().nullable(),
    hidden_memo: c.text().nullable().hidden(),
    is_staff: c.bool().default(false),
    featured: c.bool().default(false).privileged(),
    born: c.date().nullable(),
    created_at: c.timestamp().defaultNow(),
  }),
  defineModel('order_item', {
    id: c.id(),
    author_id: c.fk('author'),
    sku: c.string(),
    qty: c.int(),
    big: c.bigint().nullable(),
    price: c.decimal(),
    weight: c.float().nullable(),
    meta: c.json().nullable(),
    ref: c.uuid().nullable(),
    note: c.text().noform().nullable(),
  }),
  defineModel('ticket', { id: c.uuidId(), title: c.text() }),
  defineModel('list_only', { id: c.id(), name: c.text() }),
  defineModel('tag', { id: c.stringId(), label: c.text() }),
  defineModel('report', { id: c.id(), title: c.text() }),
]);

const CONFIGS: ResourceConfig[] = [
  { table: 'author', permission: AllowAny, hide: ['secret_note'] },
  { table: 'order_item', permission: IsAuthenticated, throttle: '10/min' },
  { table: 'ticket', permission: AllowAny, views: ['List', 'Retrieve'] },
  { table: 'list_only', permission: AllowAny, views: ['List'] },
  { table: 'tag', permission: AllowAny, views: ['Create', 'Update'] },
  { table: 'report', permission: IsStaff },
];

function served(configs: readonly ResourceConfig[] = CONFIGS, prefix = '/api'): RestServed {
  const resources = configs.map((cfg) => restResource(registry.require(cfg.table), cfg));
  const byTable = new Map(resources.map((r) => [r.model.table, r]));
  return { prefix, resources, resourceOf: (t: string) => byTable.get(t) ?? (restResource(registry.require(t), undefined) as RestResource) };
}

const doc: OpenApiDocument = buildOpenApiDocument(served(), { title: 'Test API', version: '9.9.9' });
type Schema = { type?: unknown; properties?: Record<string, Record<string, unknown>>; required?: string[] };
const schema = (name: string) => doc.components.schemas[name] as Schema;
const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).filter((k) => k !== 'parameters');
type Op = { operationId: string; parameters?: { name?: string; $ref?: string; in?: string }[]; responses: Record<string, unknown>; security: unknown[]; requestBody?: unknown };
const op = (path: string, method: string) => (doc.paths[path] as Record<string, Op>)[method] as Op;

describe('buildOpenApiDocument: document shell', () => {
  it('is OpenAPI 3.1.0 with the given info, bearer and cookie security schemes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: 'Test API', version: '9.9.9' });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'portico_session' });
  });

  it('every $ref resolves inside the document', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) {
      const target = r.split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect(target, r).toBeDefined();
    }
  });

  it('is pure: the same input gives the same document', () => {
    expect(buildOpenApiDocument(served(), { title: 'Test API', version: '9.9.9' })).toEqual(doc);
  });
});

describe('buildOpenApiDocument: views omit operations (SPEC "View scope" 5)', () => {
  it('a resource with every view has list, create, retrieve, put, patch, delete', () => {
    expect(methods('/api/author')).toEqual(['get', 'post']);
    expect(methods('/api/author/{id}')).toEqual(['get', 'put', 'patch', 'delete']);
  });

  it('a list+retrieve resource has only get operations', () => {
    expect(methods('/api/ticket')).toEqual(['get']);
    expect(methods('/api/ticket/{id}')).toEqual(['get']);
  });

  it('a path left with no operation is omitted', () => {
    expect(methods('/api/list_only')).toEqual(['get']);
    expect(doc.paths['/api/list_only/{id}']).toBeUndefined();
    expect(methods('/api/tag')).toEqual(['post']);
    expect(methods('/api/tag/{id}')).toEqual(['put', 'patch']);
  });

  it('follows the REST prefix, including the bare root', () => {
    const bare = buildOpenApiDocument(served(CONFIGS, ''), { title: 't', version: '1' });
    expect(Object.keys(bare.paths)).toContain('/author');
    expect(Object.keys(bare.paths).every((p) => !p.startsWith('/api'))).toBe(true);
  });
});

describe('buildOpenApiDocument: field policy', () => {
  it('hidden columns and password_hash appear nowhere in the document', () => {
    const text = JSON.stringify(doc);
    for (const secret of ['password_hash', 'secret_note', 'hidden_memo']) expect(text).not.toContain(secret);
  });

  it('the read model has the readable columns, the generated key read-only', () => {
    expect(Object.keys(schema('Author').properties ?? {})).toEqual(['id', 'name', 'bio', 'is_staff', 'featured', 'born', 'created_at']);
    expect(schema('Author').properties?.id).toMatchObject({ type: 'integer', readOnly: true });
  });

  it('Input has writable, non-privileged columns and requires NOT NULL columns without default that are not generated keys', () => {
    expect(Object.keys(schema('AuthorInput').properties ?? {})).toEqual(['name', 'bio', 'born', 'created_at']);
    expect(schema('AuthorInput').required).toEqual(['name']);
    // noform columns are not writable; the foreign key is required.
    expect(Object.keys(schema('OrderItemInput').properties ?? {})).toEqual(['author_id', 'sku', 'qty', 'big', 'price', 'weight', 'meta', 'ref']);
    expect(schema('OrderItemInput').required).toEqual(['author_id', 'sku', 'qty', 'price']);
    // A caller-supplied string key is required on create; ticket serves no write, so it has no input schema.
    expect(schema('TagInput').required).toEqual(['id', 'label']);
    expect(doc.components.schemas.TicketInput).toBeUndefined();
  });

  it('Patch has the same properties and requires nothing', () => {
    expect(schema('OrderItemPatch').properties).toEqual(schema('OrderItemInput').properties);
    expect(schema('OrderItemPatch').required).toBeUndefined();
  });

  it('maps column types to JSON Schema, nullable columns as a 3.1 type array', () => {
    const p = schema('OrderItem').properties ?? {};
    expect(p.qty).toEqual({ type: 'integer' });
    expect(p.sku).toEqual({ type: 'string' });
    expect(p.big).toMatchObject({ type: ['string', 'null'], pattern: '^-?[0-9]+$' });
    expect(p.price).toMatchObject({ type: 'string' });
    expect(p.price?.pattern).toBeTypeOf('string');
    expect(p.weight).toEqual({ type: ['number', 'null'] });
    expect(p.meta).toEqual({});
    expect(p.ref).toEqual({ type: ['string', 'null'], format: 'uuid' });
    const a = schema('Author').properties ?? {};
    expect(a.bio).toEqual({ type: ['string', 'null'] });
    expect(a.born).toEqual({ type: ['string', 'null'], format: 'date' });
    expect(a.created_at).toEqual({ type: 'string', format: 'date-time' });
    expect(a.is_staff).toEqual({ type: 'boolean' });
  });

  it('the list envelope wraps the read model', () => {
    expect(schema('OrderItemList')).toMatchObject({
      required: ['count', 'next', 'previous', 'results'],
      properties: { results: { type: 'array', items: { $ref: '#/components/schemas/OrderItem' } } },
    });
  });
});

describe('buildOpenApiDocument: operations', () => {
  it('names operations after the type name', () => {
    expect(typeNameOf('order_item')).toBe('OrderItem');
    expect(op('/api/order_item', 'get').operationId).toBe('listOrderItem');
    expect(op('/api/order_item', 'post').operationId).toBe('createOrderItem');
    expect(op('/api/order_item/{id}', 'get').operationId).toBe('retrieveOrderItem');
    expect(op('/api/order_item/{id}', 'put').operationId).toBe('updateOrderItem');
    expect(op('/api/order_item/{id}', 'patch').operationId).toBe('partialUpdateOrderItem');
    expect(op('/api/order_item/{id}', 'delete').operationId).toBe('deleteOrderItem');
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => (o as { operationId?: string }).operationId).filter(Boolean));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('list takes the paging, search and fields parameters plus one per visible column; include only where there is a relation', () => {
    const params = (op('/api/author', 'get').parameters ?? []).map((p) => p.name ?? p.$ref?.split('/').pop());
    expect(params).toEqual(['limit', 'offset', 'ordering', 'search', 'fields', 'id', 'name', 'bio', 'is_staff', 'featured', 'born', 'created_at']);
    const json = (op('/api/order_item', 'get').parameters ?? []).map((p) => p.name);
    expect(json).not.toContain('meta');
    expect(json).toContain('include');
    expect(op('/api/author/{id}', 'get').parameters).toBeUndefined();
    expect((op('/api/order_item/{id}', 'get').parameters ?? []).map((p) => p.name)).toEqual(['include']);
  });

  it('include names the paths the server accepts, ordering refuses a column given twice', () => {
    const param = (path: string, name: string) => new RegExp(((op(path, 'get').parameters ?? []).find((p) => p.name === name) as { schema: { pattern: string } }).schema.pattern);
    const include = param('/api/order_item', 'include');
    expect(include.test('author')).toBe(true);
    expect(include.test('author,author')).toBe(true); // the server takes a path twice as once
    for (const refused of ['author.anything', 'author.author', 'nope', '', 'author,']) expect(include.test(refused), refused).toBe(false);
    const ordering = param('/api/author', 'ordering');
    for (const ok of ['name', '-name', 'name,-bio', 'bio,name,id']) expect(ordering.test(ok), ok).toBe(true);
    for (const refused of ['name,name', 'name,-name', '-bio,id,bio', 'nope', 'name,', 'id,-id,name']) expect(ordering.test(refused), refused).toBe(false);
    expect(ordering.test('born,bio')).toBe(true); // a name that starts another is not the same column
  });

  it('answers 201 on create, 200 on reads and updates, 204 on delete; errors are problem+json', () => {
    expect(Object.keys(op('/api/author', 'post').responses)).toContain('201');
    expect(Object.keys(op('/api/author/{id}', 'put').responses)).toContain('200');
    expect(Object.keys(op('/api/author/{id}', 'delete').responses)).toEqual(expect.arrayContaining(['204', '404', '409']));
    expect(op('/api/author/{id}', 'delete').responses['200']).toBeUndefined();
    expect(doc.components.responses.NotFound).toMatchObject({ content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
    expect(schema('Problem').required).toEqual(['type', 'title', 'status', 'detail', 'code']);
    expect(Object.keys(schema('Problem').properties ?? {})).toEqual(['type', 'title', 'status', 'detail', 'code', 'errors']);
    expect(Object.keys(op('/api/author', 'post').responses)).toEqual(expect.arrayContaining(['400', '413', '415']));
  });

  it('documents 401 (a bad credential, or a class refusing anonymous callers), 403 from the permission class, 429 only for a throttled resource', () => {
    expect(op('/api/author', 'get').responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(op('/api/author', 'get').security).toContainEqual({});
    expect(Object.keys(op('/api/order_item', 'get').responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    expect(op('/api/order_item', 'get').security).not.toContainEqual({});
    expect(op('/api/author', 'get').responses['429']).toBeUndefined();
    expect(Object.keys(op('/api/report', 'post').responses)).toEqual(expect.arrayContaining(['401', '403']));
  });

  it('gives a table whose names collide a suffixed type name rather than overwrite', () => {
    const clash = ModelRegistry.build([defineModel('order', { id: c.id() }), defineModel('order_list', { id: c.id() })]);
    const resources = [restResource(clash.require('order_list'), undefined), restResource(clash.require('order'), undefined)];
    const d = buildOpenApiDocument({ prefix: '/api', resources, resourceOf: () => resources[0] as RestResource }, { title: 't', version: '1' });
    expect(Object.keys(d.components.schemas)).toEqual(expect.arrayContaining(['OrderList', 'OrderListList', 'Order2', 'Order2List']));
    expect((d.paths['/api/order'] as Record<string, Op>).get?.operationId).toBe('listOrder2');
  });
});
