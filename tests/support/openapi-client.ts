import { OpenApiConformance, type OpenApiDoc } from './openapi-conformance.js';

/*
 * An HTTP client that checks every answer against the OpenAPI document (openapi-conformance.ts)
 * and records which operations and statuses were exercised.
 */

export interface CallOptions {
  /** A bearer token. */
  readonly token?: string;
  /** A JSON body (sent as application/json). */
  readonly body?: unknown;
  /** A raw body, sent as is with `contentType`. */
  readonly raw?: string;
  readonly contentType?: string;
  /** A multipart/form-data body (an upload). */
  readonly form?: FormData;
  /** The path is not in the document (a flat route of a parent-scoped resource): only a problem+json 404 conforms. */
  readonly undocumented?: boolean;
}

export interface CallResult {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads the JSON answer freely
  readonly json: any;
  readonly text: string;
  /** What did not conform ([] when the answer matches the document). */
  readonly problems: readonly string[];
}

export class ConformanceClient {
  readonly conformance: OpenApiConformance;
  /** `METHOD template` → the statuses seen. */
  readonly seen = new Map<string, Set<number>>();
  requests = 0;

  constructor(
    private readonly baseUrl: string,
    doc: OpenApiDoc,
  ) {
    this.conformance = new OpenApiConformance(doc);
  }

  static async load(baseUrl: string): Promise<ConformanceClient> {
    const res = await fetch(`${baseUrl}/api/openapi.json`);
    if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
    return new ConformanceClient(baseUrl, (await res.json()) as OpenApiDoc);
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const raw = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    if (raw !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const body = options.form ?? raw;
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }), redirect: 'manual' });
    const text = await res.text();
    this.requests++;
    const exchange = { method, path, status: res.status, contentType: res.headers.get('content-type'), body: text, header: (n: string) => res.headers.get(n) };
    let problems: string[];
    if (options.undocumented) {
      problems = this.conformance.find(method, path) ? [`${method} ${path}: expected no operation, the document has one`] : [];
      if (res.status !== 404) problems.push(`${method} ${path}: an undocumented path answered ${res.status}, not 404`);
      else problems.push(...this.conformance.validate(['components', 'schemas', 'Problem'], JSON.parse(text), `${method} ${path} → 404`));
    } else {
      problems = this.conformance.checkResponse(exchange);
      const op = this.conformance.find(method, path);
      if (op) {
        const key = `${op.method.toUpperCase()} ${op.template}`;
        this.seen.set(key, (this.seen.get(key) ?? new Set()).add(res.status));
      }
    }
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text, problems };
  }

  /** The document's operations no call reached. */
  unexercised(): string[] {
    return this.conformance
      .operations()
      .map((op) => `${op.method.toUpperCase()} ${op.template}`)
      .filter((key) => !this.seen.has(key));
  }

  /** How many operations were exercised and which statuses each answered. */
  coverage(): Record<string, number[]> {
    return Object.fromEntries([...this.seen].map(([k, v]) => [k, [...v].sort()]));
  }
}

/** Logs in through the JSON auth route and answers the bearer token. */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await res.json()) as { token?: string };
  if (res.status !== 200 || !body.token) throw new Error(`login as ${username} answered ${res.status}`);
  return body.token;
}
