import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { upgradeOriginPolicy } from '../../../src/composition/upgrade-origin.js';
import { UpgradeRouter } from '../../../src/composition/upgrade-router.js';
import { ShuttingDown } from '../../../src/domain/errors/domain-error.js';
import type { Logger } from '../../../src/ports/logger.js';

/** Sends a raw upgrade request and resolves with the first response line (and the whole answer). */
function upgrade(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return upgradeAnswer(port, path, headers).then((text) => text.split('\r\n')[0] ?? '');
}

function upgradeAnswer(port: number, path: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = Object.entries({ Host: 'x', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\n${lines}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
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
    server.on('upgrade', router.listener);
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
    const router = new UpgradeRouter(() => false, undefined, () => logger);
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
