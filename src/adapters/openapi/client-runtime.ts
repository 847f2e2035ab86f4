/**
 * The part of a generated client that is the same for every app (`portico gen-client`): the
 * request function on `fetch`, credentials, CSRF, `Idempotency-Key`, errors as `ApiError` with
 * the problem document, and `paginate`. It is TypeScript source, copied into the generated file
 * as it stands, so the client has no runtime dependency (not even Portico).
 */
export const CLIENT_RUNTIME = `/** A string, or a function answering one when a request is made (a token that changes, say). */
export type Provided = string | undefined | (() => string | undefined | Promise<string | undefined>);

export interface ClientOptions {
  /** Where the app is served, e.g. \`http://127.0.0.1:3000\` (the operation paths carry the REST prefix). */
  readonly baseUrl: string;
  /** A bearer token (from \`POST /api/auth/login\`): sent as \`Authorization: Bearer <token>\`. */
  readonly token?: Provided;
  /**
   * The CSRF token of a cookie session, sent as \`X-CSRF-Token\` on unsafe requests without a bearer
   * token. In a browser it defaults to the \`portico_csrf\` cookie.
   */
  readonly csrfToken?: Provided;
  /** \`fetch\`'s credentials mode: \`include\` sends the session cookie to another origin. */
  readonly credentials?: RequestInit['credentials'];
  /** Headers sent with every request (a \`cookie\` header for a session outside a browser, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The \`fetch\` to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** Options of one request. */
export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A successful answer: the parsed body, the status, the \`ETag\` when there is one, and the headers. */
export interface Answer<T> {
  readonly data: T;
  readonly status: number;
  readonly etag: string | undefined;
  readonly headers: Headers;
}

/** A list page: \`count\` matching rows in all, \`results\` of this page, and links to the pages around it. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/** An answer of 400 or more: \`problem\` is its RFC 9457 document (undefined when the body was not one). */
export class ApiError extends Error {
  readonly status: number;
  readonly problem: Problem | undefined;
  readonly headers: Headers;
  constructor(status: number, problem: Problem | undefined, headers: Headers, text: string) {
    super(problem ? \`\${status} \${problem.code}: \${problem.detail}\` : \`\${status}: \${text.slice(0, 200)}\`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
    this.headers = headers;
  }

  /** The problem's stable code, e.g. \`not_found\`, \`invalid_input\`, \`precondition_failed\`. */
  get code(): ErrorCode | undefined {
    return this.problem?.code;
  }
}

interface Call {
  readonly query?: object | undefined;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly options?: RequestOptions | undefined;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function provided(value: Provided): Promise<string | undefined> {
  return typeof value === 'function' ? value() : value;
}

function cookieCsrf(): string | undefined {
  const doc = (globalThis as { document?: { cookie?: string } }).document;
  const match = /(?:^|;\\s*)portico_csrf=([^;]*)/.exec(doc?.cookie ?? '');
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/** A query value as the server reads it: lists comma-separated, dates in ISO form. */
function queryText(value: unknown): string {
  if (Array.isArray(value)) return value.map(queryText).join(',');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** A fresh \`Idempotency-Key\` for \`idempotencyKey: true\`. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function transport(options: ClientOptions) {
  const base = options.baseUrl.replace(/\\/+$/, '');
  return async function request<T>(method: string, path: string, call: Call = {}): Promise<Answer<T>> {
    const url = new URL(base + path);
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, queryText(value));
    const headers = new Headers({ accept: 'application/json, application/problem+json', ...options.headers, ...call.options?.headers });
    for (const [name, value] of Object.entries(call.headers ?? {})) if (value !== undefined) headers.set(name, value);
    const token = await provided(options.token);
    if (token) headers.set('authorization', \`Bearer \${token}\`);
    else if (UNSAFE.has(method)) {
      const csrf = (await provided(options.csrfToken)) ?? cookieCsrf();
      if (csrf) headers.set('x-csrf-token', csrf);
    }
    let body: string | FormData | undefined;
    // An upload goes as multipart/form-data (fetch writes the boundary); anything else as JSON.
    if (typeof FormData !== 'undefined' && call.body instanceof FormData) body = call.body;
    else if (call.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(call.body);
    }
    const init: RequestInit = { method, headers };
    if (body !== undefined) init.body = body;
    if (options.credentials) init.credentials = options.credentials;
    if (call.options?.signal) init.signal = call.options.signal;
    const response = await (options.fetch ?? globalThis.fetch)(url, init);
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    if (response.status >= 400) {
      const problem = /json/.test(type) && text !== '' ? (JSON.parse(text) as Problem) : undefined;
      throw new ApiError(response.status, problem, response.headers, text);
    }
    const data = (text === '' ? undefined : JSON.parse(text)) as T;
    return { data, status: response.status, etag: response.headers.get('etag') ?? undefined, headers: response.headers };
  };
}

/** The relation an \`include\` path adds to a row: its first hop. */
type Head<P extends string> = P extends \`\${infer H}.\${string}\` ? H : P;
/** A row read with \`fields\` F (none: every column) and \`include\` I: the columns, plus each included relation. */
export type Read<R, F extends keyof R, I extends string> = ([F] extends [never] ? R : Pick<R, F>) & { [K in Head<I> & keyof R]-?: Exclude<R[K], undefined> };

/**
 * Every row of a list, page after page: calls \`page\` with a growing \`offset\` until a page is the
 * last. Rows written meanwhile may shift the pages (order by a key for a stable walk).
 *
 * @example
 * for await (const post of paginate((w) => api.listPost({ ...w, ordering: ['id'] }))) console.log(post.title);
 */
export async function* paginate<T>(page: (window: { offset: number; limit?: number }) => Promise<Answer<Page<T>>>, limit?: number): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const { data } = await page(limit === undefined ? { offset } : { offset, limit });
    yield* data.results;
    offset += data.results.length;
    if (data.next === null || data.results.length === 0) return;
  }
}
`;
