import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type * as Ws from 'ws';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { AuthorizeChannel } from '../../application/realtime/authorize-channel.js';
import type { Identity } from '../../domain/auth/identity.js';
import type { ErrorCode } from '../../domain/errors/codes.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { callerKey } from './caller-key.js';
import { REALTIME_CODE_BY_CODE } from './error-codes.js';
import type { RealtimeHub } from './realtime-hub.js';
import { encodedOnce, type ChannelMessage, type ConnectionSink, type DisconnectReason, type RealtimeConnection } from './realtime-connection.js';
import { MAX_CHANNEL_LENGTH, MAX_EVENT_ID_LENGTH } from './request-limits.js';

/** Close codes: 1001 going away (shutdown), 1008 policy violation (slow consumer), 1013 try again later (too many connections). */
const CLOSE_CODES: Readonly<Record<DisconnectReason, number>> = { 'server shutting down': 1001, 'slow consumer': 1008, 'heartbeat timeout': 1011, 'credential revoked': 1008 };
const TOO_MANY = 1013;
/** How long a closing socket may take to complete the close handshake before it is cut. */
const CLOSE_GRACE_MS = 2000;
const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * Watches the credential a connection was opened with: `ended` runs once it is revoked (logout) or
 * its user deactivated; the returned function stops watching.
 */
export type WatchCaller = (req: IncomingMessage, identity: Identity, ended: () => void) => () => void;

/** A WebSocket transport without a server of its own: the app routes the upgrades of its path to `upgrade`. */
export interface RealtimeWebSocket {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes the server (the hub has already ended the connections) and cuts what has not closed after a moment. */
  close(): Promise<void>;
}

export type { RealtimeErrorCode } from './error-codes.js';

/**
 * `/realtime/ws`: the channels over WebSocket, JSON text messages. The client sends
 * `{"type":"subscribe","channel":"chat/42","lastEventId"?:"…"}` and `{"type":"unsubscribe","channel":"…"}`;
 * the server answers `subscribed`/`unsubscribed`, then sends `event` (`channel`, `id`, `data`),
 * `gap` (`channel`, `lastEventId`, `reason`) and `error` (`channel`?, `code`, `message`). The caller is
 * identified once, from the upgrade request; a present but invalid bearer token is refused 401,
 * through `outcome.refuse` (401 `not_authenticated`, 503 while the database is out, else 500).
 */
export function realtimeOverWebSocket(
  hub: RealtimeHub,
  /** Whether a caller may listen to a channel it subscribes to. */
  authorize: AuthorizeChannel,
  identify: (req: IncomingMessage) => Promise<Identity>,
  watch: WatchCaller,
  /** How the app answers the handshake: the refusal of one whose caller could not be identified, the 101 of one accepted. */
  outcome: HandshakeOutcome,
): RealtimeWebSocket {
  let wss: WebSocketServer | undefined;
  // ws is loaded with the first upgrade: an app nobody has opened a socket to holds none of it.
  const server = () => (wss ??= answering(new (createRequire(import.meta.url)('ws') as typeof Ws).WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES }), outcome));
  return {
    upgrade: (req, socket, head) => {
      identify(req).then(
        (identity) =>
          server().handleUpgrade(req, socket, head, (ws) => serve(hub, authorize, ws, identity, req.socket.remoteAddress ?? 'unknown', (ended) => watch(req, identity, ended))),
        (error: unknown) => outcome.refuse(req, socket, error),
      );
    },
    close: async () => {
      const current = wss;
      if (!current) return;
      const open = [...current.clients].filter((ws) => ws.readyState !== ws.CLOSED);
      await Promise.race([Promise.all(open.map((ws) => new Promise((r) => ws.once('close', r)))), new Promise((r) => setTimeout(r, 500))]);
      for (const ws of current.clients) ws.terminate();
      await new Promise<void>((resolve) => current.close(() => resolve()));
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

/**
 * `wss` answering through `outcome`: a handshake ws finds malformed (an unparsable
 * Sec-WebSocket-Protocol) is refused 400, not in ws's text/html; an accepted one's 101 completed.
 */
function answering(wss: WebSocketServer, outcome: HandshakeOutcome): WebSocketServer {
  wss.on('wsClientError', (error, socket, req) => outcome.refuse(req, socket, new DomainError('invalid_input', error.message)));
  const { accepted } = outcome;
  if (accepted) wss.on('headers', (headers, req) => accepted(req, headers));
  return wss;
}

/** One socket: admitted against the per-caller cap, then its messages handled one at a time, in order. */
function serve(hub: RealtimeHub, authorize: AuthorizeChannel, ws: WebSocket, identity: Identity, ip: string, watch: (ended: () => void) => () => void): void {
  const connection = hub.connect(callerKey(identity, ip), wsSink(ws));
  if (!connection) return ws.close(TOO_MANY, `too many connections (at most ${hub.limits.maxConnectionsPerCaller} per caller)`);
  // The caller was identified at the upgrade: a logout or a deactivation since then ends the socket.
  const unwatch = watch(() => connection.close('credential revoked'));
  ws.once('close', () => {
    unwatch();
    connection.released();
  });
  ws.on('error', () => ws.terminate());
  let queue: Promise<void> = Promise.resolve();
  ws.on('message', (data: RawData, isBinary: boolean) => {
    queue = queue.then(() => handle(hub, authorize, connection, identity, isBinary ? undefined : String(data))).catch((error: unknown) => {
      if (error instanceof DomainError) refuse(connection, error.code, error.detail);
      else refuse(connection, 'internal_error', 'the subscription could not be checked');
    });
  });
}

type ClientMessage = { type: 'subscribe'; channel: string; lastEventId?: string } | { type: 'unsubscribe'; channel: string };

async function handle(hub: RealtimeHub, authorize: AuthorizeChannel, connection: RealtimeConnection, identity: Identity, text: string | undefined): Promise<void> {
  const message = parse(text);
  if (!message) return refuse(connection, 'invalid_input', 'expected {"type":"subscribe"|"unsubscribe","channel":"…","lastEventId"?:"…"}');
  const { channel } = message;
  if (message.type === 'unsubscribe') {
    hub.unsubscribe(connection, channel);
    return reply(connection, { type: 'unsubscribed', channel });
  }
  if (!connection.channels.has(channel) && connection.channels.size >= hub.limits.maxChannelsPerConnection) {
    return refuse(connection, 'throttled', `at most ${hub.limits.maxChannelsPerConnection} channels per connection`, channel);
  }
  const admission = await authorize.execute(channel, identity);
  if (!admission.ok) {
    const text = { not_found: `no realtime channel "${channel}"`, not_authenticated: `sign in to listen to "${channel}"`, forbidden: `you may not listen to "${channel}"` };
    return refuse(connection, admission.code, text[admission.code], channel);
  }
  reply(connection, { type: 'subscribed', channel });
  hub.subscribe(connection, channel, message.lastEventId);
}

function reply(connection: RealtimeConnection, message: { type: 'subscribed' | 'unsubscribed'; channel: string }): void {
  connection.push(JSON.stringify(message));
}

/** An `error` message: the registry `code` as the wire code REALTIME_CODE_BY_CODE gives it. */
function refuse(connection: RealtimeConnection, code: ErrorCode, message: string, channel?: string): void {
  connection.push(JSON.stringify({ type: 'error', ...(channel !== undefined ? { channel } : {}), code: REALTIME_CODE_BY_CODE[code], message }));
}

function parse(text: string | undefined): ClientMessage | undefined {
  let value: unknown;
  try {
    value = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, channel, lastEventId } = value as Record<string, unknown>;
  if (typeof channel !== 'string' || channel.length > MAX_CHANNEL_LENGTH) return undefined;
  if (type === 'unsubscribe') return { type, channel };
  if (type !== 'subscribe') return undefined;
  if (lastEventId === undefined) return { type, channel };
  return typeof lastEventId === 'string' && lastEventId.length <= MAX_EVENT_ID_LENGTH ? { type, channel, lastEventId } : undefined;
}

/** WebSocket text for a channel message. */
export function wsText(message: ChannelMessage): string {
  if (message.kind === 'event') return JSON.stringify({ type: 'event', channel: message.channel, id: message.id, data: message.data });
  return JSON.stringify({ type: 'gap', channel: message.channel, lastEventId: message.lastEventId, reason: message.reason });
}

const wsEncoded = encodedOnce(wsText);

/** Sends over the socket; heartbeats are pings, and a socket that missed the last pong is cut. */
function wsSink(ws: WebSocket): ConnectionSink {
  let alive = true;
  ws.on('pong', () => (alive = true));
  return {
    encode: wsEncoded,
    write: (text) => ws.send(text),
    queuedBytes: () => ws.bufferedAmount,
    // The socket counts a text frame's payload in characters (and its header in bytes).
    size: (text) => text.length,
    heartbeat: () => {
      if (!alive) ws.terminate();
      else {
        alive = false;
        ws.ping();
      }
      return undefined;
    },
    close: (reason) => {
      ws.close(CLOSE_CODES[reason], reason);
      setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
    },
  };
}
