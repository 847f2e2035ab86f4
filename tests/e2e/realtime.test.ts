import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp, realtime, REALTIME_TOKEN, type PorticoApp, type Realtime } from '../../src/index.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { RawWebSocket } from '../support/raw-websocket.js';
import { RealtimeSocket, SseStream } from '../support/realtime-clients.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

async function bearer(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  return ((await res.json()) as { token: string }).token;
}

describe('realtime channels on the reference app (SQLite, one process)', () => {
  let ref: RunningReference;
  let ws: string;
  let alice: string;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    ws = `${ref.url.replace('http://', 'ws://')}/realtime/ws`;
    alice = await bearer(ref.url, 'alice', 'alice-password-1');
  });
  afterAll(async () => ref.close());

  it('advertises both endpoints in the API root', async () => {
    const root = (await (await ref.get('/api/')).json()) as { endpoints: { group: string; name: string; method: string; path: string; url: string }[] };
    expect(root.endpoints.filter((e) => e.group === 'realtime').map((e) => [e.name, e.method, e.path, e.url])).toEqual([
      ['realtime-sse', 'GET', '/realtime/events', `${ref.url}/realtime/events`],
      ['realtime-ws', 'GET', '/realtime/ws', `${ref.url}/realtime/ws`],
    ]);
  });

  it('an EventSource client gets app.realtime.publish events with ids (text/event-stream, no-cache)', async () => {
    const sse = await SseStream.open(`${ref.url}/realtime/events?channel=news`);
    expect(sse.response.status).toBe(200);
    expect(sse.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.response.headers.get('cache-control')).toBe('no-cache');
    const a = await ref.app.realtime.publish('news', { headline: 'one' });
    const b = await ref.app.realtime.publish('news', { headline: 'two' });
    const events = await sse.take(2);
    expect(events).toEqual([
      { event: 'message', id: a, data: '{"headline":"one"}' },
      { event: 'message', id: b, data: '{"headline":"two"}' },
    ]);
    await sse.close();
  });

  it('a WebSocket client subscribes (bearer identity) and gets events of its channels only', async () => {
    const client = await RealtimeSocket.open(ws, { authorization: `Bearer ${alice}` });
    expect(await client.subscribe('chat/42')).toEqual({ type: 'subscribed', channel: 'chat/42' });
    await ref.app.realtime.publish('chat/7', { text: 'elsewhere' });
    const id = await ref.app.realtime.publish('chat/42', { text: 'hello' });
    expect(await client.next()).toEqual({ type: 'event', channel: 'chat/42', id, data: { text: 'hello' } });
    expect(await client.subscribe('chat/42', 'no-such-id')).toEqual({ type: 'subscribed', channel: 'chat/42' });
    expect(await client.next()).toMatchObject({ type: 'gap', channel: 'chat/42', lastEventId: 'no-such-id', reason: 'the missed events are no longer buffered' });
    client.send({ type: 'unsubscribe', channel: 'chat/42' });
    expect(await client.next()).toEqual({ type: 'unsubscribed', channel: 'chat/42' });
    client.send({ type: 'nonsense' });
    expect(await client.next()).toMatchObject({ type: 'error', code: 'invalid_message' });
    client.close();
  });

  it('refuses unauthorized subscriptions: anonymous 401 (WWW-Authenticate), identified 403 over SSE; an error message over WebSocket', async () => {
    const anonymous = await fetch(`${ref.url}/realtime/events?channel=chat%2F42`, { headers: { accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await anonymous.json()).toMatchObject({ status: 401, code: 'not_authenticated' });
    const notStaff = await fetch(`${ref.url}/realtime/events?channel=chat%2Fstaff`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${alice}` } });
    expect(notStaff.status).toBe(403);
    expect(await notStaff.json()).toMatchObject({ status: 403, code: 'forbidden' });

    const anon = await RealtimeSocket.open(ws);
    expect(await anon.subscribe('chat/42')).toMatchObject({ type: 'error', channel: 'chat/42', code: 'not_authenticated' });
    expect(await anon.subscribe('news')).toEqual({ type: 'subscribed', channel: 'news' });
    anon.close();
    const identified = await RealtimeSocket.open(ws, { authorization: `Bearer ${alice}` });
    expect(await identified.subscribe('chat/staff')).toMatchObject({ type: 'error', channel: 'chat/staff', code: 'forbidden' });
    identified.close();
    const staff = await RealtimeSocket.open(ws, { authorization: `Bearer ${await bearer(ref.url, 'staff', 'staff-password-1')}` });
    expect(await staff.subscribe('chat/staff')).toEqual({ type: 'subscribed', channel: 'chat/staff' });
    staff.close();
  });

  it('an unknown channel is 404 over SSE and not_found over WebSocket; a missing channel 400; an invalid bearer token 401 at upgrade', async () => {
    const unknown = await fetch(`${ref.url}/realtime/events?channel=weather`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
    expect((await fetch(`${ref.url}/realtime/events`)).status).toBe(400);
    const client = await RealtimeSocket.open(ws);
    expect(await client.subscribe('weather/today')).toMatchObject({ type: 'error', code: 'not_found' });
    client.close();
    await expect(RealtimeSocket.open(ws, { authorization: `Bearer ${'x'.repeat(40)}` })).rejects.toThrow(/401/);
  });

  it('refuses an upgrade with an invalid bearer token with the problem document and challenge SSE answers with', async () => {
    const authorization = `Bearer ${'x'.repeat(40)}`;
    const sse = await fetch(`${ref.url}/realtime/events?channel=news`, { headers: { authorization } });
    expect(sse.status).toBe(401);
    const problem = (await sse.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 401, code: 'not_authenticated' });
    const refused = await new Promise<{ status: number; type: string | undefined; challenge: string | undefined; body: string }>((resolve, reject) => {
      const socket = new WebSocket(ws, { headers: { authorization } });
      socket.once('open', () => reject(new Error('the upgrade was accepted')));
      socket.once('error', () => undefined);
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], challenge: res.headers['www-authenticate'], body }));
      });
    });
    expect(refused.status).toBe(401);
    expect(refused.type).toBe('application/problem+json');
    expect(refused.challenge).toBe(sse.headers.get('www-authenticate'));
    expect(refused.challenge).toBe('Bearer realm="portico"');
    expect(JSON.parse(refused.body)).toEqual(problem);
  });

  it('resuming with Last-Event-ID (header or query) delivers the missed events first, then live ones', async () => {
    const first = await ref.app.realtime.publish('news', { n: 1 });
    const second = await ref.app.realtime.publish('news', { n: 2 });
    const third = await ref.app.realtime.publish('news', { n: 3 });
    const sse = await SseStream.open(`${ref.url}/realtime/events?channel=news`, { 'last-event-id': first });
    expect((await sse.take(2)).map((e) => e.id)).toEqual([second, third]);
    const live = await ref.app.realtime.publish('news', { n: 4 });
    expect(await sse.next()).toEqual({ event: 'message', id: live, data: '{"n":4}' });
    await sse.close();
    const viaQuery = await SseStream.open(`${ref.url}/realtime/events?channel=news&lastEventId=${encodeURIComponent(third)}`);
    expect((await viaQuery.next())?.id).toBe(live);
    await viaQuery.close();
    const client = await RealtimeSocket.open(ws);
    await client.subscribe('news', second);
    expect([(await client.next()).id, (await client.next()).id]).toEqual([third, live]);
    client.close();
  });

  it('resuming from an id no longer buffered tells the client (event: gap) before live events', async () => {
    const old = await ref.app.realtime.publish('news', { n: 'old' });
    for (let i = 0; i < 100; i++) await ref.app.realtime.publish('news', { n: i }); // the buffer keeps 100
    const sse = await SseStream.open(`${ref.url}/realtime/events?channel=news`, { 'last-event-id': old });
    const gap = await sse.next();
    expect(gap?.event).toBe('gap');
    expect(JSON.parse(gap?.data ?? '')).toEqual({ lastEventId: old, reason: 'the missed events are no longer buffered' });
    const live = await ref.app.realtime.publish('news', { n: 'live' });
    expect((await sse.next())?.id).toBe(live);
    await sse.close();
  });

  it('publishing on an undeclared channel throws', async () => {
    await expect(ref.app.realtime.publish('weather', {})).rejects.toThrow(/matches no declared channel/);
  });
});

describe('realtime bounds (an app built with createApp + realtime())', () => {
  let app: PorticoApp;
  let url: string;
  let fromPlugin: Realtime | undefined;
  beforeAll(async () => {
    app = createApp({ database: 'sqlite::memory:', logRequests: false })
      .use(realtime({ maxQueue: 4, maxConnectionsPerCaller: 2, heartbeatMs: 100, bufferSize: 3 }).channel('room/:id'))
      .use({ name: 'announcer', install: (ctx) => void (fromPlugin = ctx.get(REALTIME_TOKEN)) });
    ({ url } = await app.listen(0));
  });
  afterAll(async () => app.close());

  it('app.realtime throws a clear Error without the plugin; plugins publish through ctx.get(REALTIME_TOKEN)', async () => {
    const bare = createApp({ database: 'sqlite::memory:', logRequests: false });
    await bare.start();
    expect(() => bare.realtime).toThrow(/realtime plugin is not mounted/);
    await bare.close();
    const sse = await SseStream.open(`${url}/realtime/events?channel=room%2Fplugin`);
    const id = await fromPlugin?.publish('room/plugin', 'from a plugin');
    expect(await sse.next()).toEqual({ event: 'message', id, data: '"from a plugin"' });
    await sse.close();
  });

  it('resuming from an evicted id (bufferSize 3) gets a gap, from a buffered one the events after it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await app.realtime.publish('room/resume', i));
    const evicted = await SseStream.open(`${url}/realtime/events?channel=room%2Fresume`, { 'last-event-id': ids[0] as string });
    expect((await evicted.next())?.event).toBe('gap');
    await evicted.close();
    const buffered = await SseStream.open(`${url}/realtime/events?channel=room%2Fresume`, { 'last-event-id': ids[2] as string });
    expect((await buffered.take(2)).map((e) => e.id)).toEqual(ids.slice(3));
    await buffered.close();
  });

  it('sends heartbeats (SSE comment lines)', async () => {
    const sse = await SseStream.open(`${url}/realtime/events?channel=room%2Fbeat`);
    await new Promise((r) => setTimeout(r, 350));
    const id = await app.realtime.publish('room/beat', 1);
    expect((await sse.next())?.id).toBe(id);
    expect(sse.comments).toBeGreaterThanOrEqual(3); // ": connected" and at least two heartbeats
    await sse.close();
  });

  it('caps connections per caller: the third SSE stream is 429, the third WebSocket is closed 1013', async () => {
    const a = await SseStream.open(`${url}/realtime/events?channel=room%2F1`);
    const b = await SseStream.open(`${url}/realtime/events?channel=room%2F1`);
    const refused = await fetch(`${url}/realtime/events?channel=room%2F1`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ status: 429, code: 'throttled' });
    const socket = await RealtimeSocket.open(`${url.replace('http://', 'ws://')}/realtime/ws`);
    expect(await socket.closed).toEqual({ code: 1013, reason: 'too many connections (at most 2 per caller)' });
    await a.close();
    await b.close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await SseStream.open(`${url}/realtime/events?channel=room%2F1`);
    expect(again.response.status).toBe(200);
    await again.close();
  });

  it('disconnects a slow WebSocket consumer with the reason (close 1008 "slow consumer")', async () => {
    await new Promise((r) => setTimeout(r, 100));
    const client = await RawWebSocket.open(`${url.replace('http://', 'ws://')}/realtime/ws`);
    client.send({ type: 'subscribe', channel: 'room/slow' });
    await client.received(1);
    expect(JSON.parse(client.last)).toEqual({ type: 'subscribed', channel: 'room/slow' });
    client.pause(); // stops reading: the kernel buffers fill, then the server's queue
    const big = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 200; i++) await app.realtime.publish('room/slow', big);
    client.resume();
    expect(await client.closed).toEqual({ code: 1008, reason: 'slow consumer' });
  });
});

describe('realtime at shutdown', () => {
  it('app.close() ends open streams cleanly: SSE `event: disconnect`, WebSocket close 1001, both with the reason', async () => {
    const app = createApp({ database: 'sqlite::memory:', logRequests: false }).use(realtime().channel('news'));
    const { url } = await app.listen(0);
    const sse = await SseStream.open(`${url}/realtime/events?channel=news`);
    const client = await RealtimeSocket.open(`${url.replace('http://', 'ws://')}/realtime/ws`);
    await client.subscribe('news');
    const started = Date.now();
    await app.close(5000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await sse.next()).toEqual({ event: 'disconnect', id: undefined, data: '{"reason":"server shutting down"}' });
    expect(await sse.next()).toBeNull();
    expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
  });
});

describe('realtime across processes (two apps on one PostgreSQL database, LISTEN/NOTIFY)', async () => {
  const available = await postgresAvailable();
  const schema = freshPgSchema();
  let a: RunningReference | undefined;
  let b: RunningReference | undefined;
  beforeAll(async () => {
    if (!available) return;
    a = await startReference('postgresql', { database: schema.url, env: { THROTTLE: 'off' } });
    b = await startReference('postgresql', { database: schema.url, env: { THROTTLE: 'off' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    if (available) await schema.drop();
  });

  it.skipIf(!available)('a publish on process B reaches an EventSource client and a WebSocket client on process A', async () => {
    if (!a || !b) throw new Error('not started');
    const token = await bearer(a.url, 'bob', 'bob-password-1');
    const sse = await SseStream.open(`${a.url}/realtime/events?channel=chat%2F9`, { authorization: `Bearer ${token}` });
    expect(sse.response.status).toBe(200);
    const client = await RealtimeSocket.open(`${a.url.replace('http://', 'ws://')}/realtime/ws`, { authorization: `Bearer ${token}` });
    await client.subscribe('chat/9');
    const id = await b.app.realtime.publish('chat/9', { from: 'B' });
    expect(await sse.next(10_000)).toEqual({ event: 'message', id, data: '{"from":"B"}' });
    expect(await client.next('event', 10_000)).toEqual({ type: 'event', channel: 'chat/9', id, data: { from: 'B' } });
    // Process A buffered what B published: a client resuming on A gets the events it missed.
    const next = await b.app.realtime.publish('chat/9', { from: 'B', n: 2 });
    expect((await sse.next(10_000))?.id).toBe(next);
    const resumed = await SseStream.open(`${a.url}/realtime/events?channel=chat%2F9`, { authorization: `Bearer ${token}`, 'last-event-id': id });
    expect(await resumed.next()).toEqual({ event: 'message', id: next, data: '{"from":"B","n":2}' });
    await resumed.close();
    await sse.close();
    client.close();
  });
});
