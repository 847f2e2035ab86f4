import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RealtimeHub } from '../../../../src/adapters/realtime/realtime-hub.js';
import { realtimeOverWebSocket } from '../../../../src/adapters/realtime/ws-endpoint.js';
import { AuthorizeChannel } from '../../../../src/application/realtime/authorize-channel.js';
import { DeclaredChannels } from '../../../../src/domain/realtime/declared-channels.js';
import { connect } from 'node:net';
import { HANDSHAKE_OUTCOME, UpgradeRouter } from '../../../../src/adapters/http-koa/node/upgrade-router.js';
import { ANONYMOUS, type Identity } from '../../../../src/domain/auth/identity.js';
import { DatabaseUnavailable, DomainError } from '../../../../src/domain/errors/domain-error.js';
import type { Logger } from '../../../../src/ports/logger.js';

let server: Server | undefined;
const logged: object[] = [];
const requests: object[] = [];
const logger: Logger = { debug: () => undefined, info: (obj, msg) => void requests.push({ ...obj, msg }), warn: () => undefined, error: (obj) => void logged.push(obj) };
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

interface Refusal {
  readonly status: number;
  readonly type: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Record<string, unknown>;
}

/** The realtime WebSocket endpoint behind the app's upgrade router, identifying callers with `identify`; resolves with its port. */
async function served(identify: () => Promise<Identity>): Promise<number> {
  const rt = realtimeOverWebSocket(new RealtimeHub(), new AuthorizeChannel(new DeclaredChannels()), identify, () => () => undefined, HANDSHAKE_OUTCOME);
  const router = new UpgradeRouter(() => false, undefined, () => ({ logger, requests: true }));
  router.add('/realtime/ws', rt.upgrade);
  server = createServer();
  router.attach(server);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** How a realtime upgrade is refused when identifying its caller fails with `error` (the app's refusal writer). */
async function refusedWith(error: Error): Promise<Refusal> {
  const port = await served(() => Promise.reject(error));
  const ws = new WebSocket(`ws://127.0.0.1:${port}/realtime/ws`);
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], headers: res.headers, body: JSON.parse(text) as Record<string, unknown> }));
    });
    ws.once('open', () => reject(new Error('the upgrade was accepted')));
    ws.once('error', () => undefined);
  });
}

describe('a realtime WebSocket upgrade whose caller cannot be identified', () => {
  it('is refused with the problem document: 401 for an invalid credential, 503 while the database is out, 500 otherwise', async () => {
    const invalid = await refusedWith(new DomainError('not_authenticated', 'invalid or revoked token'));
    expect(invalid).toMatchObject({ status: 401, type: 'application/problem+json', body: { status: 401, code: 'not_authenticated', detail: 'invalid or revoked token' } });
    expect(invalid.headers['www-authenticate']).toBe('Bearer realm="portico"');
    await new Promise((resolve) => server?.close(resolve));
    expect(await refusedWith(new DatabaseUnavailable())).toMatchObject({ status: 503, body: { code: 'database_unavailable' } });
    await new Promise((resolve) => server?.close(resolve));
    const cause = new Error('secret connection string postgres://u:pw@db');
    const bug = await refusedWith(cause);
    expect(bug).toMatchObject({ status: 500, body: { code: 'internal_error', detail: 'An unexpected error occurred.' } });
    expect(JSON.stringify(bug.body)).not.toContain('pw@db');
    // The 5xx are logged with their cause and the request id the answer carries; the 401 is not.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    expect(bug.headers['x-request-id']).toMatch(uuid);
    expect(logged).toEqual([
      { requestId: expect.stringMatching(uuid), err: expect.objectContaining({ code: 'database_unavailable' }) },
      { requestId: bug.headers['x-request-id'], err: cause },
    ]);
    // Every refusal is a `request` line, as a refused REST request is: no credential, no query string.
    expect(requests).toEqual([
      expect.objectContaining({ msg: 'request', method: 'GET', path: '/realtime/ws', status: 401, ms: expect.any(Number) }),
      expect.objectContaining({ msg: 'request', status: 503 }),
      expect.objectContaining({ msg: 'request', requestId: bug.headers['x-request-id'], status: 500 }),
    ]);
  });

  it('an accepted one answers 101 with the request id, and is logged as a request line with status 101', async () => {
    requests.length = 0;
    const port = await served(() => Promise.resolve(ANONYMOUS));
    const ws = new WebSocket(`ws://127.0.0.1:${port}/realtime/ws?token=s3cret`, { headers: { 'X-Request-Id': 'trace-101' } });
    const head = await new Promise<Record<string, unknown>>((resolve, reject) => {
      ws.once('upgrade', (res) => resolve(res.headers));
      ws.once('error', reject);
    });
    ws.close();
    expect(head['x-request-id']).toBe('trace-101');
    expect(requests).toEqual([{ msg: 'request', requestId: 'trace-101', method: 'GET', path: '/realtime/ws', status: 101, ms: expect.any(Number) }]);
  });

  it('a handshake ws finds malformed is refused 400 with the problem document, not in ws\'s text/html', async () => {
    const port = await served(() => Promise.resolve(ANONYMOUS));
    // Well-formed but for the subprotocol list (the router checks the rest; ws parses this one).
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(
          'GET /realtime/ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: a,,b\r\n\r\n',
        ),
      );
      let text = '';
      socket.on('data', (d) => (text += String(d)));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(answer).toContain('\r\nContent-Type: application/problem+json\r\n');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, code: 'invalid_input', detail: 'Invalid Sec-WebSocket-Protocol header' });
  });
});
