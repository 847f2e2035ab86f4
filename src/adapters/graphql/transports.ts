import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type * as GraphqlHttp from 'graphql-http';
import type * as GraphqlSse from 'graphql-sse';
import type * as GraphqlWsOverWs from 'graphql-ws/use/ws';
import type * as Ws from 'ws';
import type { RawData } from 'ws';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { GraphqlContext } from './build-schema.js';
import { executeCompiled } from './compiled-execution.js';
import { formatGraphqlError } from './error-mapping.js';
import { GraphQLError } from './graphql-js.js';
import type { GraphqlPipeline } from './pipeline.js';

/** A neutral HTTP request for the GraphQL transports (the HTTP adapter converts its own to this). */
export interface GraphqlHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: unknown;
  /** The resolver context of this request (identity, loaders, abort signal). */
  context(): Promise<GraphqlContext>;
}

/** A neutral HTTP answer: a string, a stream of SSE chunks, or nothing. */
export interface GraphqlHttpResponse {
  readonly status: number;
  readonly body: string | AsyncIterable<string> | null;
  readonly headers: Readonly<Record<string, string>>;
  /** True when the body streams a subscription's events (a long-lived stream), not one result. */
  readonly subscription?: boolean;
}

/** Whether the operation `args` executes is a subscription (the pipeline checked there is one to run). */
function isSubscription(args: ExecutionArgs): boolean {
  const name = args.operationName;
  for (const definition of args.document.definitions) {
    if (definition.kind === 'OperationDefinition' && (!name || definition.name?.value === name)) return definition.operation === 'subscription';
  }
  return false;
}

/**
 * Each transport loads its packages with the first request it serves (graphql-http, graphql-sse;
 * graphql-ws and ws with the first upgrade): an app that serves no GraphQL yet holds none of them.
 */
const require = createRequire(import.meta.url);

const header = (req: GraphqlHttpRequest, name: string): string | null => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};

const stringHeaders = (headers: Record<string, unknown> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));

const errorBody = (errors: readonly GraphQLError[]) => JSON.stringify({ errors: errors.map((e) => e.toJSON()) });

/**
 * A POST body that is JSON but not one GraphQL request (an object) answers 400 in the transports'
 * own error shape, before graphql-http or graphql-sse sees it. They are built for raw text:
 * handed an already parsed JSON string, graphql-http parsed it again (so `"{\"query\":…}"` ran
 * as a request) and graphql-sse answered 404 "Stream not found". A batch (an array) is named.
 */
function notOneRequest(req: GraphqlHttpRequest): GraphqlHttpResponse | undefined {
  const body = req.body;
  if (body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body))) return undefined;
  const message = Array.isArray(body)
    ? 'the body must be one GraphQL request, a JSON object: batched requests (an array) are not supported'
    : 'the body must be a GraphQL request, a JSON object';
  return { status: 400, body: JSON.stringify({ errors: [{ message }] }), headers: { 'content-type': 'application/json; charset=utf-8' } };
}

/**
 * `POST /graphql`: GraphQL over HTTP (graphql-http). The pipeline parses and validates; a
 * document it refuses, or variables that do not coerce, answer per media type (`requestErrors`).
 */
export function graphqlOverHttp(pipeline: GraphqlPipeline): (req: GraphqlHttpRequest) => Promise<GraphqlHttpResponse> {
  let serve: ((req: GraphqlHttpRequest) => Promise<GraphqlHttpResponse>) | undefined;
  return async (req) => (serve ??= httpTransport(pipeline))(req);
}

function httpTransport(pipeline: GraphqlPipeline): (req: GraphqlHttpRequest) => Promise<GraphqlHttpResponse> {
  const { createHandler } = require('graphql-http') as typeof GraphqlHttp;
  const handler = createHandler<GraphqlHttpRequest, WrittenText, GraphqlContext>({
    schema: pipeline.schema,
    execute: (args) => written(args.contextValue as GraphqlContext, executeCompiled(args)),
    formatError: (err) => formatGraphqlError(err as GraphQLError),
    onSubscribe: async (req, params) => {
      const context = await req.raw.context();
      (context as ContextWriting)[WRITTEN] = req.context;
      const prepared = pipeline.prepare(params, context);
      if (!Array.isArray(prepared)) return prepared as never;
      return requestErrors(req.raw, prepared as readonly GraphQLError[]);
    },
    // Variables that do not coerce end the request before execution: a result without `data`.
    onOperation: (req, _args, result) => ('data' in result || !('errors' in result) || !result.errors ? undefined : requestErrors(req.raw, result.errors.map((e) => formatGraphqlError(e as GraphQLError)))),
  });
  return async (req) => {
    const refused = notOneRequest(req);
    if (refused) return refused;
    const written: WrittenText = {};
    const [body, init] = await handler({ method: req.method, url: req.url, headers: { get: (name) => header(req, name) }, body: (req.body ?? null) as never, raw: req, context: written });
    const text = written.text;
    return { status: init.status, body: text !== undefined && init.status === 200 ? text : (body ?? null), headers: stringHeaders(init.headers) };
  };
}

/**
 * A request error (a document the pipeline refused, variables that do not coerce) with GraphQL
 * over HTTP's status for the accepted media type: 200 under `application/json` (the spec's
 * SHOULD for legacy clients), 400 under `application/graphql-response+json` (its MUST).
 */
function requestErrors(req: GraphqlHttpRequest, errors: readonly GraphQLError[]): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  const modern = header(req, 'accept')?.includes('application/graphql-response+json') === true;
  const type = modern ? 'application/graphql-response+json' : 'application/json';
  return [errorBody(errors), { status: modern ? 400 : 200, statusText: modern ? 'Bad Request' : 'OK', headers: { 'content-type': `${type}; charset=utf-8` } }];
}

const WRITTEN = Symbol('portico.graphqlWrittenText');

/** Where the text of one request's result goes: made per request, reached from its resolver context. */
interface WrittenText {
  text?: string;
}

/**
 * The resolver context carries its request's `WrittenText` as a property, not through a WeakMap
 * keyed by the context: V8's young-generation collector kept such entries, and every row the
 * context reaches, alive through two collections, so each result was promoted to the old
 * generation (17 kB a request for 50 posts with their comments; docs/performance.md, "Garbage").
 */
type ContextWriting = GraphqlContext & { [WRITTEN]?: WrittenText };

/**
 * Error-free results written as JSON by Portico. graphql-http writes every result with a
 * replacer function (for Error values, which only `errors` holds), and a replacer makes
 * JSON.stringify call back into JavaScript for every key of the data: for 50 posts with their
 * comments that was 9 % of the request's time. A result without errors is written here without
 * one (the same text); graphql-http gets `{ data: null }` to frame the answer, and its body is
 * replaced by this text. Results with errors go through graphql-http untouched.
 */
function written(context: GraphqlContext, result: ExecutionResult | Promise<ExecutionResult>): ExecutionResult | Promise<ExecutionResult> {
  return result instanceof Promise ? result.then((r) => keep(context, r)) : keep(context, result);
}

function keep(context: GraphqlContext, result: ExecutionResult): ExecutionResult {
  const target = (context as ContextWriting)[WRITTEN];
  if (!target || result.errors !== undefined || 'incremental' in result) return result;
  try {
    target.text = JSON.stringify(result);
  } catch {
    return result; // graphql-http reports what JSON cannot write, as before
  }
  return { data: null };
}

/**
 * `POST /graphql/sse`: graphql-sse in distinct-connections mode. Refused documents follow
 * graphql-sse's own convention: streamed as an error result to an event-stream client, 400 JSON otherwise.
 */
export function graphqlOverSse(pipeline: GraphqlPipeline): (req: GraphqlHttpRequest) => Promise<GraphqlHttpResponse> {
  let serve: ((req: GraphqlHttpRequest) => Promise<GraphqlHttpResponse>) | undefined;
  return async (req) => (serve ??= sseTransport(pipeline))(req);
}

function sseTransport(pipeline: GraphqlPipeline): (req: GraphqlHttpRequest) => Promise<GraphqlHttpResponse> {
  const { createHandler } = require('graphql-sse') as typeof GraphqlSse;
  const subscriptions = new WeakSet<GraphqlHttpRequest>();
  const handler = createHandler<GraphqlHttpRequest, undefined, GraphqlContext>({
    schema: pipeline.schema,
    validate: () => [], // the pipeline validated already
    onSubscribe: async (req, params) => {
      const prepared = pipeline.prepare(params, await req.raw.context());
      if (!Array.isArray(prepared)) {
        if (isSubscription(prepared as ExecutionArgs)) subscriptions.add(req.raw);
        return prepared as never;
      }
      const errors = prepared as readonly GraphQLError[];
      // graphql-sse takes a bare { errors } for execution arguments (its results carry `data`): stream it as one result.
      if (req.headers.get('accept') === 'text/event-stream') return (async function* () {
        yield { errors: errors.map((e) => e.toJSON()) };
      })() as never;
      return [errorBody(errors), { status: 400, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } }];
    },
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: result.errors.map((e) => formatGraphqlError(e)) } : result),
  });
  return async (req) => {
    const refused = notOneRequest(req);
    if (refused) return refused;
    const [body, init] = await handler({ method: req.method, url: req.url, headers: { get: (name) => header(req, name) }, body: (req.body ?? null) as never, raw: req, context: undefined });
    return { status: init.status, body: body ?? null, headers: stringHeaders(init.headers), subscription: subscriptions.has(req) };
  };
}

/** What identifies a WebSocket caller: the `authorization` connection parameter, else the upgrade request's headers. */
export interface WebSocketCaller {
  readonly authorization: string | undefined;
  readonly cookie: string | undefined;
}

/** The last events of a GraphQL over SSE stream whose caller's credential was revoked (distinct connections mode). */
const REVOKED_EVENTS =
  `event: next\ndata: ${JSON.stringify({ errors: [{ message: 'credential revoked', extensions: { code: 'UNAUTHENTICATED' } }] })}\n\n` + 'event: complete\ndata:\n\n';

/**
 * A GraphQL over SSE stream that ends when its caller's credential is revoked (a logout, the user
 * deactivated): the client gets one last `next` with an UNAUTHENTICATED error, then `complete`,
 * and the operation underneath is returned (its subscription dropped). `watch` starts watching and
 * returns the function that stops it, which runs whenever the stream ends. An iterator, not an
 * async generator: a generator waiting for the next event would queue the `return()` of a client
 * that left until an event came, keeping a quiet subscription alive.
 */
export function untilRevoked(stream: AsyncIterable<string>, watch: (ended: () => void) => () => void): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<string> {
      const inner = stream[Symbol.asyncIterator]();
      let revoke: () => void = () => undefined;
      const revoked = new Promise<'revoked'>((resolve) => (revoke = () => resolve('revoked')));
      const unwatch = watch(() => revoke());
      let state: 'open' | 'revoked' | 'done' = 'open';
      const finish = async (): Promise<IteratorResult<string>> => {
        state = 'done';
        unwatch();
        await inner.return?.();
        return { value: undefined, done: true };
      };
      return {
        next: async () => {
          if (state === 'done') return { value: undefined, done: true };
          if (state === 'revoked') return finish();
          const result = await Promise.race([inner.next(), revoked]);
          if (result !== 'revoked') {
            if (result.done) {
              state = 'done';
              unwatch();
            }
            return result;
          }
          state = 'revoked';
          return { value: REVOKED_EVENTS, done: false };
        },
        return: finish,
      };
    },
  };
}

/** How the app answers a WebSocket handshake. */
export interface HandshakeOutcome {
  /** Writes the refusal of the upgrade with the app's problem document, and ends the socket. */
  refuse(req: IncomingMessage, socket: Duplex, error: unknown): void;
  /** Completes the lines of an accepted handshake's 101 before they are written. */
  accepted?(req: IncomingMessage, headers: string[]): void;
}

/** A WebSocket transport without a server of its own: the app routes the upgrades of its path to `upgrade`. */
export interface WebSocketTransport {
  /** Completes an upgrade request the app routed here. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every connection. */
  close(): Promise<void>;
}

/**
 * `GET /graphql/ws` upgraded to `graphql-transport-ws` (graphql-ws). Every operation is prepared
 * by the pipeline; it is aborted when the client completes it or the socket closes.
 */
export function graphqlOverWebSocket(
  pipeline: GraphqlPipeline,
  context: (caller: WebSocketCaller, signal: AbortSignal) => Promise<GraphqlContext>,
  watch: WatchOperationCaller,
  /** How the app answers the handshake: ws's refusal of a malformed one (an unparsable Sec-WebSocket-Protocol), the 101 of one accepted. */
  outcome: HandshakeOutcome,
  /**
   * The largest message a client may send, in bytes: the app's `bodyLimit`, which an HTTP request
   * to the other two transports is held to. A larger one closes the socket with 1009 (Message Too
   * Big) before it is buffered whole; ws's own default is 100 MiB.
   */
  maxMessageBytes: number,
): WebSocketTransport {
  let transport: WebSocketTransport | undefined;
  return {
    upgrade: (req, socket, head) => (transport ??= webSocketTransport(pipeline, context, watch, outcome, maxMessageBytes)).upgrade(req, socket, head),
    close: async () => transport?.close(),
  };
}

/**
 * Watches the credential an operation's caller was identified by: `ended` runs once it is revoked
 * (a logout, the user deactivated); returns the function that stops watching.
 */
export type WatchOperationCaller = (caller: WebSocketCaller, identity: GraphqlContext['identity'], ended: () => void) => () => void;

/** Operations one WebSocket connection may run at once (the realtime endpoint's channels per connection). */
const MAX_OPERATIONS_PER_CONNECTION = 100;
const TOO_MANY_OPERATIONS = new DomainError('throttled', `at most ${MAX_OPERATIONS_PER_CONNECTION} operations may run at once on one connection; complete one first`);

/** graphql-ws's close code for a connection whose credentials no longer hold (`CloseCode.Forbidden`). */
const FORBIDDEN = 4403;

/** A running operation: aborted when the client completes it or leaves; its caller's watch stopped when it ends. */
interface Operation {
  readonly controller: AbortController;
  unwatch?: () => void;
}

function webSocketTransport(
  pipeline: GraphqlPipeline,
  context: (caller: WebSocketCaller, signal: AbortSignal) => Promise<GraphqlContext>,
  watch: WatchOperationCaller,
  outcome: HandshakeOutcome,
  maxMessageBytes: number,
): WebSocketTransport {
  const { WebSocketServer } = require('ws') as typeof Ws;
  const { useServer } = require('graphql-ws/use/ws') as typeof GraphqlWsOverWs;
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  wss.on('wsClientError', (error, socket, req) => outcome.refuse(req, socket, new DomainError('invalid_input', error.message)));
  const { accepted } = outcome;
  if (accepted) wss.on('headers', (headers, req) => accepted(req, headers));
  const running = new WeakMap<object, Map<string, Operation>>();
  const operations = (ctx: object) => {
    let map = running.get(ctx);
    if (!map) running.set(ctx, (map = new Map()));
    return map;
  };
  const disposable = useServer(
    {
      schema: pipeline.schema,
      onConnect: (ctx) => {
        ctx.extra.socket.on('message', (data: RawData) => {
          const id = completedId(data);
          if (id !== undefined) operations(ctx).get(id)?.controller.abort(new Error('the client completed the operation'));
        });
      },
      onSubscribe: async (ctx, id, payload) => {
        const request = (ctx.extra as { request: IncomingMessage }).request;
        const param = (ctx.connectionParams as { authorization?: unknown } | undefined)?.authorization;
        // Each running operation holds a context, its loaders and, for a subscription, a watch:
        // bounded per socket as the realtime endpoint bounds channels.
        if (operations(ctx).size >= MAX_OPERATIONS_PER_CONNECTION) return [formatGraphqlError(new GraphQLError(TOO_MANY_OPERATIONS.message, { originalError: TOO_MANY_OPERATIONS }))];
        const operation: Operation = { controller: new AbortController() };
        const controller = operation.controller;
        operations(ctx).set(id, operation);
        // graphql-ws calls onComplete only for an operation that ran: a refused one frees its slot here.
        const refused = (errors: GraphQLError[]): GraphQLError[] => freed(operations(ctx), id, errors);
        const caller = { authorization: typeof param === 'string' ? param : request.headers.authorization, cookie: request.headers.cookie };
        let resolved: GraphqlContext;
        try {
          resolved = await context(caller, controller.signal);
        } catch (error) {
          // The caller could not be resolved (a credential invalid, or revoked since the connection
          // opened; the database down): that operation's error, with its code, as over HTTP a
          // 401 or 503, rather than graphql-ws closing the connection as an internal error (4500).
          if (error instanceof DomainError) return refused([formatGraphqlError(new GraphQLError(error.message, { originalError: error }))]);
          throw error;
        }
        const prepared = pipeline.prepare(payload, resolved);
        if (Array.isArray(prepared)) return refused(prepared as GraphQLError[]);
        // A logout or a deactivation while a subscription runs ends the connection: every operation
        // on it was identified by the same connection parameters and cookie. A query or mutation
        // answers at once and is not watched.
        if (isSubscription(prepared as ExecutionArgs)) {
          operation.unwatch = watch(caller, resolved.identity, () => ctx.extra.socket.close(FORBIDDEN, 'credential revoked'));
        }
        return prepared as never;
      },
      onComplete: (ctx, id) => {
        operations(ctx).get(id)?.unwatch?.();
        operations(ctx).delete(id);
      },
      onClose: (ctx) => {
        for (const operation of operations(ctx).values()) {
          operation.unwatch?.();
          operation.controller.abort(new Error('the client disconnected'));
        }
        running.delete(ctx);
      },
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map((e) => formatGraphqlError(e)) } : result),
    },
    wss,
  );
  wss.on('connection', quietOversizedMessages);
  return {
    upgrade: (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    close: async () => {
      await disposable.dispose();
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** Forgets the operation `id` (refused before it ran) and passes its errors on. */
function freed(running: Map<string, Operation>, id: string, errors: GraphQLError[]): GraphQLError[] {
  running.delete(id);
  return errors;
}

/**
 * A message over the size limit is the client's fault, and ws has already closed the socket with
 * 1009 (Message Too Big) when it emits the error. graphql-ws's listener, added when the socket
 * connected (before this one), would print it with console.error as an internal error of the
 * implementation, once per such message; it still gets every other error.
 */
function quietOversizedMessages(socket: Ws.WebSocket): void {
  for (const listener of socket.rawListeners('error')) {
    socket.removeListener('error', listener as (error: Error) => void);
    socket.once('error', (error: Error & { code?: string }) => {
      if (error.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') (listener as (error: Error) => void).call(socket, error);
    });
  }
}

/** The id of a `complete` message from the client, if `data` is one. */
function completedId(data: RawData): string | undefined {
  try {
    const message = JSON.parse(String(data)) as { type?: unknown; id?: unknown };
    return message.type === 'complete' && typeof message.id === 'string' ? message.id : undefined;
  } catch {
    return undefined; // graphql-ws answers malformed messages itself
  }
}
