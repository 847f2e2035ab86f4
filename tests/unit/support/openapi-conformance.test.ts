import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestOf, valueOf, withoutLookaheads } from '../../support/openapi-arbitraries.js';
import { OpenApiConformance, type Exchange, type OpenApiDoc } from '../../support/openapi-conformance.js';

/*
 * The test helpers themselves: the conformance check refuses what does not match the document
 * (so a green conformance test means something), and the generator stays inside the document.
 */

const doc: OpenApiDoc = {
  openapi: '3.1.0',
  paths: {
    '/api/thing': {
      get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } } } } },
      post: {
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingInput' } } } },
        responses: { '201': { description: 'created', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } }, '401': { $ref: '#/components/responses/Unauthorized' } },
      },
    },
    '/api/thing/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 9 } }],
      delete: { responses: { '204': { description: 'deleted' } } },
    },
    '/api/thing/latest': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } },
  },
  components: {
    schemas: {
      Thing: { type: 'object', required: ['id', 'due'], properties: { id: { type: 'integer', format: 'int32' }, due: { type: ['string', 'null'], format: 'date' } } },
      ThingInput: { type: 'object', required: ['due'], properties: { due: { type: 'string', format: 'date' }, tags: { type: 'array', uniqueItems: true, items: { enum: ['a', 'b'] } } }, additionalProperties: false },
      Problem: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
    },
    responses: {
      Unauthorized: {
        description: 'no',
        headers: { 'WWW-Authenticate': { required: true, schema: { type: 'string' } } },
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    },
  },
};

const check = new OpenApiConformance(doc);
const ok = (over: Partial<Exchange>): Exchange => ({ method: 'GET', path: '/api/thing', status: 200, contentType: 'application/json; charset=utf-8', body: '[{"id":1,"due":null}]', ...over });

describe('OpenApiConformance', () => {
  it('accepts a conforming answer, with or without a trailing slash and a query string', () => {
    expect(check.checkResponse(ok({}))).toEqual([]);
    expect(check.checkResponse(ok({ path: '/api/thing/?limit=2' }))).toEqual([]);
    expect(check.checkResponse(ok({ method: 'DELETE', path: '/api/thing/3', status: 204, contentType: null, body: '' }))).toEqual([]);
  });

  it('matches a concrete path before a templated one', () => {
    expect(check.find('GET', '/api/thing/latest')?.template).toBe('/api/thing/latest');
    expect(check.find('DELETE', '/api/thing/5')?.params).toEqual({ id: '5' });
  });

  it('refuses an undeclared status, an unknown operation and an undeclared media type', () => {
    expect(check.checkResponse(ok({ status: 404 }))[0]).toMatch(/status not declared/);
    expect(check.checkResponse(ok({ method: 'PUT' }))[0]).toMatch(/no operation/);
    expect(check.checkResponse(ok({ path: '/api/other' }))[0]).toMatch(/no operation/);
    expect(check.checkResponse(ok({ contentType: 'text/html' }))[0]).toMatch(/content type text\/html not declared/);
  });

  it('refuses a body off its schema: a missing member, a wrong type, a bad format, a body where none is declared', () => {
    expect(check.checkResponse(ok({ body: '[{"id":1}]' }))[0]).toMatch(/required/);
    expect(check.checkResponse(ok({ body: '[{"id":"1","due":null}]' }))[0]).toMatch(/integer/);
    expect(check.checkResponse(ok({ body: '[{"id":1,"due":"2024-02-30"}]' }))[0]).toMatch(/format/);
    expect(check.checkResponse(ok({ body: '[{"id":4294967296,"due":null}]' }))[0]).toMatch(/int32/);
    expect(check.checkResponse(ok({ body: 'not json' }))[0]).toMatch(/not JSON/);
    expect(check.checkResponse(ok({ method: 'DELETE', path: '/api/thing/3', status: 204, body: '{}' }))[0]).toMatch(/a body where none is declared/);
  });

  it('checks a shared response: its schema and its required headers', () => {
    const refused = { method: 'POST', path: '/api/thing', status: 401, contentType: 'application/problem+json', body: '{"code":"not_authenticated"}' };
    expect(check.checkResponse({ ...refused, header: (n) => (n === 'www-authenticate' ? 'Bearer' : null) })).toEqual([]);
    expect(check.checkResponse({ ...refused, header: () => null })[0]).toMatch(/WWW-Authenticate missing/);
    expect(check.checkResponse({ ...refused, body: '{}', header: () => 'Bearer' })[0]).toMatch(/required/);
  });

  it('checks request bodies: unknown fields, duplicates and formats are refused', () => {
    expect(check.checkRequestBody('POST', '/api/thing', { due: '2024-01-31', tags: ['a'] })).toEqual([]);
    expect(check.checkRequestBody('POST', '/api/thing', { due: '2024-01-31', nope: 1 })).not.toEqual([]);
    expect(check.checkRequestBody('POST', '/api/thing', { due: '2024-01-31', tags: ['a', 'a'] })).not.toEqual([]);
    expect(check.checkRequestBody('POST', '/api/thing', {})).not.toEqual([]);
  });
});

describe('openapi-arbitraries', () => {
  it('draws strings for a pattern with a lookahead (generated without it, kept only when the whole pattern matches)', () => {
    const ordering = '^(?!(?:.*,)?-?(a|ab)(?:,.*)?,-?\\1(?:,|$))-?(?:a|ab)(?:,-?(?:a|ab))*$';
    expect(withoutLookaheads(ordering)).toBe('^-?(?:a|ab)(?:,-?(?:a|ab))*$');
    expect(withoutLookaheads('^\\((?!y)[(?!)]z$')).toBe('^\\([(?!)]z$'); // an escaped parenthesis, a class holding "(?!)"
    const drawn = fc.sample(valueOf(doc, { type: 'string', pattern: ordering }), { seed: 5, numRuns: 100 }) as string[];
    for (const text of drawn) expect(text).toMatch(new RegExp(ordering));
    expect(drawn.some((text) => text.includes(','))).toBe(true);
  });

  it('draws request bodies the document accepts', () => {
    fc.assert(fc.property(valueOf(doc, { $ref: '#/components/schemas/ThingInput' }), (body) => check.checkRequestBody('POST', '/api/thing', body).length === 0), { seed: 7 });
  });

  it('draws path keys from the given values or the parameter schema', () => {
    const op = check.find('DELETE', '/api/thing/1');
    if (!op) throw new Error('no operation');
    const paths = fc.sample(requestOf(doc, op, () => [7]), { seed: 3, numRuns: 200 }).map((r) => r.path);
    expect(paths).toContain('/api/thing/7');
    for (const path of paths) expect(path).toMatch(/^\/api\/thing\/[1-9]$/);
  });
});
