import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A WebSocket client on a plain TCP socket (RFC 6455 by hand), for a client that stops reading:
 * `pause()` stops taking bytes off the socket, so the kernel buffers fill and then the server's
 * queue; `resume()` reads again. It keeps count of the text messages and notes the close frame.
 */
export class RawWebSocket {
  private buffer: Buffer = Buffer.alloc(0);
  texts = 0;
  /** The last text message received. */
  last = '';
  private waiting: { n: number; resolve: () => void } | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;
  private onClose!: (close: { code: number; reason: string }) => void;

  private constructor(private readonly socket: Socket) {
    this.closed = new Promise((resolve) => (this.onClose = resolve));
    socket.on('close', () => this.onClose({ code: 1006, reason: '' }));
  }

  /** Opens `ws://host:port/path` and resolves once the server has switched protocols. */
  static open(url: string): Promise<RawWebSocket> {
    const { hostname, port, pathname } = new URL(url);
    const socket = connect(Number(port), hostname);
    const client = new RawWebSocket(socket);
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.once('connect', () => {
        const key = randomBytes(16).toString('base64');
        socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      });
      let head = Buffer.alloc(0);
      const onHead = (chunk: Buffer): void => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onHead);
        if (!head.subarray(0, end).toString().startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${head.subarray(0, end).toString()}`));
        socket.on('data', (data: Buffer) => client.read(data));
        client.read(head.subarray(end + 4));
        resolve(client);
      };
      socket.on('data', onHead);
    });
  }

  /** Sends a JSON text message (masked, as a client must). */
  send(message: unknown): void {
    const payload = Buffer.from(JSON.stringify(message));
    const mask = randomBytes(4);
    const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
    const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  /** Resolves once `n` text messages have arrived; rejects after `timeoutMs` with the count so far. */
  async received(n: number, timeoutMs = 30_000): Promise<void> {
    if (this.texts >= n) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (this.waiting = { n, resolve })),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${this.texts} of ${n} messages in time`)), timeoutMs))),
    ]).finally(() => clearTimeout(timer));
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private read(data: Buffer): void {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    for (;;) {
      if (this.buffer.length < 2) return;
      const opcode = (this.buffer[0] as number) & 0x0f;
      let length = (this.buffer[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.buffer.length < offset + length) return;
      const payload = this.buffer.subarray(offset, offset + length);
      this.buffer = this.buffer.subarray(offset + length);
      if (opcode === 0x1) {
        this.texts++;
        this.last = payload.toString();
        if (this.waiting && this.texts >= this.waiting.n) {
          this.waiting.resolve();
          this.waiting = undefined;
        }
      }
      else if (opcode === 0x8) this.onClose({ code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString() });
    }
  }
}
