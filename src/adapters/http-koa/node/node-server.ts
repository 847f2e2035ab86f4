import type { IncomingMessage, RequestListener, Server, ServerOptions } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Duplex } from 'node:stream';
import type { UpgradeOriginPolicy } from './upgrade-origin.js';
import { UpgradeRouter, type UpgradeLog } from './upgrade-router.js';
import { asksForWebSocket } from './websocket-handshake.js';

/** What the Node server of an app reads: whether the app drains, who may open a socket with the session cookie, where upgrades are logged. */
export interface NodeServerOptions {
  /** True once the app drains: every response closes its connection, every WebSocket upgrade is refused 503. */
  readonly draining: () => boolean;
  /** Which origins may open a socket the session cookie identifies (AppOptions.trustedOrigins, trustedProxyHops). */
  readonly origins: UpgradeOriginPolicy;
  /** Where upgrades are logged (read when an upgrade comes). */
  readonly log: () => UpgradeLog;
}

/** Where a listening server is reached. */
export interface Listening {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
}

/**
 * The Node HTTP server that hosts the app's request listener (the Koa app's callback): it owns
 * the `http.Server`, its single `upgrade` listener (the `UpgradeRouter`), the `Connection: close`
 * of every response while the app drains, and the server's side of a graceful close.
 */
export class NodeServer {
  private readonly upgrades: UpgradeRouter;
  private server?: Server;

  constructor(private readonly options: NodeServerOptions) {
    this.upgrades = new UpgradeRouter(options.draining, options.origins, options.log);
  }

  /** Serves WebSocket handshakes whose pathname is exactly `path` (PluginContext.onUpgrade); a path is claimed once. */
  onUpgrade(path: string, handler: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): void {
    this.upgrades.add(path, handler);
  }

  /** Creates the server for `listener` and listens on `port` and `host`. */
  async listen(listener: RequestListener, port: number, host: string): Promise<Listening> {
    // While draining, every response closes its connection: keep-alive clients get their answer,
    // then a clean close, rather than a reset on a socket the server is about to drop.
    const handler: RequestListener = (req, res) => {
      if (this.options.draining()) res.setHeader('Connection', 'close');
      return listener(req, res);
    };
    // Node 24.9+ leaves a request that asks for another protocol than WebSocket to the request
    // listener itself; on older Node the upgrade router replays it (decisions.md, "Requests with an Upgrade header").
    const options = { shouldUpgradeCallback: asksForWebSocket } as ServerOptions;
    const server = (await import('node:http')).createServer(options, handler);
    this.server = server;
    this.upgrades.attach(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error(`the server listens on ${String(address)}, not a TCP port`);
    return { server, port: address.port, url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}` };
  }

  /**
   * Stops the server, if it listens: it stops accepting connections and closes the idle ones;
   * long-lived responses (event streams) get `graceMs`, then their connections are cut. After a
   * drain (`drainMs` > 0), connections accepted a moment ago get 250 ms to send their request
   * before the idle ones are closed. Resolves when the server has closed.
   */
  async close(graceMs: number, drainMs: number): Promise<void> {
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      const closed = () => {
        clearTimeout(cut);
        resolve();
      };
      if (drainMs > 0) {
        // Stop accepting first (net.Server's close: http's would also drop idle sockets at once),
        // let connections accepted a moment ago send their request, then close the idle ones.
        netClose.call(server, closed);
        void new Promise((wait) => setTimeout(wait, 250)).then(() => server.closeIdleConnections());
      } else {
        server.close(closed);
        server.closeIdleConnections();
      }
    });
  }
}

/** net.Server's close: stops accepting without http.Server's immediate drop of idle connections. */
const netClose = NetServer.prototype.close;
