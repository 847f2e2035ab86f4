import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertEnforceableSchema, validateAgainstSchema } from '../../src/domain/rest/action-schema.js';
import type { JsonSchema } from '../../src/domain/rest/action-schema.js';

/**
 * A tiny independent checker for type-only schemas (`type`, plus `properties`/`items` holding
 * type-only schemas): classify the value, then compare against the listed names.
 */
function kindsOf(v: unknown): string[] {
  if (v === null) return ['null'];
  if (Array.isArray(v)) return ['array'];
  switch (typeof v) {
    case 'string':
      return ['string'];
    case 'boolean':
      return ['boolean'];
    case 'number':
      if (!Number.isFinite(v)) return [];
      return Number.isInteger(v) ? ['number', 'integer'] : ['number'];
    case 'object':
      return ['object'];
    default:
      return [];
  }
}

interface TypeOnly {
  type?: string | string[];
  properties?: Record<string, TypeOnly>;
  items?: TypeOnly;
}

function referenceValid(schema: TypeOnly, v: unknown): boolean {
  if (schema.type !== undefined) {
    const wanted = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!kindsOf(v).some((k) => wanted.includes(k))) return false;
  }
  if (schema.properties && kindsOf(v).includes('object')) {
    const obj = v as Record<string, unknown>;
    for (const [k, sub] of Object.entries(schema.properties)) {
      if (Object.prototype.hasOwnProperty.call(obj, k) && !referenceValid(sub, obj[k])) return false;
    }
  }
  if (schema.items && Array.isArray(v)) {
    for (const el of v as unknown[]) if (!referenceValid(schema.items, el)) return false;
  }
  return true;
}

const FIXED: TypeOnly[] = [
  {},
  { type: 'object' },
  { type: 'array' },
  { type: 'string' },
  { type: 'number' },
  { type: 'integer' },
  { type: 'boolean' },
  { type: 'null' },
  { type: ['string', 'null'] },
  { type: ['integer', 'boolean', 'array'] },
  { type: 'object', properties: { a: { type: 'integer' }, b: { type: ['string', 'null'] } } },
  { type: 'array', items: { type: 'number' } },
  { items: { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } } },
];

const TYPE_NAMES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'] as const;
const KEYS = ['a', 'b', 'c'];

/** Random type-only schemas, nested a few levels. */
const typeOnlySchema: fc.Arbitrary<TypeOnly> = fc.letrec<{ schema: TypeOnly }>((tie) => ({
  schema: fc.record(
    {
      type: fc.oneof(fc.constantFrom(...TYPE_NAMES), fc.uniqueArray(fc.constantFrom(...TYPE_NAMES), { minLength: 1, maxLength: 3 })),
      properties: fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 3 }),
      items: tie('schema'),
    },
    { requiredKeys: [] },
  ),
})).schema;

/** JSON values biased toward the keys the schemas name, so nested checks actually fire. */
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('v'), { maxKeys: 3 }),
    fc.array(tie('v'), { maxLength: 4 }),
  ),
})).v;

const PUBLISH: JsonSchema = {
  type: 'object',
  required: ['reason'],
  properties: { reason: { type: 'string' }, channel: { type: 'string', enum: ['web', 'email'] } },
};

describe('validateAgainstSchema (SPEC "Custom actions and their schemas")', () => {
  it('fixed type-only schemas: never throws, and [] iff the reference checker says valid', () => {
    for (const s of FIXED) assertEnforceableSchema(s as JsonSchema);
    fc.assert(
      fc.property(fc.constantFrom(...FIXED), fc.oneof(fc.jsonValue(), value), (schema, v) => {
        const problems = validateAgainstSchema(schema as JsonSchema, v);
        expect(problems.length === 0).toBe(referenceValid(schema, v));
      }),
      { numRuns: 500 },
    );
  });

  it('random type-only schemas agree with the reference checker', () => {
    fc.assert(
      fc.property(typeOnlySchema, value, (schema, v) => {
        assertEnforceableSchema(schema as JsonSchema);
        expect(validateAgainstSchema(schema as JsonSchema, v).length === 0).toBe(referenceValid(schema, v));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on any JSON value, and every problem names a field and a message', () => {
    const schemas: JsonSchema[] = [PUBLISH, ...FIXED.map((s) => s as JsonSchema), { type: 'array', items: PUBLISH }, { enum: [1, 'a', null, { a: [1] }] }];
    fc.assert(
      fc.property(fc.constantFrom(...schemas), fc.oneof(fc.jsonValue(), value), (schema, v) => {
        const problems = validateAgainstSchema(schema, v);
        for (const p of problems) {
          expect(p.field.length).toBeGreaterThan(0);
          expect(p.message).toMatch(/^(is required|must be .+)$/);
        }
        expect(validateAgainstSchema(schema, v)).toEqual(problems);
      }),
      { numRuns: 500 },
    );
  });

  it('ignored keywords never change the outcome', () => {
    const decorate = (s: TypeOnly): JsonSchema => ({
      ...s,
      pattern: '^$',
      minimum: 1e9,
      maxLength: 0,
      format: 'uuid',
      $ref: '#/nowhere',
      oneOf: [{ type: 'null' }, { type: 'null' }],
      additionalProperties: false,
      ...(s.properties ? { properties: Object.fromEntries(Object.entries(s.properties).map(([k, sub]) => [k, decorate(sub)])) } : {}),
      ...(s.items ? { items: decorate(s.items) } : {}),
    });
    fc.assert(
      fc.property(typeOnlySchema, value, (schema, v) => {
        expect(validateAgainstSchema(decorate(schema), v)).toEqual(validateAgainstSchema(schema as JsonSchema, v));
      }),
      { numRuns: 300 },
    );
  });
});
