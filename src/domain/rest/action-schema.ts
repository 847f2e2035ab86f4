/**
 * The input-schema validator of SPEC "Custom actions and their schemas" (2-3): when a custom
 * action carries an input schema, its body is checked before the handler runs and a failure
 * answers 400 naming the offending field. Ours on purpose (DESIGN §1): no library.
 *
 * Enforced subset: `type` (a name or an array of names), `required`, `properties` (recursive),
 * `enum` and `items` (recursive, single-schema form). Every other keyword — `$ref`, `oneOf`,
 * `allOf`, `anyOf`, `minimum`, `maximum`, `pattern`, `minLength`, `format`,
 * `additionalProperties`, … — is ignored here: it is only published to OpenAPI.
 */

/** A JSON Schema object as written by host code; only the enforced subset is read. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** One reason a value does not satisfy a schema. */
export interface SchemaProblem {
  /** Dotted path of the offending value: `reason`, `address.city`, `items.2.qty`; the root is `(body)`. */
  readonly field: string;
  /** What is wrong, e.g. `is required`, `must be string or null`, `must be one of web, email`. */
  readonly message: string;
}

/** The `type` names the validator understands. */
const TYPE_NAMES: ReadonlySet<string> = new Set(['object', 'string', 'number', 'integer', 'boolean', 'array', 'null']);

/** Field name of the root value in a {@link SchemaProblem}. */
const ROOT = '(body)';

/**
 * Validates `value` against the enforced subset; returns every problem found (`[]` when
 * valid). `field` is a dotted path: `reason`, `address.city`, `items.2.qty`; the root is
 * `(body)`.
 *
 * Per (sub)schema, problems come in schema order: `type` (a value of the wrong type gets no
 * further checks), then `enum`, then `required` (in its listed order, objects only), then each
 * entry of `properties` in declaration order (present, non-`undefined` properties only), then
 * array elements against `items` in index order. Never throws on a JSON value; a malformed
 * keyword (see {@link assertEnforceableSchema}) is skipped rather than trusted.
 */
export function validateAgainstSchema(schema: JsonSchema, value: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  check(schema, value, [], problems);
  return problems;
}

/**
 * Throws an `Error` when `schema` is itself malformed — a programming error to surface at boot,
 * not a caller's 400. Checked: the schema and every subschema under `properties`/`items` is a
 * plain object; `type` is an allowed name or a non-empty array of allowed names; `required` is
 * an array of strings; `properties` is an object of schemas; `items` is a single schema;
 * `enum` is a non-empty array; no subschema contains itself. Ignored keywords are not inspected.
 */
export function assertEnforceableSchema(schema: JsonSchema): void {
  assertSchema(schema, 'schema', new Set());
}

function check(schema: JsonSchema, value: unknown, path: readonly string[], problems: SchemaProblem[]): void {
  const field = path.length === 0 ? ROOT : path.join('.');

  const types = typeNames(schema['type']);
  if (types !== undefined && !types.some((t) => hasType(value, t))) {
    problems.push({ field, message: `must be ${listOr(types)}` });
    return;
  }

  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((a) => jsonEqual(a, value))) {
    problems.push({ field, message: `must be one of ${allowed.map(describeEnumValue).join(', ')}` });
  }

  if (isPlainObject(value)) {
    const required = schema['required'];
    if (Array.isArray(required)) {
      for (const name of required) {
        if (typeof name === 'string' && !isPresent(value, name)) problems.push({ field: [...path, name].join('.'), message: 'is required' });
      }
    }
    const properties = schema['properties'];
    if (isPlainObject(properties)) {
      for (const name of Object.keys(properties)) {
        const sub = properties[name];
        if (isPlainObject(sub) && isPresent(value, name)) check(sub, value[name], [...path, name], problems);
      }
    }
  } else if (Array.isArray(value)) {
    const items = schema['items'];
    if (isPlainObject(items)) {
      value.forEach((element: unknown, index) => check(items, element, [...path, String(index)], problems));
    }
  }
}

/** The names of a `type` keyword, or `undefined` when absent or unreadable (nothing enforced). */
function typeNames(type: unknown): readonly string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.length > 0 && type.every((t): t is string => typeof t === 'string')) return type;
  return undefined;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    default:
      return false;
  }
}

/** `string`, `string or null`, `string, number or null`. */
function listOr(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}`;
}

function describeEnumValue(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Structural equality of JSON values (object key order does not matter). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x: unknown, i) => jsonEqual(x, b[i]));
  }
  if (isPlainObject(a)) {
    if (!isPlainObject(b)) return false;
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

function isPlainObject(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An own property whose value is not `undefined` (JSON has no `undefined`). */
function isPresent(obj: Readonly<Record<string, unknown>>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, name) && obj[name] !== undefined;
}

function assertSchema(schema: unknown, at: string, ancestors: Set<unknown>): void {
  const fail = (what: string): never => {
    throw new Error(`malformed action input schema at ${at}: ${what}`);
  };
  if (!isPlainObject(schema)) fail('a schema must be an object');
  const s = schema as JsonSchema;
  if (ancestors.has(s)) fail('the schema contains itself');

  if ('type' in s) {
    const type = s['type'];
    const names = typeof type === 'string' ? [type] : Array.isArray(type) ? (type as unknown[]) : undefined;
    if (names === undefined || names.length === 0) fail(`"type" must be a type name or a non-empty array of them`);
    for (const name of names ?? []) {
      if (typeof name !== 'string' || !TYPE_NAMES.has(name)) fail(`"type" ${JSON.stringify(name) ?? String(name)} is not one of ${[...TYPE_NAMES].join(', ')}`);
    }
  }
  if ('required' in s) {
    const required = s['required'];
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) fail('"required" must be an array of strings');
  }
  if ('enum' in s) {
    const allowed = s['enum'];
    if (!Array.isArray(allowed) || allowed.length === 0) fail('"enum" must be a non-empty array');
  }

  ancestors.add(s);
  if ('properties' in s) {
    const properties = s['properties'];
    if (!isPlainObject(properties)) fail('"properties" must be an object');
    for (const [name, sub] of Object.entries(properties as JsonSchema)) assertSchema(sub, `${at}.properties.${name}`, ancestors);
  }
  if ('items' in s) assertSchema(s['items'], `${at}.items`, ancestors);
  ancestors.delete(s);
}
