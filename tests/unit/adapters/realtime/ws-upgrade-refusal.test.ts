import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RealtimeHub } from '../../../../src/adapters/realtime/realtime-hub.js';
import { realtimeOverWebSocket } from '../../../../src/adapters/realtime/ws-endpoint.js';
import { DatabaseUnavailable, DomainError } from '../../../../src/domain/errors/domain-error.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** The status a realtime upgrade is refused with when identifying its caller fails with `error`. */
async function refusedWith(error: Error): Promise<number> {
  const rt = realtimeOverWebSocket(new RealtimeHub(), () => Promise.reject(error));
  server = createServer();
  server.on('upgrade', (req, socket, head) => rt.upgrade(req, socket, head));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const ws = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/realtime/ws`);
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.once('error', () => undefined);
  });
}

describe('a realtime WebSocket upgrade whose caller cannot be identified', () => {
  it('is refused 401 for an invalid credential, 503 while the database is out, 500 otherwise', async () => {
    expect(await refusedWith(new DomainError('not_authenticated', 'invalid or revoked token'))).toBe(401);
    await new Promise((resolve) => server?.close(resolve));
    expect(await refusedWith(new DatabaseUnavailable())).toBe(503);
    await new Promise((resolve) => server?.close(resolve));
    expect(await refusedWith(new Error('a bug'))).toBe(500);
  });
});
