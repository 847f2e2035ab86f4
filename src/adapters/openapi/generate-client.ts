import type { OpenApiDocument } from './build-openapi-document.js';
import { CLIENT_RUNTIME } from './client-runtime.js';

/* `portico gen-client`: a typed TypeScript client on `fetch` from an app's OpenAPI document. */

type Schema = { readonly [key: string]: unknown };
type Parameter = { readonly name: string; readonly in: string; readonly required?: boolean; readonly schema?: Schema; readonly [key: string]: unknown };
type Operation = {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly parameters?: readonly (Parameter | { readonly $ref: string })[];
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: Schema }> };
  readonly responses?: Record<string, { readonly content?: Record<string, { readonly schema?: Schema }>; readonly $ref?: string }>;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Names the client's own part declares: a schema of the same name gets a suffix. */
const RUNTIME_NAMES = new Set(['Provided', 'ClientOptions', 'RequestOptions', 'Answer', 'Page', 'ApiError', 'ErrorCode', 'Call', 'Head', 'Read', 'Api']);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const RESERVED_WORDS = new Set(['break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'await']);

const asSchema = (value: unknown): Schema | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));
const literalUnion = (names: readonly string[]) => (names.length === 0 ? 'never' : names.map((n) => JSON.stringify(n)).join(' | '));
const union = (types: readonly string[]) => [...new Set(types)].join(' | ') || 'never';
/** Parentheses around a union or intersection before `[]`. */
const element = (type: string) => (/^[A-Za-z0-9_$."]+$/.test(type) || type.startsWith('{') ? type : `(${type})`);

function camel(name: string): string {
  const text = name.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')).replace(/^[A-Z]/, (c) => c.toLowerCase());
  const id = /^[0-9]/.test(text) || text === '' ? `_${text}` : text;
  return RESERVED_WORDS.has(id) ? `${id}_` : id;
}

/** A JSDoc comment from a description (nothing without one). */
function comment(text: unknown, indent: string): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  return lines.length === 1 ? `${indent}/** ${lines[0]} */\n` : `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** Writes the TypeScript of one document's schemas and operations. */
class ClientWriter {
  /** Component schema name → its TypeScript name. */
  private readonly names = new Map<string, string>();
  /** Row schemas (`x-portico-columns`), and the list envelopes of rows (`results` of a row). */
  private readonly rows = new Set<string>();
  private readonly listOf = new Map<string, string>();

  constructor(private readonly doc: OpenApiDocument) {
    const taken = new Set(RUNTIME_NAMES);
    for (const name of Object.keys(doc.components.schemas)) {
      let ts = name.replace(/[^A-Za-z0-9_$]/g, '_');
      if (/^[0-9]/.test(ts)) ts = `_${ts}`;
      if (taken.has(ts) || RESERVED_WORDS.has(ts)) ts = `${ts}Schema`;
      for (let n = 2; taken.has(ts); n++) ts = `${ts}${n}`;
      taken.add(ts);
      this.names.set(name, ts);
    }
    for (const [name, schema] of Object.entries(doc.components.schemas)) if (Array.isArray(schema['x-portico-columns'])) this.rows.add(name);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const items = asSchema(asSchema(asSchema(schema.properties)?.results)?.items);
      const target = typeof items?.$ref === 'string' ? this.component(items.$ref) : undefined;
      if (target && this.rows.has(target)) this.listOf.set(name, target);
    }
  }

  private component(ref: string): string | undefined {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    return match?.[1];
  }

  private refType(ref: string): string {
    const name = this.component(ref);
    return (name && this.names.get(name)) ?? 'unknown';
  }

  /** The TypeScript type of a schema; `query` types date-times as `string | Date` (a query sends a Date in ISO form). */
  type(schema: Schema | undefined, indent = '', query = false): string {
    if (!schema) return 'unknown';
    if (typeof schema.$ref === 'string') return this.refType(schema.$ref);
    const alternatives = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
    if (alternatives) return union(alternatives.map((s) => this.type(asSchema(s), indent, query)));
    const types = Array.isArray(schema.type) ? strings(schema.type) : typeof schema.type === 'string' ? [schema.type] : [];
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.map((v) => JSON.stringify(v));
      return union(types.includes('null') && !schema.enum.includes(null) ? [...values, 'null'] : values);
    }
    if ('const' in schema) return JSON.stringify(schema.const);
    if (types.length === 0) return schema.properties ? this.object(schema, indent) : 'unknown';
    return union(
      types.map((t) => {
        switch (t) {
          case 'string':
            return query && schema.format === 'date-time' ? 'string | Date' : 'string';
          case 'integer':
          case 'number':
            return 'number';
          case 'boolean':
            return 'boolean';
          case 'null':
            return 'null';
          case 'array':
            return `${element(this.type(asSchema(schema.items), indent, query))}[]`;
          case 'object':
            return this.object(schema, indent);
          default:
            return 'unknown';
        }
      }),
    );
  }

  /** An object type: `required` (and `always`) properties without `?`. */
  object(schema: Schema, indent: string, always: readonly string[] = []): string {
    const properties = Object.entries(asSchema(schema.properties) ?? {});
    if (properties.length === 0) return schema.additionalProperties === false ? 'Record<string, never>' : 'Record<string, unknown>';
    const required = new Set([...strings(schema.required), ...always]);
    const inner = `${indent}  `;
    const lines = properties.map(([key, value]) => `${comment(asSchema(value)?.description, inner)}${inner}${propertyKey(key)}${required.has(key) ? '' : '?'}: ${this.type(asSchema(value), inner)};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  /** `export interface` / `export type` per component schema. */
  schemas(): string {
    const out: string[] = [];
    for (const [name, schema] of Object.entries(this.doc.components.schemas)) {
      const ts = this.names.get(name) as string;
      const declared = comment(schema.description, '');
      const isObject = schema.type === 'object' && Object.keys(asSchema(schema.properties) ?? {}).length > 0;
      if (isObject) out.push(`${declared}export interface ${ts} ${this.object(schema, '', strings(schema['x-portico-columns']))}`);
      else out.push(`${declared}export type ${ts} = ${this.type(schema)};`);
    }
    return out.join('\n\n');
  }

  private parameter(p: Parameter | { readonly $ref: string }): Parameter | undefined {
    if ('$ref' in p && typeof p.$ref === 'string') {
      const name = /^#\/components\/parameters\/(.+)$/.exec(p.$ref)?.[1];
      return name ? (this.doc.components.parameters[name] as Parameter | undefined) : undefined;
    }
    return p as Parameter;
  }

  /** The properties of a query object: each parameter, its lookups (`x-portico-lookups`), and the comma lists typed by their items. */
  private queryProperties(params: readonly Parameter[], generics: { include?: string; fields?: string }): string[] {
    const lines: string[] = [];
    for (const p of params) {
      const items = strings(p['x-portico-items']);
      let type: string;
      if (p.name === 'include' && generics.include) type = `readonly ${generics.include}[]`;
      else if (p.name === 'fields' && generics.fields) type = `readonly ${generics.fields}[]`;
      else if (p.name === 'ordering' && items.length > 0) type = `readonly (${literalUnion(items)} | \`-\${${literalUnion(items)}}\`)[]`;
      else type = this.type(p.schema, '  ', true);
      lines.push(`${comment(p.description, '  ')}  ${propertyKey(p.name)}${p.required ? '' : '?'}: ${type};`);
      for (const lookup of strings(p['x-portico-lookups'])) {
        const lookupType = lookup === 'in' ? `readonly ${element(type)}[]` : lookup === 'isnull' ? 'boolean' : ['contains', 'icontains', 'iexact', 'startswith'].includes(lookup) ? 'string' : type;
        lines.push(`  ${propertyKey(`${p.name}__${lookup}`)}?: ${lookupType};`);
      }
    }
    return lines;
  }

  private successResponse(op: Operation): { status: string; schema?: Schema } | undefined {
    const entry = Object.entries(op.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
    if (!entry) return undefined;
    const schema = entry[1].content?.['application/json']?.schema;
    return schema ? { status: entry[0], schema } : { status: entry[0] };
  }

  /** One operation: its query interface (if any) and its function, with overloads for a body that is one row or a batch. */
  operation(path: string, method: (typeof METHODS)[number], op: Operation, pathParams: readonly Parameter[]): { types: string; fn: string; name: string } {
    const name = camel(op.operationId ?? `${method}_${path}`);
    const params = [...pathParams, ...(op.parameters ?? []).map((p) => this.parameter(p)).filter((p): p is Parameter => p !== undefined)];
    const inPath = params.filter((p) => p.in === 'path');
    const query = params.filter((p) => p.in === 'query');
    const headers = params.filter((p) => p.in === 'header');
    const include = query.find((p) => p.name === 'include');
    const fields = query.find((p) => p.name === 'fields');
    const generics: string[] = [];
    const queryGenerics: { include?: string; fields?: string } = {};
    if (include) {
      generics.push(`I extends ${literalUnion(strings(include['x-portico-items']))} = never`);
      queryGenerics.include = 'I';
    }
    if (fields) {
      generics.push(`F extends ${literalUnion(strings(fields['x-portico-items']))} = never`);
      queryGenerics.fields = 'F';
    }
    const typeParams = generics.length > 0 ? `<${generics.join(', ')}>` : '';
    const queryName = `${name.charAt(0).toUpperCase()}${name.slice(1)}Query`;
    const queryArgs = [queryGenerics.include ? 'I' : undefined, queryGenerics.fields ? 'F' : undefined].filter(Boolean) as string[];
    const queryDecl =
      query.length > 0
        ? `export interface ${queryName}${queryArgs.length > 0 ? `<${queryArgs.map((a) => `${a} extends string = never`).join(', ')}>` : ''} {\n${this.queryProperties(query, queryGenerics).join('\n')}\n}\n`
        : '';
    const queryType = `${queryName}${queryArgs.length > 0 ? `<${queryArgs.join(', ')}>` : ''}`;

    // The answer: rows read with `fields`/`include` are typed by what was asked.
    const success = this.successResponse(op);
    const read = (schema: Schema | undefined): string | undefined => {
      if (!include && !fields) return undefined;
      const ref = typeof schema?.$ref === 'string' ? this.component(schema.$ref) : undefined;
      const row = ref && this.rows.has(ref) ? ref : undefined;
      const listed = ref ? this.listOf.get(ref) : undefined;
      const wrap = (r: string) => `Read<${this.names.get(r) as string}, ${fields ? 'F' : 'never'}, ${include ? 'I' : 'never'}>`;
      if (row) return wrap(row);
      if (listed) return `Page<${wrap(listed)}>`;
      return undefined;
    };
    const answer = success?.schema ? (read(success.schema) ?? this.type(success.schema)) : 'undefined';

    const args: string[] = [];
    const used = new Set(['query', 'body', 'options', 'request']);
    const pathArgs = inPath.map((p) => {
      let arg = camel(p.name);
      while (used.has(arg)) arg = `${arg}_`;
      used.add(arg);
      args.push(`${arg}: ${this.type(p.schema)}`);
      return { name: p.name, arg };
    });
    const bodySchema = op.requestBody?.content?.['application/json']?.schema;
    // A write that also takes multipart/form-data (a model with file columns) takes a FormData too.
    const orForm = op.requestBody?.content?.['multipart/form-data'] ? ' | FormData' : '';
    const headerOptions = headers.map((h) => `readonly ${camel(h.name)}${h.required ? '' : '?'}: ${h.name.toLowerCase() === 'idempotency-key' ? 'string | true' : this.type(h.schema)}`);
    const optionsType = headerOptions.length > 0 ? `RequestOptions & { ${headerOptions.join('; ')} }` : 'RequestOptions';
    const optionsRequired = headers.some((h) => h.required);
    const url = `\`${path.replace(/\{([^}]+)\}/g, (_, param: string) => `\${encodeURIComponent(String(${pathArgs.find((a) => a.name === param)?.arg ?? 'undefined'}))}`)}\``;
    const headerValues = headers.map((h) => `${JSON.stringify(h.name)}: ${h.name.toLowerCase() === 'idempotency-key' ? `idempotencyKey(options?.${camel(h.name)})` : `options?.${camel(h.name)}`}`);
    const call = [query.length > 0 ? 'query' : '', bodySchema ? 'body' : '', headerValues.length > 0 ? `headers: { ${headerValues.join(', ')} }` : '', 'options'].filter(Boolean).join(', ');
    const queryArg = query.length > 0 ? `query${query.some((p) => p.required) ? '' : '?'}: ${queryType}` : undefined;
    const optionsArg = `options${optionsRequired ? '' : '?'}: ${optionsType}`;
    const doc = comment([op.summary, op.description].filter(Boolean).join('\n\n'), '  ');
    const body = `{\n    return request(${JSON.stringify(method.toUpperCase())}, ${url}, { ${call} });\n  }`;

    // A body that is one object or an array of them, answered by one row or an array: an overload for each.
    const bodyAlternatives = Array.isArray(asSchema(bodySchema)?.oneOf) ? (bodySchema?.oneOf as Schema[]) : undefined;
    const answerAlternatives = success?.schema && Array.isArray(success.schema.oneOf) ? (success.schema.oneOf as Schema[]) : undefined;
    const batch = bodyAlternatives?.find((s) => s.type === 'array');
    const single = bodyAlternatives?.find((s) => s.type !== 'array');
    const manyAnswer = answerAlternatives?.find((s) => s.type === 'array');
    const oneAnswer = answerAlternatives?.find((s) => s.type !== 'array');
    const signature = (bodyType: string | undefined, answerType: string) =>
      `function ${name}${typeParams}(${[...args, bodyType ? `body: ${bodyType}` : undefined, queryArg, optionsArg].filter(Boolean).join(', ')}): Promise<Answer<${answerType}>>`;
    let fn: string;
    if (bodyAlternatives?.length === 2 && batch && single && manyAnswer && oneAnswer) {
      fn =
        `${doc}  ${signature(this.type(single), this.type(oneAnswer))};\n` +
        `  ${signature(this.type(batch), this.type(manyAnswer))};\n` +
        `  ${signature(this.type(bodySchema), answer)} ${body}`;
    } else fn = `${doc}  ${signature(bodySchema ? `${this.type(bodySchema, '  ')}${orForm}` : undefined, answer)} ${body}`;
    return { types: queryDecl, fn, name };
  }

  client(): string {
    const types: string[] = [];
    const fns: string[] = [];
    const names: string[] = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      const shared = ((item.parameters as (Parameter | { $ref: string })[] | undefined) ?? []).map((p) => this.parameter(p)).filter((p): p is Parameter => p !== undefined);
      for (const method of METHODS) {
        const op = item[method] as Operation | undefined;
        if (!op) continue;
        const written = this.operation(path, method, op, shared);
        if (written.types) types.push(written.types);
        fns.push(written.fn);
        names.push(written.name);
      }
    }
    return [
      types.join('\n'),
      '/**',
      ' * A client of the API: one function per operation. A 2xx answer resolves to `{ data, status, etag, headers }`;',
      ' * any other rejects with an `ApiError` carrying the problem document.',
      ' *',
      ' * @example',
      " * const api = createClient({ baseUrl: 'http://127.0.0.1:3000', token });",
      ' */',
      'export function createClient(clientOptions: ClientOptions) {',
      '  const request = transport(clientOptions);',
      fns.join('\n\n'),
      `  return { ${names.join(', ')} };`,
      '}',
      '',
      '/** The client `createClient` makes. */',
      'export type Api = ReturnType<typeof createClient>;',
      '',
    ].join('\n');
  }
}

/**
 * The source of a typed client for the REST surface an OpenAPI document describes (one that
 * Portico built: it reads `x-portico-columns` on rows, `x-portico-items` on comma lists and
 * `x-portico-lookups` on filters). One module, on `fetch`, importing nothing; `source` names
 * where it came from in its header.
 */
export function generateClient(doc: OpenApiDocument, source = `${doc.info.title} ${doc.info.version}`): string {
  const writer = new ClientWriter(doc);
  const client = writer.client();
  const problem = doc.components.schemas.Problem ? '' : 'export interface Problem { type: string; title: string; status: number; detail: string; code: string }\n\n';
  return [
    `// The REST client of ${source}, written by \`portico gen-client\` from its OpenAPI document.`,
    '// Do not edit: run `npx portico gen-client` again after the models or the REST configuration change.',
    '',
    `${problem}${writer.schemas()}`,
    '',
    "/** The problem document's stable codes. */",
    "export type ErrorCode = Problem['code'];",
    '',
    CLIENT_RUNTIME,
    ...(client.includes('idempotencyKey(') ? ['/** `true` asks for a fresh key. */', 'function idempotencyKey(key: string | true | undefined): string | undefined {', '  return key === true ? newIdempotencyKey() : key;', '}', ''] : []),
    client,
  ].join('\n');
}
