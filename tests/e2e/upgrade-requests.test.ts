import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startReference, type RunningReference } from '../support/reference-server.js';

/** Writes `text` on a new connection to the app and resolves with everything it answers until it closes. */
function exchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (d) => (answer += String(d)));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function statusOf(answer: string): string {
  return answer.split('\r\n')[0] ?? '';
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

/** What `curl --http2` and Java's HttpClient add to a plain-HTTP request. */
const H2C = 'Connection: Upgrade, HTTP2-Settings, close\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n';
const HANDSHAKE = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

/**
 * Node hands every request with an `Upgrade` header to the app's upgrade listener, so requests
 * that ask for another protocol, and WebSocket handshakes ws would refuse in text/html, are
 * answered there: the first as plain HTTP, the second with the app's problem document.
 */
describe('requests with an Upgrade header, on the reference app', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  it('serves a REST read and a JSON login that ask to upgrade to h2c as the HTTP/1.1 requests they are', async () => {
    const plain = await (await ref.get('/api/author/1')).json();
    const read = await exchange(ref.url, `GET /api/author/1 HTTP/1.1\r\nHost: x\r\n${H2C}\r\n`);
    expect(statusOf(read)).toBe('HTTP/1.1 200 OK');
    expect(bodyOf(read)).toEqual(plain);
    // The JSON body comes through whole: the login succeeds.
    const credentials = JSON.stringify({ username: 'alice', password: 'alice-password-1' });
    const login = await exchange(
      ref.url,
      `POST /api/auth/login HTTP/1.1\r\nHost: x\r\n${H2C}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(credentials)}\r\n\r\n${credentials}`,
    );
    expect(statusOf(login)).toBe('HTTP/1.1 200 OK');
    expect(bodyOf(login)).toMatchObject({ user: { username: 'alice' }, token: expect.any(String) });
  });

  it('keeps such a connection alive for later requests, and closes it on shutdown as any idle one', async () => {
    const other = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    const { hostname, port } = new URL(other.url);
    const socket = connect(Number(port), hostname);
    let answer = '';
    socket.on('data', (d) => (answer += String(d)));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`GET /api/author/1 HTTP/1.1\r\nHost: x\r\n${H2C.replace(', close', '')}\r\n`);
    await expect.poll(() => answer).toContain('"name"');
    expect(answer).toContain('\r\nConnection: keep-alive\r\n');
    socket.write('GET /api/author/2 HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => answer.match(/HTTP\/1\.1 200 OK/g)?.length).toBe(2);
    const started = Date.now();
    await other.close();
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answers an accepted handshake 101 with the request id, as every answer carries one', async () => {
    for (const [path, protocol] of [['/graphql/ws', 'graphql-transport-ws'], ['/realtime/ws', undefined]] as const) {
      const ws = new WebSocket(`${ref.url.replace('http://', 'ws://')}${path}`, protocol, { headers: { 'X-Request-Id': `trace-${path.length}` } });
      const head = await new Promise<Record<string, unknown>>((resolve, reject) => {
        ws.once('upgrade', (res) => resolve(res.headers));
        ws.once('error', reject);
      });
      ws.close();
      expect(head['x-request-id']).toBe(`trace-${path.length}`);
    }
  });

  it('refuses malformed WebSocket handshakes with the problem document on both transports', async () => {
    for (const path of ['/graphql/ws', '/realtime/ws']) {
      const noKey = await exchange(ref.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      expect(statusOf(noKey)).toBe('HTTP/1.1 400 Bad Request');
      expect(noKey).toContain('\r\nContent-Type: application/problem+json\r\n');
      expect(bodyOf(noKey)).toMatchObject({ code: 'invalid_input', detail: 'missing or invalid Sec-WebSocket-Key header (16 bytes in base64)' });
      const post = await exchange(ref.url, `POST ${path} HTTP/1.1\r\nHost: x\r\n${HANDSHAKE}Content-Length: 0\r\n\r\n`);
      expect(statusOf(post)).toBe('HTTP/1.1 405 Method Not Allowed');
      expect(post).toContain('\r\nAllow: GET\r\n');
      // The subprotocol list is parsed by ws, once the caller is identified: its refusal is the app's too.
      const protocol = await exchange(ref.url, `GET ${path} HTTP/1.1\r\nHost: x\r\n${HANDSHAKE}Sec-WebSocket-Protocol: graphql-transport-ws,,x\r\n\r\n`);
      expect(statusOf(protocol)).toBe('HTTP/1.1 400 Bad Request');
      expect(bodyOf(protocol)).toMatchObject({ code: 'invalid_input', detail: 'Invalid Sec-WebSocket-Protocol header' });
      expect(protocol).toContain('\r\nX-Frame-Options: DENY\r\n');
    }
  });
});
