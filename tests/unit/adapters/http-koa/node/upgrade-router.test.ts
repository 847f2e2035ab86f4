import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { upgradeOriginPolicy } from '../../../../../src/adapters/http-koa/node/upgrade-origin.js';
import { UpgradeRouter } from '../../../../../src/adapters/http-koa/node/upgrade-router.js';
import { ShuttingDown } from '../../../../../src/domain/errors/domain-error.js';
import type { Logger } from '../../../../../src/ports/logger.js';

/** Sends a raw upgrade request and resolves with the first response line (and the whole answer). */
function upgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return upgradeAnswer(port, path, headers).then((text) => text.split('\r\n')[0] ?? '');
}

/** A well-formed opening handshake (RFC 6455 §4.1); `headers` add to it or replace its own (an empty value drops one). */
const HANDSHAKE = { Host: 'x', Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' };

function upgradeAnswer(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<string> {
  return new Promise((resolve, reject) => {
    const all = Object.entries({ ...HANDSHAKE, ...headers }).filter(([, v]) => v !== '');
    const lines = all.map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${method} ${path} HTTP/1.1\r\n${lines}\r\n`);
    });
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The problem document of a refused upgrade's answer (it must be one). */
function problemOf(answer: string): Record<string, unknown> {
  expect(answer).toContain('Content-Type: application/problem+json');
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
}

describe('UpgradeRouter: one upgrade listener for every WebSocket transport', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise<void>((r) => server.close(() => r()))));
  });

  async function serve(router: UpgradeRouter): Promise<number> {
    const server = createServer((_req, res) => res.end());
    servers.push(server);
    router.attach(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as { port: number }).port;
  }

  it('dispatches by exact pathname (the query is ignored) and answers an unknown path 404', async () => {
    let draining = false;
    const router = new UpgradeRouter(() => draining);
    router.add('/a/ws', (_req, socket) => socket.end('HTTP/1.1 418 A\r\n\r\n'));
    router.add('/b/ws', (_req, socket) => socket.end('HTTP/1.1 418 B\r\n\r\n'));
    const port = await serve(router);
    expect(await upgrade(port, '/a/ws?x=1')).toBe('HTTP/1.1 418 A');
    expect(await upgrade(port, '/b/ws')).toBe('HTTP/1.1 418 B');
    expect(await upgrade(port, '/a/ws/more')).toBe('HTTP/1.1 404 Not Found');
    expect(await upgrade(port, '/nowhere')).toBe('HTTP/1.1 404 Not Found');
    const unknown = await upgradeAnswer(port, '/nowhere', { 'X-Request-Id': 'not valid!' });
    expect(problemOf(unknown)).toMatchObject({ status: 404, code: 'not_found', detail: 'no WebSocket endpoint at this path' });
    // REST's answer headers: a request id of its own (the caller's is malformed), nosniff, never cached.
    expect(unknown).toMatch(/\r\nX-Request-Id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\r\n/);
    expect(unknown).toContain('\r\nX-Content-Type-Options: nosniff\r\n');
    expect(unknown).toContain('\r\nCache-Control: no-store\r\n');
    draining = true;
    expect(await upgrade(port, '/a/ws')).toBe('HTTP/1.1 503 Service Unavailable');
    const drained = await upgradeAnswer(port, '/a/ws');
    // The refusal a new SSE stream gets while draining: the same document, and when to come back.
    expect(problemOf(drained)).toMatchObject({ status: 503, code: 'overloaded', detail: new ShuttingDown().message });
    expect(drained).toContain('\r\nRetry-After: 1\r\n');
  });

  it('answers 500 with a problem document that says nothing of the cause when a handler throws, and logs the cause', async () => {
    const logged: { obj: object; msg: string | undefined }[] = [];
    const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (obj, msg) => void logged.push({ obj, msg }) };
    const router = new UpgradeRouter(() => false, undefined, () => ({ logger, requests: false }));
    const cause = new Error('postgres://user:s3cret@db failed');
    router.add('/a/ws', () => {
      throw cause;
    });
    const port = await serve(router);
    const answer = await upgradeAnswer(port, '/a/ws', { 'X-Request-Id': 'trace-42.a_b' });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 500 Internal Server Error');
    expect(problemOf(answer)).toEqual({ type: 'urn:portico:error:internal_error', title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred.', code: 'internal_error' });
    // The caller's request id comes back and names the log line, as on REST.
    expect(answer).toContain('\r\nX-Request-Id: trace-42.a_b\r\n');
    expect(answer).not.toContain('s3cret');
    expect(logged).toEqual([{ obj: { requestId: 'trace-42.a_b', err: cause }, msg: 'a WebSocket upgrade failed' }]);
    // A refusal the router means (an unknown path) is not an error to log.
    await upgradeAnswer(port, '/nowhere');
    expect(logged).toHaveLength(1);
  });

  it('refuses a malformed handshake 405 or 400 before the handler sees it, with the headers RFC 6455 asks for', async () => {
    const handled: string[] = [];
    const router = new UpgradeRouter(() => false);
    router.add('/a/ws', (req, socket) => {
      handled.push(req.method ?? '');
      socket.end('HTTP/1.1 418 A\r\n\r\n');
    });
    const port = await serve(router);
    const post = await upgradeAnswer(port, '/a/ws', {}, 'POST');
    expect(post.split('\r\n')[0]).toBe('HTTP/1.1 405 Method Not Allowed');
    expect(post).toContain('\r\nAllow: GET\r\n');
    expect(problemOf(post)).toMatchObject({ status: 405, code: 'method_not_allowed', detail: 'a WebSocket handshake is a GET request, not POST' });
    const noKey = await upgradeAnswer(port, '/a/ws', { 'Sec-WebSocket-Key': '' });
    expect(problemOf(noKey)).toMatchObject({ status: 400, code: 'invalid_input', detail: 'missing or invalid Sec-WebSocket-Key header (16 bytes in base64)' });
    expect(problemOf(await upgradeAnswer(port, '/a/ws', { 'Sec-WebSocket-Key': 'short==' }))).toMatchObject({ status: 400 });
    const version = await upgradeAnswer(port, '/a/ws', { 'Sec-WebSocket-Version': '12' });
    expect(problemOf(version)).toMatchObject({ status: 400, detail: 'missing or unsupported Sec-WebSocket-Version header (this server speaks 13)' });
    expect(version).toContain('\r\nSec-WebSocket-Version: 13\r\n');
    expect(problemOf(await upgradeAnswer(port, '/a/ws', { Upgrade: 'websocket, h2c' }))).toMatchObject({ status: 400, detail: 'the Upgrade header must be exactly "websocket"' });
    expect(handled).toEqual([]);
    // Any case of the protocol name is the same (RFC 9110 §7.8), as ws reads it.
    expect(await upgrade(port, '/a/ws', { Upgrade: 'WebSocket' })).toBe('HTTP/1.1 418 A');
    expect(handled).toEqual(['GET']);
  });

  it('sends REST\'s hardening headers with every refusal and logs it as a request line, without its query string', async () => {
    const lines: { obj: object; msg: string | undefined }[] = [];
    const logger: Logger = { debug: () => undefined, info: (obj, msg) => void lines.push({ obj, msg }), warn: () => undefined, error: () => undefined };
    let requests = true;
    const router = new UpgradeRouter(() => false, undefined, () => ({ logger, requests }));
    const port = await serve(router);
    const answer = await upgradeAnswer(port, '/nowhere?token=s3cret', { 'X-Request-Id': 'trace-7' });
    for (const header of ['X-Frame-Options: DENY', "Content-Security-Policy: frame-ancestors 'none'", 'Referrer-Policy: same-origin', 'Cross-Origin-Opener-Policy: same-origin']) {
      expect(answer).toContain(`\r\n${header}\r\n`);
    }
    expect(lines).toEqual([{ obj: { requestId: 'trace-7', method: 'GET', path: '/nowhere', status: 404, ms: expect.any(Number) }, msg: 'request' }]);
    expect(JSON.stringify(lines)).not.toContain('s3cret');
    // `logRequests: false` is honoured here as on REST.
    requests = false;
    await upgradeAnswer(port, '/nowhere');
    expect(lines).toHaveLength(1);
  });

  it('serves a request that asks to upgrade to another protocol (h2c) as the plain HTTP request it is', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += String(chunk)));
      req.on('end', () => res.end(`${req.method} ${req.url} body=${body} from=${req.socket.remoteAddress} upgrade=${req.headers.upgrade} connection=${req.headers.connection}|`));
    });
    servers.push(server);
    const router = new UpgradeRouter(() => false);
    router.add('/a/ws', () => {
      throw new Error('not a WebSocket');
    });
    router.attach(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const exchange = (text: string) =>
      new Promise<string>((resolve, reject) => {
        // Sent in two pieces, the second after the server has read the first's headers.
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(text.slice(0, 20));
          setTimeout(() => socket.write(text.slice(20)), 30);
        });
        let answer = '';
        socket.on('data', (d) => (answer += String(d)));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const h2c = 'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n';
    // A GET, then a second request on the same connection.
    const get = await exchange(`GET /a/ws?x=1 HTTP/1.1\r\nHost: x\r\n${h2c}\r\nGET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(get.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(get).toContain('GET /a/ws?x=1 body= from=127.0.0.1 upgrade=undefined connection=undefined|');
    expect(get).toContain('GET /next body= from=127.0.0.1 upgrade=undefined connection=close|');
    // Bodies by length and chunked reach the handler whole.
    const sized = await exchange(`POST /p HTTP/1.1\r\nHost: x\r\n${h2c.replace('HTTP2-Settings\r\n', 'HTTP2-Settings, close\r\n')}Content-Length: 5\r\n\r\nhello`);
    expect(sized).toContain('POST /p body=hello from=127.0.0.1 upgrade=undefined connection=close|');
    const chunked = await exchange(`POST /p HTTP/1.1\r\nHost: x\r\nConnection: close, Upgrade\r\nUpgrade: h2c\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n`);
    expect(chunked).toContain('POST /p body=hello');
  });

  it('refuses a path claimed twice', () => {
    const router = new UpgradeRouter(() => false);
    router.add('/a/ws', () => undefined);
    expect(() => router.add('/a/ws', () => undefined)).toThrow(/already served/);
  });

  describe('the session cookie from another origin (a WebSocket has no CORS and no CSRF token)', () => {
    const session = 'portico_session=' + 'a'.repeat(43);
    const accepted = 'HTTP/1.1 418 A';
    async function served(policy = upgradeOriginPolicy()): Promise<number> {
      const router = new UpgradeRouter(() => false, policy);
      router.add('/a/ws', (_req, socket) => socket.end('HTTP/1.1 418 A\r\n\r\n'));
      return serve(router);
    }

    it('refuses it 403 with a problem document naming the origin; the same origin is accepted', async () => {
      const port = await served();
      const answer = await upgradeAnswer(port, '/a/ws', { Host: 'app.example.com', Origin: 'https://evil.example.com', Cookie: session });
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 403 Forbidden');
      expect(answer).toContain('Content-Type: application/problem+json');
      const problem = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { status: number; code: string; detail: string };
      expect(problem).toMatchObject({ status: 403, code: 'csrf_failed' });
      expect(problem.detail).toContain('"https://evil.example.com"');
      expect(problem.detail).not.toContain('a'.repeat(43));
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'http://app.example.com', Cookie: session })).toBe(accepted);
      // Another port or scheme is another origin.
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'http://app.example.com:8080', Cookie: session })).toBe('HTTP/1.1 403 Forbidden');
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'https://app.example.com', Cookie: session })).toBe('HTTP/1.1 403 Forbidden');
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'null', Cookie: session })).toBe('HTTP/1.1 403 Forbidden');
    });

    it('leaves alone a request without Origin (not a browser), without the session cookie, or from a trusted origin', async () => {
      const port = await served(upgradeOriginPolicy(['https://spa.example.com']));
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Cookie: session })).toBe(accepted);
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'https://evil.example.com', Cookie: 'other=1', Authorization: 'Bearer t' })).toBe(accepted);
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'https://spa.example.com', Cookie: session })).toBe(accepted);
      expect(await upgrade(port, '/a/ws', { Host: 'app.example.com', Origin: 'https://evil.example.com', Cookie: session })).toBe('HTTP/1.1 403 Forbidden');
    });

    it('reads the public origin from X-Forwarded-Host and -Proto only behind trusted proxies', async () => {
      const forwarded = { Host: 'backend:3000', 'X-Forwarded-Host': 'app.example.com', 'X-Forwarded-Proto': 'https', Origin: 'https://app.example.com', Cookie: session };
      expect(await upgrade(await served(upgradeOriginPolicy([], 1)), '/a/ws', forwarded)).toBe(accepted);
      expect(await upgrade(await served(upgradeOriginPolicy([], 0)), '/a/ws', forwarded)).toBe('HTTP/1.1 403 Forbidden');
      // Without TLS on the socket the scheme is the proxy's (any case), as Koa reads it for the routes.
      expect(await upgrade(await served(upgradeOriginPolicy([], 1)), '/a/ws', { ...forwarded, 'X-Forwarded-Proto': 'HTTPS' })).toBe(accepted);
      expect(await upgrade(await served(upgradeOriginPolicy([], 1)), '/a/ws', { ...forwarded, 'X-Forwarded-Proto': 'http' })).toBe('HTTP/1.1 403 Forbidden');
    });

    it('refuses at start a trusted origin that is not one', () => {
      for (const bad of ['app.example.com', 'https://app.example.com/path', 'ftp://x.io', '*']) expect(() => upgradeOriginPolicy([bad])).toThrow(/is not an origin/);
      expect([...upgradeOriginPolicy(['https://App.Example.com/', 'http://x.io:8080']).trustedOrigins]).toEqual(['https://app.example.com', 'http://x.io:8080']);
    });
  });
});
