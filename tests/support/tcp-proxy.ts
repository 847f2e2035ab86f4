import net from 'node:net';

/**
 * A loopback TCP proxy that a test can cut (close the listener and reset every connection,
 * as a database host going away) and restore on the same port.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** While set, bytes in both directions are held back (a silent partition: nothing is refused, nothing arrives). */
  private held: (() => void)[] | undefined;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      const forward = (from: net.Socket, to: net.Socket) =>
        from.on('data', (chunk: Buffer) => {
          if (this.held) this.held.push(() => to.write(chunk));
          else to.write(chunk);
        });
      forward(client, upstream);
      forward(upstream, client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Refuses new connections and resets the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Starts holding every byte back, as a network that silently drops traffic (TCP would retransmit later). */
  hold(): void {
    this.held ??= [];
  }

  /** Delivers what was held, in order, and forwards again. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const deliver of held) deliver();
  }

  /** Listens again on the same port. */
  async restore(): Promise<void> {
    await this.start(this.port);
  }
}
