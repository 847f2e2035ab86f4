import fc from 'fast-check';
import type { OpenApiDoc, Operation } from './openapi-conformance.js';

/*
 * fast-check arbitraries of spec-valid requests, generated from an OpenAPI 3.1 document: values
 * for the JSON Schema subset the document uses ($ref, oneOf/anyOf, enum, const, type arrays,
 * integer and string bounds, format date/date-time/uuid/int32, pattern, arrays with size and
 * uniqueness, objects with required and optional properties). Integers lean towards small keys
 * so that foreign keys and ids often name existing rows.
 */

type Schema = Record<string, unknown>;

/** A request drawn for one operation. */
export interface DrawnRequest {
  readonly method: string;
  /** The path with its parameters filled in and its query string. */
  readonly path: string;
  /** The JSON body, when the operation takes one. */
  readonly body?: unknown;
}

/** Hints: values to draw path parameters from, besides the schema (for example existing ids per template and name). */
export type PathValues = (template: string, name: string) => readonly unknown[];

const MAX_ARRAY = 3;
const MAX_DEPTH = 4;
const DAY = 24 * 60 * 60 * 1000;
const dates = fc.integer({ min: Date.UTC(1970, 0, 1) / DAY, max: Date.UTC(2100, 0, 1) / DAY });

function resolve(doc: OpenApiDoc, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 16 && typeof s.$ref === 'string'; i++) {
    s = (s.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((n, key) => (n as Schema | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Schema;
  }
  return s;
}

function integers(s: Schema): fc.Arbitrary<number> {
  const min = typeof s.minimum === 'number' ? s.minimum : -(2 ** 31);
  const max = typeof s.maximum === 'number' ? s.maximum : 2 ** 31 - 1;
  const wide = fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
  const lo = Math.max(min, 1);
  const hi = Math.min(max, 6);
  return lo <= hi ? fc.oneof({ weight: 3, arbitrary: fc.integer({ min: lo, max: hi }) }, { weight: 1, arbitrary: wide }) : wide;
}

/** `pattern` with its lookahead groups (`(?=…)`, `(?!…)`) taken out, escapes and character classes respected. */
export function withoutLookaheads(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    if (!inClass && (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i))) {
      let depth = 0;
      let inner = false;
      for (; i < pattern.length; i++) {
        const ch = pattern[i];
        if (ch === '\\') i++;
        else if (inner) inner = ch !== ']';
        else if (ch === '[') inner = true;
        else if (ch === '(') depth++;
        else if (ch === ')' && --depth === 0) break;
      }
      continue;
    }
    const ch = pattern[i] ?? '';
    if (ch === '\\') {
      out += ch + (pattern[++i] ?? '');
      continue;
    }
    if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    out += ch;
  }
  return out;
}

function strings(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'date') return dates.map((d) => new Date(d * DAY).toISOString().slice(0, 10));
  if (s.format === 'date-time') return fc.tuple(dates, fc.integer({ min: 0, max: DAY - 1 })).map(([d, ms]) => new Date(d * DAY + ms).toISOString());
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'uri') return fc.webUrl();
  if (typeof s.pattern === 'string') {
    // fast-check generates from a pattern without lookaheads (it implements none); the whole
    // pattern then filters what it made (`ordering` refuses a repeated column by a lookahead).
    const whole = new RegExp(s.pattern);
    const bare = withoutLookaheads(s.pattern);
    return bare === s.pattern ? fc.stringMatching(whole) : fc.stringMatching(new RegExp(bare)).filter((text) => whole.test(text));
  }
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0;
  const maxLength = typeof s.maxLength === 'number' ? s.maxLength : Math.max(minLength, 12);
  return fc.oneof({ weight: 3, arbitrary: fc.string({ minLength, maxLength }) }, { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) });
}

/**
 * An arbitrary of the values `schema` accepts (within the document `doc`).
 *
 * @example
 * fc.sample(valueOf(doc, { $ref: '#/components/schemas/TagInput' }), { seed: 1, numRuns: 2 });
 */
export function valueOf(doc: OpenApiDoc, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(doc, schema);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => valueOf(doc, alt, depth)));
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((type) => valueOf(doc, { ...s, type }, depth)));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integers(s);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 });
    case 'string':
      return strings(s);
    case 'array': {
      const minLength = typeof s.minItems === 'number' ? s.minItems : 0;
      const maxLength = depth >= MAX_DEPTH ? minLength : Math.max(minLength, Math.min(typeof s.maxItems === 'number' ? s.maxItems : MAX_ARRAY, MAX_ARRAY));
      const items = valueOf(doc, (s.items as Schema | undefined) ?? {}, depth + 1);
      return s.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength });
    }
    case 'object': {
      const properties = (s.properties as Record<string, Schema> | undefined) ?? {};
      const required = new Set((s.required as string[] | undefined) ?? []);
      const keys = Object.keys(properties).filter((k) => required.has(k) || depth < MAX_DEPTH);
      const model = Object.fromEntries(keys.map((k) => [k, valueOf(doc, properties[k] as Schema, depth + 1)]));
      return fc.record(model, { requiredKeys: keys.filter((k) => required.has(k)) });
    }
    default:
      // No type: any JSON value (a json column).
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A query or path value as text. */
const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
/** A path segment the URL parser keeps as is (`.` and `..` are dot segments, removed before sending). */
const sendable = (v: unknown): boolean => text(v) !== '.' && text(v) !== '..';

/**
 * An arbitrary of spec-valid requests to `op`: path parameters from `pathValues` or their schema,
 * each optional query parameter present half of the time, the body from the request body schema.
 */
export function requestOf(doc: OpenApiDoc, op: Operation, pathValues: PathValues): fc.Arbitrary<DrawnRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const path = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const known = pathValues(op.template, p.name as string);
        const random = valueOf(doc, p.schema as Schema).filter(sendable);
        return [p.name as string, known.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: random }) : random];
      }),
    ),
  );
  const query = fc.record(Object.fromEntries(queryParams.map((p) => [p.name as string, valueOf(doc, p.schema as Schema)])), { requiredKeys: [] });
  const content = (resolve(doc, (op.operation.requestBody as Schema | undefined) ?? {}).content ?? {}) as Record<string, { schema: Schema }>;
  const bodySchema = content['application/json']?.schema;
  const body = bodySchema ? valueOf(doc, bodySchema) : fc.constant(undefined);
  return fc.record({ path, query, body }).map(({ path: params, query: q, body: b }) => {
    const filled = op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(text(params[name])));
    const search = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, text(v)])).toString();
    return { method: op.method.toUpperCase(), path: search ? `${filled}?${search}` : filled, ...(bodySchema ? { body: b } : {}) };
  });
}
