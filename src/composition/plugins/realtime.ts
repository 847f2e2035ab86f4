import { DEFAULT_REALTIME_LIMITS, RealtimeHub, type RealtimeLimits } from '../../adapters/realtime/realtime-hub.js';
import { AuthorizeChannel } from '../../application/realtime/authorize-channel.js';
import { PublishRealtime, type Realtime } from '../../application/realtime/publish-realtime.js';
import { RelayRealtimeEvents } from '../../application/realtime/relay-realtime-events.js';
import type { ChannelAuthorizer } from '../../domain/realtime/channel-authorization.js';
import { DeclaredChannels } from '../../domain/realtime/declared-channels.js';
import { openEventStream } from '../../adapters/realtime/sse-endpoint.js';
import { realtimeOverWebSocket } from '../../adapters/realtime/ws-endpoint.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS, type Token } from '../tokens.js';
import { callerOf, HANDSHAKE_OUTCOME } from '../../adapters/http-koa/index.js';

/** Options of `realtime()`; every bound is per process. */
export interface RealtimeOptions {
  /** Where the endpoints live: `<path>/events` (SSE) and `<path>/ws` (WebSocket). Default `/realtime`. */
  readonly path?: string;
  /** Milliseconds between heartbeats: an SSE comment line, a WebSocket ping (default 15000). */
  readonly heartbeatMs?: number;
  /** Events kept per channel for clients resuming with `Last-Event-ID` (default 100). */
  readonly bufferSize?: number;
  /** Channels whose recent events are kept; the least recently published is forgotten first (default 10000). */
  readonly maxBufferedChannels?: number;
  /** Messages a connection may have waiting to be sent (default 256); see `slowConsumerGraceMs`. */
  readonly maxQueue?: number;
  /** Bytes the process may hold for a connection (default 1 MiB); see `slowConsumerGraceMs`. */
  readonly maxQueueBytes?: number;
  /**
   * Milliseconds a connection may stay over `maxQueue` or `maxQueueBytes` with nothing drained
   * before it is disconnected as a `slow consumer` (default 2000): a burst to a reading client
   * is delivered whole.
   */
  readonly slowConsumerGraceMs?: number;
  /** Bytes beyond which a connection is disconnected as a `slow consumer` at once (default 16 MiB): the most one connection holds. */
  readonly maxQueueBytesHard?: number;
  /** Open connections per caller: per identity id, or per IP address for anonymous callers (default 10). */
  readonly maxConnectionsPerCaller?: number;
  /** Channels one WebSocket connection may listen to at once (default 100). */
  readonly maxChannelsPerConnection?: number;
}

/** Options of a channel declared with `realtime().channel(pattern, options)`. */
export interface RealtimeChannelOptions {
  /**
   * Whether the caller may listen: sees `identity`, the pattern's `params` and the `channel`.
   * Absent: everyone may. A refusal answers 401 to an anonymous caller and 403 to an identified
   * one over SSE, an `error` message (`not_authenticated`/`forbidden`) over WebSocket.
   */
  readonly authorize?: ChannelAuthorizer;
}

/** The publishing side of the realtime plugin, bound when it installs (`app.realtime`, `ctx.get(REALTIME_TOKEN)`). */
export const REALTIME_TOKEN: Token<Realtime> = TOKENS.Realtime;

/**
 * The realtime plugin: application-defined channels with parameters, served as
 * EventSource-compatible SSE (`GET /realtime/events?channel=…`, resumable with `Last-Event-ID`
 * from a bounded per-channel buffer) and over WebSocket (`/realtime/ws`). `app.realtime.publish`
 * on any process reaches the listeners on every process (through the app's event bus: run it with
 * `events: 'postgresql'` or `{ redis }` for several processes). Each connection has a bounded
 * queue (a slow consumer is disconnected with a reason), heartbeats, and a cap per caller.
 *
 * @example
 * app.use(realtime().channel('chat/:room', { authorize: ({ identity, params }) => identity.isAuthenticated && params.room !== 'staff' }).channel('news'));
 * await app.realtime.publish('chat/42', { text: 'hello' });
 */
export class RealtimePlugin implements Plugin {
  /** The plugin's name. */
  readonly name = 'realtime';
  private readonly declared: { pattern: string; authorize: ChannelAuthorizer | undefined }[] = [];

  constructor(private readonly options: RealtimeOptions = {}) {}

  /** Declares a channel pattern: literal segments and `:name` parameters (`chat/:room`), URL-safe characters only. */
  channel(pattern: string, options: RealtimeChannelOptions = {}): this {
    this.declared.push({ pattern, authorize: options.authorize });
    return this;
  }

  /** Serves the endpoints, binds {@link REALTIME_TOKEN}, and feeds the event bus's realtime topic to the hub. */
  install(ctx: PluginContext): void {
    const { path = '/realtime', ...bounds } = this.options;
    const limits: RealtimeLimits = { ...DEFAULT_REALTIME_LIMITS, ...definedOnly(bounds) };
    const channels = new DeclaredChannels();
    for (const { pattern, authorize } of this.declared) channels.declare(pattern, authorize);
    const hub = new RealtimeHub(limits);
    const authorize = new AuthorizeChannel(channels);
    const stopListening = new RelayRealtimeEvents(channels, ctx.events, hub).start();
    ctx.bind(TOKENS.Realtime, new PublishRealtime(channels, ctx.events, ctx.clock, ctx.random));
    ctx.route({
      method: 'GET',
      path: `${path}/events`,
      handler: (req) =>
        openEventStream(hub, authorize, {
          channel: req.query.channel,
          lastEventId: req.headers['last-event-id'] ?? req.query.lastEventId,
          ip: req.ip,
          draining: ctx.isDraining(),
          identity: () => req.identity(),
          watch: (identity, ended) => ctx.watchCaller(callerOf(req.headers), identity, ended),
        }),
    });
    const ws = realtimeOverWebSocket(
      hub,
      authorize,
      (req) => ctx.identify(callerOf(req.headers)),
      (req, identity, ended) => ctx.watchCaller(callerOf(req.headers), identity, ended),
      HANDSHAKE_OUTCOME,
    );
    ctx.onUpgrade(`${path}/ws`, ws.upgrade);
    ctx.onListen(() => async () => {
      hub.closeAll('server shutting down');
      await ws.close();
      stopListening();
    });
    ctx.advertise({ group: 'realtime', name: 'realtime-sse', method: 'GET', path: `${path}/events`, label: 'Realtime channels over SSE (?channel=…)' });
    ctx.advertise({ group: 'realtime', name: 'realtime-ws', method: 'GET', path: `${path}/ws`, label: 'Realtime channels over WebSocket' });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Creates the realtime plugin; declare its channels with `.channel(pattern, { authorize })`. */
export function realtime(options: RealtimeOptions = {}): RealtimePlugin {
  return new RealtimePlugin(options);
}
