import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemHeaders, toProblem } from '../adapters/http-koa/problem-mapping.js';
import { requestIdOf } from '../adapters/http-koa/request-id.js';
import { DomainError, ShuttingDown } from '../domain/errors/domain-error.js';
import type { Logger } from '../ports/logger.js';
import { crossOriginSession, upgradeOriginPolicy, type UpgradeOriginPolicy } from './upgrade-origin.js';

/** Serves one upgrade request (the socket is the handler's from then on). */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

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
    /** Where a handler that throws is logged (the app's logger; read when one does). */
    private readonly logger?: () => Logger,
  ) {}

  /** Claims `path` (its exact pathname); a path is claimed once. */
  add(path: string, handler: UpgradeHandler): void {
    if (!path.startsWith('/')) throw new Error(`onUpgrade: "${path}" is not an absolute path`);
    if (this.handlers.has(path)) throw new Error(`onUpgrade: ${path} is already served by another plugin`);
    this.handlers.set(path, handler);
  }

  /**
   * The `upgrade` listener: dispatches by pathname; refuses with a problem document 404
   * (`not_found`) an unknown path, 503 (`overloaded`) while draining, 403 (`csrf_failed`) the
   * session cookie sent from another origin, 500 a handler that throws.
   */
  readonly listener = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const handler = this.handlers.get(pathnameOf(req.url));
    if (!handler) return refuseWithProblem(req, socket, new DomainError('not_found', 'no WebSocket endpoint at this path'));
    if (this.draining()) return refuseWithProblem(req, socket, new ShuttingDown());
    const crossOrigin = crossOriginSession(req, this.origins);
    if (crossOrigin) return refuseWithProblem(req, socket, new DomainError('csrf_failed', crossOrigin));
    try {
      handler(req, socket, head);
    } catch (error) {
      refuseWithProblem(req, socket, error, this.logger?.());
    }
  };
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
 * `X-Request-Id` (the caller's when well-formed), `nosniff` and `Cache-Control: no-store`, and
 * destroys the socket; with a `logger`, a 5xx is logged with its cause and request id, as REST
 * logs one. Transports that refuse an upgrade after the router has handed it over use it too, so
 * every refused upgrade carries the same body and headers as a refused request.
 */
export function refuseWithProblem(req: IncomingMessage, socket: Duplex, error: unknown, logger?: Logger): void {
  const problem = toProblem(error);
  const requestId = requestIdOf(req.headers['x-request-id']);
  if (logger && problem.status >= 500) logger.error({ requestId, err: error }, 'a WebSocket upgrade failed');
  const body = JSON.stringify(problem);
  if (!socket.writable) return void socket.destroy();
  const headers: Record<string, string> = {
    Connection: 'close',
    ...problemHeaders(problem, error),
    'X-Request-Id': requestId,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    'Content-Type': 'application/problem+json',
    'Content-Length': String(Buffer.byteLength(body)),
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${problem.status} ${problem.title}\r\n${lines.join('')}\r\n${body}`, () => socket.destroy());
}
