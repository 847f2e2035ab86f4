import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UpgradeRouter } from '../../../src/composition/upgrade-router.js';

/** Sends a raw upgrade request and resolves with the first response line. */
function upgrade(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d) => (text += String(d)));
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('UpgradeRouter: one upgrade listener for every WebSocket transport', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function serve(router: UpgradeRouter): Promise<number> {
    server = createServer((_req, res) => res.end());
    server.on('upgrade', router.listener);
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
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
    draining = true;
    expect(await upgrade(port, '/a/ws')).toBe('HTTP/1.1 503 Service Unavailable');
  });

  it('refuses a path claimed twice', () => {
    const router = new UpgradeRouter(() => false);
    router.add('/a/ws', () => undefined);
    expect(() => router.add('/a/ws', () => undefined)).toThrow(/already served/);
  });
});
