import { PassThrough, type Readable } from 'node:stream';
import type { AuthorizeChannel } from '../../application/realtime/authorize-channel.js';
import type { Identity } from '../../domain/auth/identity.js';
import type { ChannelRefusal } from '../../domain/realtime/channel-authorization.js';
import { DomainError, ShuttingDown } from '../../domain/errors/domain-error.js';
import { callerKey } from './caller-key.js';
import { MAX_CHANNEL_LENGTH, MAX_EVENT_ID_LENGTH } from './request-limits.js';
import type { RealtimeHub } from './realtime-hub.js';
import { encodedOnce, type ChannelMessage, type ConnectionSink, type DisconnectReason } from './realtime-connection.js';

/** What the SSE endpoint reads of a request (the HTTP adapter converts its own request to this). */
export interface SseRequest {
  /** The `channel` query parameter. */
  readonly channel: unknown;
  /** The `Last-Event-ID` header (sent by EventSource when it reconnects), else the `lastEventId` query parameter. */
  readonly lastEventId: unknown;
  readonly ip: string;
  /** True while the app drains: new streams are refused (503). */
  readonly draining: boolean;
  identity(): Promise<Identity>;
  /** Watches the caller's credential: `ended` runs once it is revoked; returns the function that stops watching. */
  watch?(identity: Identity, ended: () => void): () => void;
}

/** A 200 event stream. */
export interface SseResponse {
  readonly status: 200;
  readonly type: 'text/event-stream';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Readable;
}

/** How long a stream the server ended may take to flush its last lines before it is cut. */
const END_GRACE_MS = 2000;

/**
 * `GET /realtime/events?channel=…`: one channel as an EventSource-compatible stream. Each event
 * is `id: <id>`, `event: message`, `data: <json>`; a resume (`Last-Event-ID`) first replays the
 * buffered events after that id, or sends `event: gap` when they are no longer buffered. A
 * refusal throws a DomainError (the HTTP adapter answers problem+json): unknown channel 404,
 * anonymous caller refused 401, identified caller refused 403 (`authorize` decides), too many
 * connections 429.
 */
export async function openEventStream(hub: RealtimeHub, authorize: AuthorizeChannel, req: SseRequest): Promise<SseResponse> {
  if (req.draining) throw new ShuttingDown();
  const channel = single('channel', req.channel, MAX_CHANNEL_LENGTH);
  if (!channel) throw new DomainError('invalid_input', 'the channel query parameter is required', [{ field: 'channel', message: 'required' }]);
  const lastEventId = single('lastEventId', req.lastEventId, MAX_EVENT_ID_LENGTH);
  const identity = await req.identity();
  const admission = await authorize.execute(channel, identity);
  if (!admission.ok) throw refusal(admission.code, channel);
  const stream = new PassThrough();
  const connection = hub.connect(callerKey(identity, req.ip), sseSink(stream));
  if (!connection) {
    stream.destroy();
    throw new DomainError('throttled', `too many open realtime connections (at most ${hub.limits.maxConnectionsPerCaller} per caller)`);
  }
  // A logout or a deactivation after the stream opened ends it (`event: disconnect`, reason `credential revoked`).
  const unwatch = req.watch?.(identity, () => connection.close('credential revoked'));
  stream.once('close', () => {
    unwatch?.();
    connection.released();
  });
  connection.push(': connected\n\n');
  hub.subscribe(connection, channel, lastEventId);
  return {
    status: 200,
    type: 'text/event-stream',
    headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
    body: stream,
  };
}

function refusal(code: ChannelRefusal, channel: string): DomainError {
  if (code === 'not_found') return new DomainError('not_found', `no realtime channel "${channel}"`);
  if (code === 'not_authenticated') return new DomainError('not_authenticated', `sign in to listen to "${channel}"`);
  return new DomainError('forbidden', `you may not listen to "${channel}"`);
}

/**
 * One parameter's value: undefined when absent or empty; 400 when given more than once (a stream
 * serves one channel: taking the first would drop the others unsaid) or longer than `max` (the
 * WebSocket endpoint's limits).
 */
function single(field: string, value: unknown, max: number): string | undefined {
  if (Array.isArray(value)) {
    const why = field === 'channel' ? ' (a stream serves one channel; the WebSocket endpoint serves several)' : '';
    throw new DomainError('invalid_input', `${field} may be given once${why}`, [{ field, message: 'given more than once' }]);
  }
  if (typeof value !== 'string' || value === '') return undefined;
  if (value.length > max) throw new DomainError('invalid_input', `${field} is longer than ${max} characters`, [{ field, message: `longer than ${max} characters` }]);
  return value;
}

/** SSE text for a channel message. */
export function sseText(message: ChannelMessage): string {
  if (message.kind === 'event') return `id: ${message.id}\nevent: message\ndata: ${JSON.stringify(message.data)}\n\n`;
  return `event: gap\ndata: ${JSON.stringify({ lastEventId: message.lastEventId, reason: message.reason })}\n\n`;
}

const sseEncoded = encodedOnce(sseText);

/** Writes to the response stream; ending it says why (`event: disconnect`) and cuts a client that does not read it. */
function sseSink(stream: PassThrough): ConnectionSink {
  return {
    encode: sseEncoded,
    write: (text) => void stream.write(text),
    // Both sides of the pass-through: what was written and what the response has not taken yet.
    queuedBytes: () => stream.writableLength + stream.readableLength,
    size: (text) => Buffer.byteLength(text),
    heartbeat: () => ': heartbeat\n\n',
    close: (reason: DisconnectReason) => {
      if (stream.destroyed) return;
      stream.end(`event: disconnect\ndata: ${JSON.stringify({ reason })}\n\n`);
      const cut = setTimeout(() => stream.destroy(), END_GRACE_MS).unref();
      stream.once('close', () => clearTimeout(cut));
    },
  };
}
