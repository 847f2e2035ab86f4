import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashToken } from '../../src/application/auth/secrets.js';
import { HttpClient } from '../support/http-client.js';
import { RealtimeSocket, SseStream } from '../support/realtime-clients.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * A stream checks its caller when it opens; these check that it learns when that no longer holds:
 * a logout (bearer token or session), or the user deactivated, ends the GraphQL subscriptions over
 * WebSocket and SSE and the realtime channels over WebSocket and SSE opened with it, and nothing
 * else; so does a session that expires while the stream is open. Each case fails when the
 * transport does not watch its caller (the stream stays open).
 */
describe('streams end when their credential is revoked', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  const json = { 'content-type': 'application/json' };
  const login = async (username: string): Promise<string> => {
    const res = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ username, password: `${username}-password-1` }) });
    return `Bearer ${((await res.json()) as { token: string }).token}`;
  };
  const logout = async (authorization: string): Promise<void> => {
    expect((await fetch(`${ref.url}/api/auth/logout`, { method: 'POST', headers: { authorization } })).status).toBeLessThan(300);
  };
  const wsUrl = (path: string) => `${ref.url.replace('http://', 'ws://')}${path}`;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  /** `promise`, or a failure naming `what` after 5 s (a stream left open fails fast). */
  const within = <T>(promise: Promise<T>, what: string): Promise<T> =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: still open after 5 s`)), 5000))]);

  /** A graphql-ws client with one running subscription, and how its connection closed. */
  async function graphqlWsSubscription(authorization: string) {
    let closedWith: (close: { code: number; reason: string }) => void = () => undefined;
    const closed = new Promise<{ code: number; reason: string }>((resolve) => (closedWith = resolve));
    const client = createWsClient({
      url: wsUrl('/graphql/ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { authorization },
      onNonLazyError: () => undefined, // the 4403 close is what the tests expect
      on: { closed: (e) => closedWith({ code: (e as { code: number }).code, reason: (e as { reason: string }).reason }) },
    });
    client.subscribe({ query: 'subscription { postChanged(id: "5") { id } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    await settle();
    return { client, closed };
  }

  it('GraphQL over WebSocket: a logout closes the connection (4403 credential revoked); another token of the same user does not', async () => {
    const first = await login('alice');
    const second = await login('alice');
    const { client, closed } = await graphqlWsSubscription(first);
    await logout(second);
    expect(await Promise.race([closed, settle().then(() => 'open')])).toBe('open');
    await logout(first);
    expect(await within(closed, 'the GraphQL WebSocket')).toEqual({ code: 4403, reason: 'credential revoked' });
    await client.dispose();
  });

  it('GraphQL over SSE: a logout ends the stream with an UNAUTHENTICATED error, then complete', async () => {
    const authorization = await login('alice');
    const client = createSseClient({ url: `${ref.url}/graphql/sse`, singleConnection: false, retryAttempts: 0, headers: { authorization } });
    const seen: unknown[] = [];
    const ended = new Promise<string>((resolve) => {
      client.subscribe(
        { query: 'subscription { postChanged(id: "5") { id } }' },
        { next: (v) => void seen.push(v), error: (e) => resolve(`error ${String(e)}`), complete: () => resolve('complete') },
      );
    });
    await settle();
    await logout(authorization);
    expect(await within(ended, 'the GraphQL SSE stream')).toBe('complete');
    expect(seen).toEqual([{ errors: [{ message: 'credential revoked', extensions: { code: 'UNAUTHENTICATED' } }] }]);
    client.dispose();
  });

  it('realtime over WebSocket: a logout closes the socket (1008 credential revoked)', async () => {
    const authorization = await login('bob');
    const ws = await RealtimeSocket.open(wsUrl('/realtime/ws'), { authorization });
    expect(await ws.subscribe('chat/1')).toEqual({ type: 'subscribed', channel: 'chat/1' });
    await logout(authorization);
    expect(await within(ws.closed, 'the realtime WebSocket')).toEqual({ code: 1008, reason: 'credential revoked' });
  });

  it('realtime over SSE with the session cookie: a form logout ends the stream (disconnect, credential revoked)', async () => {
    const browser = new HttpClient(ref.url);
    await browser.form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    const cookie = `portico_session=${browser.cookies.get('portico_session') as string}`;
    const stream = await SseStream.open(`${ref.url}/realtime/events?channel=chat/1`, { cookie });
    expect(stream.response.status).toBe(200);
    await settle();
    expect((await browser.form('/auth/logout', {}, { csrf: await browser.csrf('/') })).status).toBe(303);
    expect(await stream.next()).toEqual({ event: 'disconnect', id: undefined, data: JSON.stringify({ reason: 'credential revoked' }) });
    expect(await stream.next()).toBeNull();
  });

  it('realtime over SSE with the session cookie: the session expiring while the stream is open ends it (disconnect, credential revoked)', async () => {
    const browser = new HttpClient(ref.url);
    await browser.form('/auth/login', { username: 'bob', password: 'bob-password-1' });
    const token = browser.cookies.get('portico_session') as string;
    const [session] = await ref.app.store.find('session', { where: { column: 'token_hash', op: 'eq', value: hashToken(token) }, limit: 1 });
    // A session near the end of its lifetime: it still identifies the stream when it opens.
    await ref.app.store.update('session', session?.id ?? null, { expires_at: new Date(Date.now() + 1500) });
    const stream = await SseStream.open(`${ref.url}/realtime/events?channel=chat/1`, { cookie: `portico_session=${token}` });
    expect(stream.response.status).toBe(200);
    expect(await within(stream.next(), 'the realtime SSE stream')).toEqual({ event: 'disconnect', id: undefined, data: JSON.stringify({ reason: 'credential revoked' }) });
    expect(await stream.next()).toBeNull();
  });

  it('SPEC "GraphQL subscription": a caller demoted after subscribing keeps receiving, with the gate it passed, until reconnect', async () => {
    const authorization = await login('staff');
    const [staff] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: 'staff' }, limit: 1 });
    const closes: number[] = [];
    const client = createWsClient({ url: wsUrl('/graphql/ws'), webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, connectionParams: { authorization }, on: { closed: (e) => void closes.push((e as { code: number }).code) } });
    const received = new Promise<unknown>((resolve) => {
      client.subscribe({ query: 'subscription { postChanged(id: "4") { score } }' }, { next: (v) => resolve(v.data), error: resolve, complete: () => undefined });
    });
    await settle();
    await ref.app.store.update('auth_user', staff?.id ?? null, { is_staff: false });
    try {
      await ref.app.store.update('post', 4, { title: 'seen after the demotion' });
      // score is for staff only: the running subscription keeps the identity it was established with.
      expect(await within(received, 'the demoted subscription')).toEqual({ postChanged: { score: 42 } });
      expect(closes).toEqual([]);
    } finally {
      await ref.app.store.update('auth_user', staff?.id ?? null, { is_staff: true });
      await client.dispose();
    }
  });

  it('an anonymous stream is not affected, and a deactivated user loses every stream', async () => {
    const anonymous = await SseStream.open(`${ref.url}/realtime/events?channel=news`);
    const authorization = await login('staff');
    const { client, closed } = await graphqlWsSubscription(authorization);
    const ws = await RealtimeSocket.open(wsUrl('/realtime/ws'), { authorization });
    expect(await ws.subscribe('chat/staff')).toEqual({ type: 'subscribed', channel: 'chat/staff' });
    const [staff] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: 'staff' }, limit: 1 });
    await ref.app.store.update('auth_user', staff?.id ?? null, { is_active: false });
    try {
      expect(await within(closed, 'the GraphQL WebSocket')).toEqual({ code: 4403, reason: 'credential revoked' });
      expect(await within(ws.closed, 'the realtime WebSocket')).toEqual({ code: 1008, reason: 'credential revoked' });
      // The anonymous stream still hears the channel (the publish action announces on `news`).
      const publish = await fetch(`${ref.url}/api/post/3/publish/`, { method: 'POST', headers: { ...json, authorization: await login('alice') }, body: JSON.stringify({ reason: 'still heard' }) });
      expect(publish.status).toBe(200);
      expect((await anonymous.next())?.event).toBe('message');
    } finally {
      await ref.app.store.update('auth_user', staff?.id ?? null, { is_active: true });
      await client.dispose();
      await anonymous.close();
    }
  });
});
