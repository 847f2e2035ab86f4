import type { IncomingMessage, Server } from 'node:http';
import { Readable } from 'node:stream';
import type { GraphQLSchema } from 'graphql';
import { createHandler as createSseHandler } from 'graphql-sse';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { HttpRequest, HttpResponse, RouteDef } from '../../adapters/http-koa/http-route.js';
import type { GraphqlContext } from '../../adapters/graphql/build-schema.js';
import { formatGraphqlError } from '../../adapters/graphql/error-mapping.js';

/**
 * `POST <path>` speaking the graphql-sse protocol in distinct-connections mode (DESIGN §3
 * "subscriptions"): the response is an event stream; standard graphql-sse clients work unchanged.
 */
export function sseRoutes(path: string, schema: GraphQLSchema, context: (req: HttpRequest) => Promise<GraphqlContext>): RouteDef[] {
  const handler = createSseHandler<HttpRequest, undefined, GraphqlContext>({
    schema,
    context: (req) => context(req.raw),
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: result.errors.map((e) => formatGraphqlError(e)) } : result),
  });
  const serve = async (req: HttpRequest): Promise<HttpResponse> => {
    const [body, init] = await handler({
      method: req.method,
      url: `${req.origin}${req.path}`,
      headers: {
        get: (name: string) => {
          const v = req.headers[name.toLowerCase()];
          return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
        },
      },
      body: (req.body ?? null) as Record<string, unknown> | null,
      raw: req,
      context: undefined,
    });
    const headers = Object.fromEntries(Object.entries(init.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const stream = body !== null && typeof body === 'object' && Symbol.asyncIterator in body;
    return {
      status: init.status,
      body: stream ? Readable.from(body) : (body ?? ''),
      ...(headers['content-type'] ? { type: headers['content-type'] } : {}),
      headers,
    };
  };
  return [{ method: 'POST', path, body: 'json', handler: serve }];
}

/**
 * `GET <path>` upgraded to a WebSocket speaking `graphql-transport-ws` (graphql-ws): standard
 * clients work unchanged. The caller is identified from the `authorization` connection
 * parameter, the upgrade request's Authorization header, or its session cookie. Returns the
 * function that closes it.
 */
export function serveWebSocket(
  server: Server,
  path: string,
  schema: GraphQLSchema,
  context: (headers: { authorization: string | undefined; cookie: string | undefined }) => Promise<GraphqlContext>,
): () => Promise<void> {
  const wss = new WebSocketServer({ server, path });
  const disposable = useServer(
    {
      schema,
      context: async (ctx) => {
        const request = (ctx.extra as { request: IncomingMessage }).request;
        const param = (ctx.connectionParams as { authorization?: unknown } | undefined)?.authorization;
        const header = request.headers.authorization;
        return context({ authorization: typeof param === 'string' ? param : header, cookie: request.headers.cookie });
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((e) => formatGraphqlError(e)) } : result),
    },
    wss,
  );
  return async () => {
    await disposable.dispose();
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  };
}
