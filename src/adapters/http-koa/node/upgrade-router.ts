import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemHeaders, toProblem } from '../problem-mapping.js';
import { HARDENING_HEADERS } from '../hardening-headers.js';
import { requestIdOf } from '../request-id.js';
import { DomainError, ShuttingDown } from '../../../domain/errors/domain-error.js';
import type { Logger } from '../../../ports/logger.js';
import { crossOriginSession, upgradeOriginPolicy, type UpgradeOriginPolicy } from './upgrade-origin.js';
import { replayWithoutUpgrade } from './upgrade-replay.js';
import { asksForWebSocket, malformedHandshake } from './websocket-handshake.js';

/** Serves one upgrade request (the socket is the handler's from then on). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** Where upgrades are logged: 5xx refusals as errors, and every upgrade as a `request` line when `requests` (REST's `logRequests`). */
export interface UpgradeLog {
  readonly logger: Logger;
  readonly requests: boolean;
}

/** What the router noted of each upgrade request it served: its id, when it came, where it is logged. */
interface SeenUpgrade {
  readonly requestId: string;
  readonly started: number;
  readonly log: UpgradeLog | undefined;
}
const SEEN = new WeakMap<IncomingMessage, SeenUpgrade>();

/**
 * The app's single `upgrade` listener: one `WebSocketServer({ server, path })` per transport
 * would break the others (ws answers 400 to upgrades for paths it does not own), so every
 * transport claims its exact pathname here and gets the upgrades sent to it.
 */
export class UpgradeRouter {
  private readonly handlers = new Map<string, UpgradeHandler>();

  constructor(
    private readonly draining: () => boolean,
    /** Which origins may open a socket the session cookie identifies (default: the server's own). */
    private readonly origins: UpgradeOriginPolicy = upgradeOriginPolicy(),
    /** Where upgrades are logged (the app's logger and `logRequests`; read when an upgrade comes). */
    private readonly log?: () => UpgradeLog,
  ) {}

  /** Claims `path` (its exact pathname); a path is claimed once. */
  add(path: string, handler: UpgradeHandler): void {
    if (!path.startsWith('/')) throw new Error(`onUpgrade: "${path}" is not an absolute path`);
    if (this.handlers.has(path)) throw new Error(`onUpgrade: ${path} is already served by another plugin`);
    this.handlers.set(path, handler);
  }

  /** Serves the upgrade requests of `server` (its `upgrade` listener). */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.serve(server, req, socket, head));
  }

  /**
   * One upgrade request: one that asks for another protocol than WebSocket is served as plain
   * HTTP; a WebSocket handshake is dispatched by pathname, or refused with a problem document: 404
   * (`not_found`) an unknown path, 503 (`overloaded`) while draining, 405 or 400 a malformed
   * handshake, 403 (`csrf_failed`) the session cookie sent from another origin, 500 a handler
   * that throws.
   */
  private serve(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (!asksForWebSocket(req)) return replayWithoutUpgrade(server, req, socket, head);
    socket.on('error', () => socket.destroy());
    SEEN.set(req, { requestId: requestIdOf(req.headers['x-request-id']), started: performance.now(), log: this.log?.() });
    const handler = this.handlers.get(pathnameOf(req.url));
    if (!handler) return refuseWithProblem(req, socket, new DomainError('not_found', 'no WebSocket endpoint at this path'));
    if (this.draining()) return refuseWithProblem(req, socket, new ShuttingDown());
    const malformed = malformedHandshake(req);
    if (malformed) return refuseWithProblem(req, socket, malformed);
    const crossOrigin = crossOriginSession(req, this.origins);
    if (crossOrigin) return refuseWithProblem(req, socket, new DomainError('csrf_failed', crossOrigin));
    try {
      handler(req, socket, head);
    } catch (error) {
      refuseWithProblem(req, socket, error);
    }
  }
}

function pathnameOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://upgrade.invalid').pathname;
  } catch {
    return '';
  }
}

/**
 * Answers the upgrade request `req` with the problem document of `error` (REST's mapping: a
 * DomainError keeps its code and detail, anything else is a 500 that says nothing of its cause),
 * with REST's `WWW-Authenticate` on a 401 and `Retry-After` when known, the request's
 * `X-Request-Id` (the caller's when well-formed), the hardening headers and `Cache-Control:
 * no-store`, and destroys the socket. A request that came through an `UpgradeRouter` is logged as
 * a REST request is: a 5xx with its cause, and a `request` line when the app logs requests.
 * Transports that refuse an upgrade after the router has handed it over use it too, so every
 * refused upgrade carries the same body and headers as a refused request.
 */
export function refuseWithProblem(req: IncomingMessage, socket: Duplex, error: unknown): void {
  const problem = toProblem(error);
  const seen = seenOf(req);
  const requestId = seen.requestId;
  if (seen.log && problem.status >= 500) seen.log.logger.error({ requestId, err: error }, 'a WebSocket upgrade failed');
  logRequest(req, seen, problem.status);
  const body = JSON.stringify(problem);
  if (!socket.writable) return void socket.destroy();
  const headers: Record<string, string> = {
    Connection: 'close',
    ...problemHeaders(problem, error),
    'X-Request-Id': requestId,
    ...HARDENING_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'application/problem+json',
    'Content-Length': String(Buffer.byteLength(body)),
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${problem.status} ${problem.title}\r\n${lines.join('')}\r\n${body}`, () => socket.destroy());
}

/**
 * Completes the answer to an accepted WebSocket handshake (`headers`, the lines of its 101, before
 * they are written): it carries the request's `X-Request-Id` as every answer does, and is logged
 * as a `request` line with status 101 when the app logs requests.
 */
export function acceptedUpgrade(req: IncomingMessage, headers: string[]): void {
  const seen = seenOf(req);
  headers.push(`X-Request-Id: ${seen.requestId}`);
  logRequest(req, seen, 101);
}

/** What the router noted of `req`; for a request that did not come through one, its id alone (nothing is logged). */
function seenOf(req: IncomingMessage): SeenUpgrade {
  return SEEN.get(req) ?? { requestId: requestIdOf(req.headers['x-request-id']), started: 0, log: undefined };
}

/** The `request` line of an upgrade that came through a router whose app logs requests. */
function logRequest(req: IncomingMessage, seen: SeenUpgrade, status: number): void {
  if (!seen.log?.requests) return;
  const ms = Math.round((performance.now() - seen.started) * 10) / 10;
  seen.log.logger.info({ requestId: seen.requestId, method: req.method, path: pathnameOf(req.url), status, ms }, 'request');
}

/** How the app answers a WebSocket handshake a transport completes: the refusal, the 101's request id and log line. */
export const HANDSHAKE_OUTCOME = { refuse: refuseWithProblem, accepted: acceptedUpgrade } as const;
