import { describe, expect, it } from 'vitest';
import { assertEnforceableSchema, validateAgainstSchema } from '../../../src/domain/rest/action-schema.js';
import type { JsonSchema } from '../../../src/domain/rest/action-schema.js';

/** The reference app's `publish` action input (SPEC "Custom actions and their schemas"). */
const PUBLISH: JsonSchema = {
  type: 'object',
  required: ['reason'],
  properties: { reason: { type: 'string' }, channel: { type: 'string', enum: ['web', 'email'] } },
};

const ok = (schema: JsonSchema, value: unknown) => expect(validateAgainstSchema(schema, value)).toEqual([]);

describe('validateAgainstSchema — the publish action input', () => {
  it('{} → reason is required', () => {
    expect(validateAgainstSchema(PUBLISH, {})).toEqual([{ field: 'reason', message: 'is required' }]);
  });
  it('{reason: 5} → reason must be string', () => {
    expect(validateAgainstSchema(PUBLISH, { reason: 5 })).toEqual([{ field: 'reason', message: 'must be string' }]);
  });
  it('{reason, channel: sms} → channel must be one of web, email', () => {
    expect(validateAgainstSchema(PUBLISH, { reason: 'x', channel: 'sms' })).toEqual([{ field: 'channel', message: 'must be one of web, email' }]);
  });
  it('{reason} and {reason, channel: web} are valid', () => {
    ok(PUBLISH, { reason: 'x' });
    ok(PUBLISH, { reason: 'x', channel: 'web' });
  });
  it('a body that is not an object is named (body)', () => {
    for (const body of [null, [], 'x', 3, true]) expect(validateAgainstSchema(PUBLISH, body)).toEqual([{ field: '(body)', message: 'must be object' }]);
  });
  it('unknown keys pass (additionalProperties is not enforced)', () => {
    ok(PUBLISH, { reason: 'x', extra: { anything: [1] } });
    ok({ ...PUBLISH, additionalProperties: false }, { reason: 'x', extra: 1 });
  });
  it('reports every problem, in schema order', () => {
    expect(validateAgainstSchema(PUBLISH, { channel: 7 })).toEqual([
      { field: 'reason', message: 'is required' },
      { field: 'channel', message: 'must be string' },
    ]);
  });
});

describe('validateAgainstSchema — type', () => {
  const cases: [string, unknown[], unknown[]][] = [
    ['object', [{}, { a: 1 }], [null, [], 'x', 1, true]],
    ['array', [[], [1, 'x']], [{}, null, 'x', 1]],
    ['string', ['', 'x'], [1, null, [], {}, true]],
    ['boolean', [true, false], [0, 'true', null]],
    ['null', [null], [undefined, 0, '', false, {}]],
    ['number', [0, -1.5, 3, 1e300], [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', null]],
    ['integer', [0, -7, 2 ** 53, 3.0], [1.5, Number.NaN, Number.POSITIVE_INFINITY, '1', null]],
  ];
  it.each(cases)('%s', (type, accepted, rejected) => {
    for (const v of accepted) ok({ type }, v);
    for (const v of rejected) expect(validateAgainstSchema({ type }, v)).toEqual([{ field: '(body)', message: `must be ${type}` }]);
  });

  it('a type array accepts any listed type and names them all', () => {
    const schema = { type: ['string', 'null'] };
    ok(schema, 'x');
    ok(schema, null);
    expect(validateAgainstSchema(schema, 1)).toEqual([{ field: '(body)', message: 'must be string or null' }]);
    expect(validateAgainstSchema({ type: ['string', 'integer', 'null'] }, 1.5)).toEqual([{ field: '(body)', message: 'must be string, integer or null' }]);
  });

  it('no type accepts anything', () => {
    for (const v of [null, 0, 'x', [], {}, true]) ok({}, v);
  });

  it('a wrong type stops further checks on that value', () => {
    expect(validateAgainstSchema({ type: 'object', required: ['a'], enum: [{ a: 1 }] }, 'x')).toEqual([{ field: '(body)', message: 'must be object' }]);
  });
});

describe('validateAgainstSchema — required', () => {
  it('lists every missing name in order', () => {
    expect(validateAgainstSchema({ type: 'object', required: ['b', 'a', 'c'] }, { a: 1 })).toEqual([
      { field: 'b', message: 'is required' },
      { field: 'c', message: 'is required' },
    ]);
  });
  it('a null value counts as present; undefined does not', () => {
    ok({ required: ['a'] }, { a: null });
    expect(validateAgainstSchema({ required: ['a'] }, { a: undefined })).toEqual([{ field: 'a', message: 'is required' }]);
  });
  it('inherited properties do not count', () => {
    expect(validateAgainstSchema({ required: ['toString', 'constructor'] }, {})).toEqual([
      { field: 'toString', message: 'is required' },
      { field: 'constructor', message: 'is required' },
    ]);
  });
  it('is checked only when the value is an object', () => {
    for (const v of [null, 'x', 1, [], true]) ok({ required: ['a'] }, v);
  });
});

describe('validateAgainstSchema — enum', () => {
  it('matches strings and JSON-stringifies the others in the message', () => {
    const schema = { enum: ['a', 1, null, true, { k: [1] }] };
    for (const v of ['a', 1, null, true, { k: [1] }]) ok(schema, v);
    expect(validateAgainstSchema(schema, 'b')).toEqual([{ field: '(body)', message: 'must be one of a, 1, null, true, {"k":[1]}' }]);
    expect(validateAgainstSchema(schema, { k: [2] })).toHaveLength(1);
    expect(validateAgainstSchema(schema, '1')).toHaveLength(1);
  });
  it('object equality ignores key order', () => {
    ok({ enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 });
    expect(validateAgainstSchema({ enum: [{ a: 1 }] }, { a: 1, b: 2 })).toHaveLength(1);
  });
  it('is checked after the type', () => {
    expect(validateAgainstSchema({ type: 'string', enum: ['web'] }, 1)).toEqual([{ field: '(body)', message: 'must be string' }]);
  });
});

describe('validateAgainstSchema — properties (nested paths)', () => {
  const schema: JsonSchema = {
    type: 'object',
    required: ['address'],
    properties: {
      address: {
        type: 'object',
        required: ['city', 'zip'],
        properties: { city: { type: 'string' }, zip: { type: 'string' }, geo: { type: 'object', properties: { lat: { type: 'number' } } } },
      },
    },
  };
  it('names nested fields with dots', () => {
    expect(validateAgainstSchema(schema, { address: { city: 3, geo: { lat: 'n' } } })).toEqual([
      { field: 'address.zip', message: 'is required' },
      { field: 'address.city', message: 'must be string' },
      { field: 'address.geo.lat', message: 'must be number' },
    ]);
    expect(validateAgainstSchema(schema, { address: [] })).toEqual([{ field: 'address', message: 'must be object' }]);
  });
  it('recurses only into present properties', () => {
    ok({ properties: { a: { type: 'object', required: ['b'] } } }, {});
    ok({ properties: { a: { type: 'string' } } }, { a: undefined });
  });
  it('a valid nested value passes', () => {
    ok(schema, { address: { city: 'Oslo', zip: '0150', geo: { lat: 59.9 } } });
  });
});

describe('validateAgainstSchema — items', () => {
  const order: JsonSchema = {
    type: 'object',
    properties: {
      items: { type: 'array', items: { type: 'object', required: ['sku'], properties: { qty: { type: 'integer' }, sku: { type: 'string' } } } },
    },
  };
  it('names elements by index', () => {
    expect(validateAgainstSchema(order, { items: [{ sku: 'a', qty: 1 }, { sku: 'b' }, { sku: 'c', qty: 1.5 }, 'x', {}] })).toEqual([
      { field: 'items.2.qty', message: 'must be integer' },
      { field: 'items.3', message: 'must be object' },
      { field: 'items.4.sku', message: 'is required' },
    ]);
  });
  it('at the root, elements are named by index alone', () => {
    expect(validateAgainstSchema({ type: 'array', items: { type: 'string' } }, ['a', 1])).toEqual([{ field: '1', message: 'must be string' }]);
  });
  it('nested arrays', () => {
    expect(validateAgainstSchema({ items: { items: { type: 'null' } } }, [[null], [null, 0]])).toEqual([{ field: '1.1', message: 'must be null' }]);
  });
  it('items applies only to arrays; an empty array passes', () => {
    ok({ items: { type: 'string' } }, { 0: 1 });
    ok({ type: 'array', items: { type: 'string' } }, []);
  });
});

describe('validateAgainstSchema — ignored keywords', () => {
  it('pattern, bounds, lengths, format, $ref, oneOf, allOf, anyOf, not, const reject nothing', () => {
    const schema: JsonSchema = {
      type: 'object',
      additionalProperties: false,
      minProperties: 5,
      oneOf: [{ required: ['never'] }, { required: ['never2'] }],
      allOf: [{ type: 'string' }],
      anyOf: [{ type: 'null' }],
      not: {},
      properties: {
        code: { type: 'string', pattern: '^[0-9]+$', minLength: 10, maxLength: 1, format: 'email', const: 'z' },
        n: { type: 'number', minimum: 100, maximum: 0, exclusiveMinimum: 50, multipleOf: 7 },
        ref: { $ref: '#/components/schemas/Nope' },
        list: { type: 'array', minItems: 3, maxItems: 0, uniqueItems: true },
      },
    };
    ok(schema, { code: 'abc', n: 1.5, ref: 'anything', list: [1, 1] });
  });
  it('an ignored keyword does not hide an enforced one beside it', () => {
    expect(validateAgainstSchema({ type: 'string', pattern: '.*', $ref: '#/x' }, 1)).toEqual([{ field: '(body)', message: 'must be string' }]);
  });
  it('never throws on odd input values', () => {
    for (const v of [undefined, Symbol('s'), () => 1, 10n, new Date(0), Object.create(null) as unknown, { __proto__: null, reason: 1 }]) {
      expect(() => validateAgainstSchema(PUBLISH, v)).not.toThrow();
    }
  });
});

describe('assertEnforceableSchema', () => {
  it('accepts well-formed schemas, ignored keywords and all', () => {
    for (const s of [
      {},
      PUBLISH,
      { type: ['string', 'null'] },
      { type: 'array', items: { type: 'object', required: [], properties: {} } },
      { oneOf: 'not even checked', $ref: 5, minimum: 'x', additionalProperties: 'whatever' },
    ]) {
      expect(() => assertEnforceableSchema(s)).not.toThrow();
    }
  });
  it('a shared (non-cyclic) subschema is fine', () => {
    const str = { type: 'string' };
    expect(() => assertEnforceableSchema({ properties: { a: str, b: str, c: { items: str } } })).not.toThrow();
  });
  it.each<[string, JsonSchema, RegExp]>([
    ['unknown type name', { type: 'text' }, /"type" "text" is not one of/],
    ['non-string type', { type: 5 }, /"type" must be/],
    ['empty type array', { type: [] }, /"type" must be/],
    ['bad name in type array', { type: ['string', 'date'] }, /"type" "date"/],
    ['required not an array', { required: 'reason' }, /"required" must be an array of strings/],
    ['required with a non-string', { required: ['a', 1] }, /"required"/],
    ['properties not an object', { properties: ['a'] }, /"properties" must be an object/],
    ['properties null', { properties: null }, /"properties"/],
    ['a property schema that is not an object', { properties: { a: 'string' } }, /schema\.properties\.a: a schema must be an object/],
    ['a nested malformed type', { properties: { a: { properties: { b: { type: 'str' } } } } }, /schema\.properties\.a\.properties\.b: "type"/],
    ['items not a schema (tuple form)', { items: [{ type: 'string' }] }, /schema\.items: a schema must be an object/],
    ['malformed items', { items: { required: [1] } }, /schema\.items: "required"/],
    ['enum not an array', { enum: 'web' }, /"enum" must be a non-empty array/],
    ['empty enum', { enum: [] }, /"enum"/],
  ])('throws on %s', (_name, schema, message) => {
    expect(() => assertEnforceableSchema(schema)).toThrow(Error);
    expect(() => assertEnforceableSchema(schema)).toThrow(message);
  });
  it('throws on a schema that contains itself', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    expect(() => assertEnforceableSchema(cyclic)).toThrow(/contains itself/);
  });
});
