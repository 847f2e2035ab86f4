/**
 * The neutral request and response a route handler sees (STYLE guideline 4): plugins and
 * use cases never touch a Koa context.
 */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed body, for routes that declare one. */
  readonly body: unknown;
  /** The request's origin (`scheme://host`), honouring trusted proxy headers. */
  readonly origin: string;
  readonly ip: string;
  readonly requestId: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Content type for string bodies (JSON bodies default to application/json). */
  readonly type?: string;
}

/** A route contributed by a plugin. `body: 'json'` makes the adapter parse (and limit) a JSON body. */
export interface RouteDef {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';
  readonly path: string;
  readonly body?: 'json' | 'none';
  readonly handler: (req: HttpRequest) => Promise<HttpResponse> | HttpResponse;
}
