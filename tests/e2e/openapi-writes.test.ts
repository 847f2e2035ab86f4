import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../support/reference-server.js';

/*
 * The reference app's document says what the server enforces on writes (docs/decisions.md
 * "HTTP, REST and OpenAPI"; SPEC "Bulk endpoints", "Parent-scoped sub-resources").
 */

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[]; additionalProperties?: unknown; items?: Schema; oneOf?: Schema[]; $ref?: string; [k: string]: unknown };
type Op = { summary?: string; description?: string; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> };
type Doc = {
  paths: Record<string, Record<string, Op> & { parameters?: { name: string; schema: Schema }[] }>;
  components: { schemas: Record<string, Schema>; responses: Record<string, unknown> };
};

const INT32 = { type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647 };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('OpenAPI: write bodies, bulk operations and parent-scoped paths (reference app)', () => {
  let ref: RunningReference;
  let doc: Doc;
  const schema = (name: string) => doc.components.schemas[name] as Schema;
  const deref = (s: Schema | undefined): Schema => (s?.$ref ? schema(s.$ref.split('/').pop() as string) : (s as Schema));
  const op = (path: string, method: string) => doc.paths[path]?.[method] as Op;
  const body = (path: string, method: string) => op(path, method).requestBody?.content['application/json']?.schema as Schema;

  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    doc = (await (await fetch(`${ref.url}/api/openapi.json`)).json()) as Doc;
  });
  afterAll(async () => ref.close());

  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(doc as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('documents milestone only under its parent, with bulk verbs, the parent key typed as the parent key', () => {
    expect(doc.paths['/api/milestone']).toBeUndefined();
    const coll = doc.paths['/api/project/{parent_id}/milestone'];
    expect(Object.keys(coll ?? {}).filter((k) => k !== 'parameters').sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(coll?.parameters?.[0]).toMatchObject({ name: 'parent_id', schema: INT32 });
    expect(doc.paths['/api/project/{parent_id}/milestone/{id}']?.parameters?.map((p) => [p.name, p.schema])).toEqual([
      ['parent_id', INT32],
      ['id', INT32],
    ]);
  });

  it('declares 404 for a missing parent on every parent-scoped operation', () => {
    for (const path of ['/api/project/{parent_id}/milestone', '/api/project/{parent_id}/milestone/{id}']) {
      for (const method of METHODS) if (op(path, method)) expect(Object.keys(op(path, method).responses), `${method} ${path}`).toContain('404');
    }
  });

  it('leaves the URL-supplied parent key out of the parent-scoped input schemas', () => {
    for (const name of ['MilestoneInput', 'MilestonePatch', 'MilestoneBulkPatchItem']) expect(Object.keys(schema(name).properties ?? {}), name).not.toContain('project_id');
    expect(schema('MilestoneInput').required).toEqual(['title']);
  });

  it('documents bulk PATCH/DELETE only where bulk() is on', () => {
    expect(Object.keys(doc.paths['/api/tag'] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(Object.keys(doc.paths['/api/author'] ?? {}).sort()).toEqual(['get', 'post']);
  });

  it('bulk POST takes an object or 1..1000 items and answers the row or an array of rows', () => {
    const oneOf = body('/api/tag', 'post').oneOf as Schema[];
    expect(oneOf[0]).toEqual({ $ref: '#/components/schemas/TagInput' });
    expect(oneOf[1]).toMatchObject({ type: 'array', minItems: 1, maxItems: 1000 });
    const created = op('/api/tag', 'post').responses['201']?.content?.['application/json']?.schema;
    expect(created?.oneOf?.[1]).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Tag' } });
  });

  it('bulk PATCH items require their key; bulk DELETE ids are 1..1000 keys', () => {
    expect(body('/api/post', 'patch')).toMatchObject({ type: 'array', minItems: 1, maxItems: 1000 });
    expect(deref(body('/api/post', 'patch').items)).toMatchObject({ required: ['id'], properties: { id: INT32 }, additionalProperties: false });
    expect(deref(body('/api/tag', 'patch').items)).toMatchObject({ required: ['id'], properties: { id: { type: 'string', minLength: 1 } } });
    expect(body('/api/post', 'delete')).toMatchObject({ required: ['ids'], properties: { ids: { type: 'array', minItems: 1, maxItems: 1000, items: INT32 } } });
    expect(op('/api/post', 'patch').responses['200']?.content?.['application/json']?.schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Post' } });
  });

  it('input schemas refuse unknown fields and leave out server-set, generated, hidden, noform and privileged columns', () => {
    const all = doc.components.schemas;
    // Not inputs: the problem, list envelopes, and rows (those of served tables, and of tables an include reaches).
    const inputs = Object.entries(all).filter(([name, s]) => name !== 'Problem' && !name.endsWith('List') && !s['x-portico-columns']);
    expect(inputs.length).toBeGreaterThan(20);
    for (const [name, s] of inputs) expect(s.additionalProperties, name).toBe(false);
    expect(Object.keys(schema('PostInput').properties ?? {})).toEqual(['title', 'body', 'author_id', 'published', 'score', 'created_at', 'deleted_at', 'tags', 'comments']);
    expect(Object.keys(schema('AuthorInput').properties ?? {})).toEqual(['name', 'bio', 'email']);
    expect(doc.components.schemas.TicketInput).toBeUndefined(); // no write is served; its uuid key would be absent anyway
    expect(Object.keys(schema('TagReplace').properties ?? {})).toEqual(['label']); // the key comes from the URL
    expect(schema('TagInput').properties?.id).toEqual({ type: 'string', minLength: 1 });
  });

  it('many-to-many links: an optional array of distinct target keys on single writes, absent from bulk items; listed by ?include', () => {
    const tags = { type: 'array', maxItems: 1000, uniqueItems: true, items: { type: 'string', minLength: 1 } };
    for (const name of ['PostInput', 'PostPatch']) {
      expect(schema(name).properties?.tags, name).toMatchObject(tags);
      expect(schema(name).required ?? [], name).not.toContain('tags');
    }
    expect(deref(body('/api/post/{id}', 'put')).properties?.tags).toMatchObject(tags);
    expect(schema('PostBulkItem').properties).not.toHaveProperty('tags');
    expect(schema('PostBulkPatchItem').properties).not.toHaveProperty('tags');
    expect(schema('Post').properties?.tags).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(schema('Post').required ?? []).not.toContain('tags');
    const include = (op('/api/post/{id}', 'get') as Op & { parameters: { name?: string; description?: string; schema?: Schema }[] }).parameters.find((p) => p.name === 'include');
    expect(include?.description).toMatch(/many-to-many.*tags/);
    const pattern = new RegExp(include?.schema?.pattern as string);
    for (const ok of ['tags', 'author,tags', 'created_by', 'author,created_by,tags']) expect(pattern.test(ok), ok).toBe(true);
    // A many-to-many relation is a last hop; author has no relation created_by: the server answers 400 to both.
    for (const refused of ['tags.label', 'author.created_by']) expect(pattern.test(refused), refused).toBe(false);
  });

  it('every include path the document admits, the server accepts (issue 49: a generated client builds no refused request)', async () => {
    const login = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
    const { token } = (await login.json()) as { token: string };
    const get = (url: string) => fetch(`${ref.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    let tried = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      const list = (item.get as (Op & { parameters?: { name?: string; description?: string }[] }) | undefined)?.parameters?.find((p) => p.name === 'include');
      if (!list || path.includes('{id}')) continue;
      const url = path.replace('{parent_id}', '1');
      if ((await get(`${url}?limit=1`)).status !== 200) continue; // a table alice may not list
      for (const include of (/Here: (.*)$/.exec(list.description ?? '')?.[1] ?? '').split(', ')) {
        const res = await get(`${url}?limit=1&include=${include}`);
        expect(res.status, `${url}?include=${include}: ${await res.text()}`).toBe(200);
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(10);
  });

  it('int columns carry the 32-bit bounds in input schemas and filters', () => {
    expect(schema('CommentInput').properties?.votes).toEqual({ ...INT32, default: 0 });
    expect(schema('OrderItemInput').properties?.qty).toEqual(INT32);
    const params = (op('/api/comment', 'get') as Op & { parameters: { name?: string; schema?: Schema }[] }).parameters;
    expect(params.find((p) => p.name === 'votes')?.schema).toEqual(INT32);
  });

  it('nested children leave out their parent key; on update an item with its key changes that child', () => {
    const comments = schema('PostInput').properties?.comments as Schema;
    expect(comments).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/PostCommentsItem' } });
    expect(Object.keys(schema('PostCommentsItem').properties ?? {})).toEqual(['body', 'votes', 'replies']);
    expect(schema('PostPatch').properties?.comments?.items?.oneOf).toEqual([{ $ref: '#/components/schemas/PostCommentsItem' }, { $ref: '#/components/schemas/PostCommentsItemUpdate' }]);
    expect(schema('PostCommentsItemUpdate').required).toEqual(['id']);
    expect(Object.keys(schema('PostBulkItem').properties ?? {})).not.toContain('comments'); // bulk items take no nested arrays
  });

  it('every operation has a summary, a description, a 5xx for the database and problem+json errors', () => {
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const o = item[method];
        if (!o) continue;
        count++;
        expect(o.summary, `${method} ${path}`).toBeTruthy();
        expect(o.description, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(o.responses), `${method} ${path}`).toContain('503');
        if (o.requestBody) expect(Object.keys(o.responses), `${method} ${path}`).toEqual(expect.arrayContaining(['400', '413', '415']));
      }
    }
    expect(count).toBeGreaterThan(90);
  });

  it('paths carry no trailing slash and no component is unused', () => {
    expect(Object.keys(doc.paths).filter((p) => p.endsWith('/'))).toEqual([]);
    const text = JSON.stringify(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(text, name).toContain(`"#/components/schemas/${name}"`);
    for (const name of Object.keys(doc.components.responses)) expect(text, name).toContain(`"#/components/responses/${name}"`);
  });
});
