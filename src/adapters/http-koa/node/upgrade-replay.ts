import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** The headers that ask for an upgrade (RFC 9110 §7.8, RFC 7540 §3.2); the replayed request goes without them. */
const UPGRADE_HEADERS = new Set(['upgrade', 'http2-settings']);

/**
 * Serves a request that asks to upgrade to a protocol other than WebSocket (`Upgrade: h2c`, which
 * `curl --http2` and Java's HttpClient send over plain HTTP) as the plain HTTP/1.1 request it
 * also is: RFC 9110 §7.8 lets a server ignore `Upgrade`. Node hands every request with an
 * `Upgrade` header to the `upgrade` listener, its headers parsed and the rest of the stream unread;
 * so its request line and headers, less the upgrade's, are put back in front of that rest and the
 * connection is handed to the server's HTTP parser again. The body (by length or chunked) and any
 * later request on the connection are then read as on any other connection, from the same socket
 * (its address, its TLS).
 */
export function replayWithoutUpgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    const value = raw[i + 1] as string;
    const lower = name.toLowerCase();
    if (UPGRADE_HEADERS.has(lower)) continue;
    if (lower === 'connection') {
      const kept = value
        .split(',')
        .map((option) => option.trim())
        .filter((option) => option !== '' && !UPGRADE_HEADERS.has(option.toLowerCase()));
      if (kept.length > 0) lines.push(`${name}: ${kept.join(', ')}`);
      continue;
    }
    lines.push(`${name}: ${value}`);
  }
  // Node read the head as latin1 (one byte a character), so latin1 gives back the bytes it read.
  socket.unshift(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}
