import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * A browser sends the session cookie on a WebSocket handshake whatever page opened it, and a
 * WebSocket has neither CORS nor a CSRF token: an upgrade that carries the session cookie from
 * another origin is refused before any transport sees it (GraphQL's and the realtime channels').
 */
describe('WebSocket upgrades with the session cookie from another origin', () => {
  let ref: RunningReference;
  let cookie = '';
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off', TRUSTED_ORIGINS: 'https://spa.example.test' } });
    const browser = new HttpClient(ref.url);
    await browser.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    cookie = `portico_session=${browser.cookies.get('portico_session') as string}`;
  });
  afterAll(async () => ref.close());

  /** Opens a socket at `path` with `headers`: 'open', or the refusal's status and body. */
  function handshake(path: string, headers: Record<string, string>, protocol?: string): Promise<'open' | { status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${ref.url.replace('http://', 'ws://')}${path}`, protocol, { headers });
      ws.on('open', () => {
        ws.close();
        resolve('open');
      });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      ws.on('error', reject);
    });
  }

  it('refuses GraphQL over WebSocket 403 (csrf_failed) from a foreign origin; the server\'s own origin and a trusted one connect', async () => {
    const refused = await handshake('/graphql/ws', { cookie, origin: 'https://evil.example.test' }, 'graphql-transport-ws');
    expect(refused).toMatchObject({ status: 403 });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ status: 403, code: 'csrf_failed' });
    expect(await handshake('/graphql/ws', { cookie, origin: ref.url }, 'graphql-transport-ws')).toBe('open');
    expect(await handshake('/graphql/ws', { cookie, origin: 'https://spa.example.test' }, 'graphql-transport-ws')).toBe('open');
  });

  it('refuses the realtime WebSocket the same way', async () => {
    expect(await handshake('/realtime/ws', { cookie, origin: 'https://evil.example.test' })).toMatchObject({ status: 403 });
    expect(await handshake('/realtime/ws', { cookie, origin: ref.url })).toBe('open');
  });

  it('lets a foreign origin connect without the session cookie (a bearer token travels in the connection parameters)', async () => {
    expect(await handshake('/graphql/ws', { origin: 'https://evil.example.test' }, 'graphql-transport-ws')).toBe('open');
    expect(await handshake('/graphql/ws', { cookie: 'unrelated=1', origin: 'https://evil.example.test' }, 'graphql-transport-ws')).toBe('open');
  });
});
