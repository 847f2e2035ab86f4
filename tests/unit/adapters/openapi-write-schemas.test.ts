import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/adapters/openapi/build-openapi-document.js';
import type { ResourceConfig } from '../../../src/application/rest/resource-config.js';
import { restResource, type RestResource } from '../../../src/application/rest/rest-resource.js';
import type { RestServed } from '../../../src/application/rest/rest-served.js';
import { c, defineModel } from '../../../src/domain/model/index.js';
import { ModelRegistry } from '../../../src/domain/model/model-registry.js';
import { AllowAny, IsAuthenticated } from '../../../src/domain/rest/permission-classes.js';

/*
 * The write side of the OpenAPI document (docs/decisions.md "HTTP, REST and OpenAPI";
 * SPEC "Bulk endpoints", "Parent-scoped sub-resources", "Nested writes"): input
 * schemas say what the server enforces, bulk answers are arrays, every status is declared.
 */

const registry = ModelRegistry.build([
  defineModel('board', { id: c.stringId(), title: c.text() }),
  defineModel(
    'card',
    {
      id: c.uuidId(),
      board_id: c.fk('board'),
      title: c.text(),
      rank: c.int().default(0),
      owner_id: c.int().nullable(),
      memo: c.text().nullable().hidden(),
      draft: c.text().nullable().noform(),
      pinned: c.bool().default(false).privileged(),
    },
    { setOnCreate: { owner_id: (who) => who.id } },
  ),
  defineModel('shelf', { id: c.id(), name: c.text() }),
  defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text(), pages: c.int().nullable() }),
]);

const CONFIGS: ResourceConfig[] = [
  { table: 'board', permission: AllowAny },
  { table: 'card', permission: AllowAny, under: { parent: 'board', fk: 'board_id' }, bulk: true, computed: { label: () => 'x' }, throttle: '5/min' },
  { table: 'shelf', permission: AllowAny, bulk: true, nested: [{ key: 'books', table: 'book' }] },
  { table: 'book', permission: IsAuthenticated },
];

function served(configs: readonly ResourceConfig[]): RestServed {
  const resources = configs.map((cfg) => restResource(registry.require(cfg.table), cfg));
  const byTable = new Map(resources.map((r) => [r.model.table, r]));
  return { prefix: '/api', resources, resourceOf: (t: string) => byTable.get(t) ?? (restResource(registry.require(t), undefined) as RestResource) };
}

const doc = buildOpenApiDocument(served(CONFIGS), { title: 't', version: '1' });
type Schema = { properties?: Record<string, Schema>; required?: string[]; additionalProperties?: unknown; items?: Schema; oneOf?: Schema[]; [k: string]: unknown };
type Op = { summary?: string; description?: string; requestBody?: { content: { 'application/json': { schema: Schema } } }; responses: Record<string, Schema>; security: unknown[] };
const schema = (name: string) => doc.components.schemas[name] as Schema;
const op = (path: string, method: string) => (doc.paths[path] as Record<string, Op>)[method] as Op;
const params = (path: string) => (doc.paths[path] as { parameters: { name: string; schema: Schema }[] }).parameters;
const INT32 = { type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647 };

describe('OpenAPI write schemas: what a body may carry', () => {
  it('leaves out generated keys, server-set, hidden, noform, privileged and computed columns, and the URL-supplied parent key', () => {
    expect(Object.keys(schema('CardInput').properties ?? {})).toEqual(['title', 'rank']);
    expect(Object.keys(schema('CardPatch').properties ?? {})).toEqual(['title', 'rank']);
    expect(schema('CardInput').required).toEqual(['title']);
  });

  it('refuses unknown fields in every write schema', () => {
    const reads = new Set(['Board', 'Card', 'Shelf', 'Book', 'Problem']);
    const writes = Object.entries(doc.components.schemas).filter(([name]) => !reads.has(name) && !name.endsWith('List'));
    expect(writes.map(([name]) => name).sort()).toEqual(
      ['BoardInput', 'BoardPatch', 'BoardReplace', 'BookInput', 'BookPatch', 'CardBulkPatchItem', 'CardInput', 'CardPatch', 'ShelfBooksItem', 'ShelfBooksItemUpdate', 'ShelfBulkItem', 'ShelfBulkPatchItem', 'ShelfInput', 'ShelfPatch', 'ShelfReplace'].sort(),
    );
    for (const [name, s] of writes) expect(s.additionalProperties, name).toBe(false);
  });

  it('a caller-chosen key is required on create, absent on PUT/PATCH (the URL names the row), required in bulk PATCH items', () => {
    expect(schema('BoardInput')).toMatchObject({ required: ['id', 'title'], properties: { id: { type: 'string', minLength: 1 } } });
    expect(Object.keys(schema('BoardReplace').properties ?? {})).toEqual(['title']);
    expect(op('/api/board/{id}', 'put').requestBody?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/BoardReplace' });
    expect(schema('CardBulkPatchItem')).toMatchObject({ required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } });
  });

  it('int columns carry the 32-bit bounds on the way in, keys in the path are typed from the key column', () => {
    expect(schema('CardInput').properties?.rank).toEqual({ ...INT32, default: 0 });
    expect(schema('BookInput').properties?.pages).toEqual({ ...INT32, type: ['integer', 'null'] });
    expect(params('/api/board/{parent_id}/card/{id}').map((p) => [p.name, p.schema])).toEqual([
      ['parent_id', { type: 'string', minLength: 1 }],
      ['id', { type: 'string', format: 'uuid' }],
    ]);
    expect(params('/api/shelf/{id}')[0]?.schema).toEqual(INT32);
  });
});

describe('OpenAPI write schemas: bulk and nested', () => {
  it('bulk POST takes an object or 1..1000 items without nested arrays; 201 is the row or an array of rows', () => {
    expect(op('/api/shelf', 'post').requestBody?.content['application/json'].schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/ShelfInput' }, { type: 'array', minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/ShelfBulkItem' } }],
    });
    expect(Object.keys(schema('ShelfInput').properties ?? {})).toEqual(['name', 'books']);
    expect(Object.keys(schema('ShelfBulkItem').properties ?? {})).toEqual(['name']);
    expect(op('/api/shelf', 'post').responses['201']).toMatchObject({ content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Shelf' }, { type: 'array' }] } } } });
  });

  it('bulk DELETE takes 1..1000 distinct keys and declares 409', () => {
    expect(op('/api/shelf', 'delete').requestBody?.content['application/json'].schema).toMatchObject({ required: ['ids'], properties: { ids: { minItems: 1, maxItems: 1000, uniqueItems: true, items: INT32 } } });
    expect(Object.keys(op('/api/shelf', 'delete').responses)).toEqual(expect.arrayContaining(['204', '404', '409']));
  });

  it('a nested child leaves out its parent key; on update an item with its key names an existing child', () => {
    expect(Object.keys(schema('ShelfBooksItem').properties ?? {})).toEqual(['title', 'pages']);
    expect(schema('ShelfBooksItemUpdate')).toMatchObject({ required: ['id'], properties: { id: INT32 } });
    expect(schema('ShelfPatch').properties?.books?.items?.oneOf).toHaveLength(2);
  });

  it('every operation declares 401, open ones too: credentials that are sent must be valid', () => {
    expect(op('/api/shelf', 'post').responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(op('/api/shelf', 'post').security).toContainEqual({}); // the parent alone is open
    expect(op('/api/shelf', 'get').responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
  });
});

describe('OpenAPI responses: every status the server can answer', () => {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).filter(([m]) => m !== 'parameters').map(([m, o]) => [path, m, o as Op] as const));

  it('every operation has a summary, a description and 503; writes with a body declare 400, 413 and 415', () => {
    for (const [path, method, o] of operations) {
      expect(o.summary && o.description, `${method} ${path}`).toBeTruthy();
      expect(Object.keys(o.responses), `${method} ${path}`).toContain('503');
      if (o.requestBody) expect(Object.keys(o.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
  });

  it('parent-scoped operations declare 404; a throttled resource 429 with Retry-After; 401 carries WWW-Authenticate', () => {
    for (const [path, method, o] of operations.filter(([p]) => p.includes('{parent_id}'))) {
      expect(Object.keys(o.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['404', '429']));
    }
    expect(doc.components.responses.TooManyRequests).toMatchObject({ headers: { 'Retry-After': { required: true } } });
    expect(doc.components.responses.Unauthorized).toMatchObject({ headers: { 'WWW-Authenticate': { required: true } } });
  });

  it('paths carry no trailing slash; unused components are left out', () => {
    expect(Object.keys(doc.paths).filter((p) => p.endsWith('/'))).toEqual([]);
    const readOnly = buildOpenApiDocument(served([{ table: 'shelf', permission: AllowAny, views: ['List'] }]), { title: 't', version: '1' });
    expect(Object.keys(readOnly.components.schemas).sort()).toEqual(['Problem', 'Shelf', 'ShelfList']);
    expect(Object.keys(readOnly.components.responses).sort()).toEqual(['BadRequest', 'ServiceUnavailable', 'Unauthorized']);
  });
});

describe('OpenAPI: many-to-many links through the owning resource', () => {
  const m2m = ModelRegistry.build([
    defineModel('genre', { id: c.id(), name: c.text() }),
    defineModel('song', { id: c.id(), title: c.text() }, { manyToMany: { genres: { target: 'genre', through: 'song_genres' } } }),
  ]);
  const build = (config: ResourceConfig) => {
    const resources = [restResource(m2m.require('song'), config), restResource(m2m.require('genre'), { table: 'genre', permission: AllowAny })];
    const byTable = new Map(resources.map((r) => [r.model.table, r]));
    const served: RestServed = { prefix: '/api', resources, resourceOf: (t: string) => byTable.get(t) as RestResource };
    return buildOpenApiDocument(served, { title: 't', version: '1' }).components.schemas as Record<string, Schema>;
  };
  const includeOf = (config: ResourceConfig) => {
    const resources = [restResource(m2m.require('song'), config)];
    const d = buildOpenApiDocument({ prefix: '/api', resources, resourceOf: (t: string) => restResource(m2m.require(t), undefined) }, { title: 't', version: '1' });
    return ((d.paths['/api/song/{id}'] as Record<string, Op & { parameters?: { name: string; description: string }[] }>).get?.parameters ?? []).find((p) => p.name === 'include');
  };

  it('single writes take an optional array of distinct target keys; bulk items and the read model follow the policy', () => {
    const schemas = build({ table: 'song', permission: AllowAny, bulk: true });
    const links = { type: 'array', maxItems: 1000, uniqueItems: true, items: INT32 };
    expect(schemas.SongInput?.properties?.genres).toMatchObject(links);
    expect(schemas.SongPatch?.properties?.genres).toMatchObject(links);
    expect(schemas.SongInput?.required).toEqual(['title']);
    expect(schemas.SongBulkItem?.properties).not.toHaveProperty('genres');
    expect(schemas.Song?.properties?.genres).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(includeOf({ table: 'song', permission: AllowAny })?.description).toMatch(/many-to-many.*genres/);
  });

  it('a hidden relation is neither written nor read', () => {
    const schemas = build({ table: 'song', permission: AllowAny, hide: ['genres'] });
    expect(schemas.SongInput?.properties).not.toHaveProperty('genres');
    expect(schemas.Song?.properties).not.toHaveProperty('genres');
    expect(includeOf({ table: 'song', permission: AllowAny, hide: ['genres'] })).toBeUndefined(); // no relation left: no include parameter
  });
});
