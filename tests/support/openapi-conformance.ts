import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/*
 * Response conformance against an OpenAPI 3.1 document: the operation that matches a request
 * (concrete paths before templated ones, as OpenAPI 3.1 says; a trailing slash is the same path,
 * as the server routes both), the status it declares (an explicit status, else an `NXX` range,
 * else `default`), the media type and the body against the declared schema with ajv's 2020-12
 * dialect and ajv-formats (plus OpenAPI's `int32`/`int64`), and the headers it marks required.
 */

type Json = Record<string, unknown>;

/** The parts of an OpenAPI document the checks read. */
export interface OpenApiDoc {
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components?: Json;
  readonly [key: string]: unknown;
}

export interface Operation {
  readonly method: string;
  readonly template: string;
  readonly operation: Json & { responses: Record<string, Json>; requestBody?: Json; parameters?: Json[] };
  /** The path-item parameters followed by the operation's own. */
  readonly parameters: readonly Json[];
}

export interface Exchange {
  readonly method: string;
  /** The request path, with or without a query string. */
  readonly path: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The response body as text ('' when empty). */
  readonly body: string;
  /** Response header lookup (lower-case names). */
  readonly header?: (name: string) => string | null;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const BASE = 'https://conformance.invalid/openapi.json';
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const pointer = (parts: readonly string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
const mediaTypeOf = (contentType: string | null) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** Resolves a `$ref` into the document (response and parameter components). */
function deref(doc: OpenApiDoc, node: unknown): Json {
  let current = node as Json;
  for (let i = 0; i < 16 && typeof current?.$ref === 'string'; i++) {
    const parts = (current.$ref as string).replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    current = parts.reduce<unknown>((n, key) => (n as Json | undefined)?.[key], doc) as Json;
  }
  return current;
}

/** Checks exchanges against a document; create one per document. */
export class OpenApiConformance {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { regex: RegExp; names: string[]; template: string; literal: number }[];

  constructor(readonly doc: OpenApiDoc) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    this.ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    this.ajv.addSchema({ ...doc, $id: BASE });
    this.routes = Object.keys(doc.paths)
      .map((template) => {
        const names: string[] = [];
        const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'));
        return { regex: new RegExp(`^${source}/?$`), names, template, literal: template.replace(/\{[^}]+\}/g, '').length };
      })
      // OpenAPI 3.1 "Path Templating Matching": concrete paths match before templated ones.
      .sort((a, b) => a.names.length - b.names.length || b.literal - a.literal);
  }

  /** Every operation of the document. */
  operations(): Operation[] {
    return Object.entries(this.doc.paths).flatMap(([template, item]) =>
      HTTP_METHODS.filter((m) => item[m]).map((m) => this.operationAt(template, m) as Operation),
    );
  }

  /** The operation a request reaches, with its path parameters, or undefined. */
  find(method: string, path: string): (Operation & { params: Record<string, string> }) | undefined {
    const bare = path.split('?')[0] ?? path;
    for (const route of this.routes) {
      const match = route.regex.exec(bare);
      if (!match) continue;
      const op = this.operationAt(route.template, method.toLowerCase());
      if (!op) return undefined; // the path is the document's, the method is not
      const params = Object.fromEntries(route.names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')]));
      return { ...op, params };
    }
    return undefined;
  }

  private operationAt(template: string, method: string): Operation | undefined {
    const item = this.doc.paths[template] ?? {};
    const operation = item[method] as Operation['operation'] | undefined;
    if (!operation) return undefined;
    const parameters = [...((item.parameters as Json[] | undefined) ?? []), ...(operation.parameters ?? [])].map((p) => deref(this.doc, p));
    return { method, template, operation, parameters };
  }

  /** Problems of a request body against the operation's declared request body ([] when it conforms). */
  checkRequestBody(method: string, path: string, body: unknown): string[] {
    const op = this.find(method, path);
    if (!op) return [`${method} ${path}: no operation in the document`];
    const content = deref(this.doc, op.operation.requestBody ?? {}).content as Record<string, Json> | undefined;
    if (!content) return body === undefined ? [] : [`${method} ${op.template}: declares no request body`];
    if (!content['application/json']) return [`${method} ${op.template}: no application/json request body`];
    return this.validate([...this.pathTo(op), 'requestBody', 'content', 'application/json', 'schema'], body, `${method} ${op.template} request`);
  }

  /** Problems of a response ([] when it conforms to the matching operation). */
  checkResponse(ex: Exchange): string[] {
    const what = `${ex.method} ${ex.path} → ${ex.status}`;
    const op = this.find(ex.method, ex.path);
    if (!op) return [`${what}: no operation in the document matches`];
    const responses = op.operation.responses;
    const key = [String(ex.status), `${String(ex.status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
    if (!key) return [`${what}: status not declared by ${op.method.toUpperCase()} ${op.template} (declared: ${Object.keys(responses).join(', ')})`];
    const responseRef = responses[key] as Json;
    const response = deref(this.doc, responseRef);
    const responsePath = typeof responseRef.$ref === 'string' ? (responseRef.$ref as string).replace(/^#\//, '').split('/') : [...this.pathTo(op), 'responses', key];
    const problems: string[] = [];
    for (const [name, header] of Object.entries((response.headers as Record<string, Json> | undefined) ?? {})) {
      if (deref(this.doc, header).required === true && !ex.header?.(name.toLowerCase())) problems.push(`${what}: required header ${name} missing`);
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) return ex.body === '' ? problems : [...problems, `${what}: a body where none is declared (${ex.body.slice(0, 80)})`];
    const type = mediaTypeOf(ex.contentType);
    const declared = Object.keys(content).find((t) => t === type || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))) || t === '*/*');
    if (!declared) return [...problems, `${what}: content type ${type || '(none)'} not declared (declared: ${Object.keys(content).join(', ')})`];
    if (!('schema' in (content[declared] as Json))) return problems;
    let value: unknown = ex.body;
    if (declared.endsWith('json')) {
      try {
        value = JSON.parse(ex.body);
      } catch {
        return [...problems, `${what}: body is not JSON (${ex.body.slice(0, 80)})`];
      }
    }
    return [...problems, ...this.validate([...responsePath, 'content', declared, 'schema'], value, what)];
  }

  private pathTo(op: Operation): string[] {
    return ['paths', op.template, op.method];
  }

  /** Problems of `value` against the schema at `parts` of the document (for example `['components', 'schemas', 'Problem']`). */
  validate(parts: readonly string[], value: unknown, what: string): string[] {
    const id = `${BASE}#/${pointer(parts)}`;
    let validate = this.validators.get(id);
    if (!validate) {
      validate = this.ajv.compile({ $ref: id });
      this.validators.set(id, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 5).map((e) => `${what}: body${e.instancePath} ${e.message ?? 'is invalid'} (${JSON.stringify(e.params)})`);
  }
}
