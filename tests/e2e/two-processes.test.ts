import type { ChildProcess } from 'node:child_process';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';
import { RealtimeSocket, SseStream } from '../support/realtime-clients.js';
import { startNode, stop } from '../support/spawn-node.js';

const pg = await postgresAvailable();
const redis = await redisAvailable();

interface Process {
  readonly child: ChildProcess;
  readonly url: string;
}

async function startProcess(database: string, env: NodeJS.ProcessEnv): Promise<Process> {
  const { child, match } = await startNode(['dist/examples/reference/main.js', '--port', '0', '--db', database], /home:\s+(http:\/\/\S+?)\/\s/, 30_000, { THROTTLE: 'off', ...env });
  return { child, url: match[1] as string };
}

type Sink<T> = { next(v: T): void; error(e: unknown): void; complete(): void };

/** The first result of a subscription (it is disposed then). */
function first<T>(subscribe: (sink: Sink<T>) => () => void, timeoutMs = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no result in time')), timeoutMs);
    const dispose = subscribe({
      next(v) {
        clearTimeout(timer);
        dispose();
        resolve(v);
      },
      error(e) {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(JSON.stringify(e)));
      },
      complete() {},
    });
  });
}

async function bearer(url: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
  return `Bearer ${((await res.json()) as { token: string }).token}`;
}

/**
 * Issue "realtime across processes": two reference-app processes on one PostgreSQL database. A
 * write served by process B reaches subscribers connected to process A, over graphql-sse and
 * graphql-ws, through the event bus (LISTEN/NOTIFY, or Redis pub/sub).
 */
function acrossProcesses(bus: 'postgresql' | 'redis'): void {
  const schema = freshPgSchema();
  let a: Process;
  let b: Process;
  beforeAll(async () => {
    const env = bus === 'redis' ? { EVENT_BUS: REDIS_URL } : {};
    a = await startProcess(schema.url, env); // migrates and seeds first
    b = await startProcess(schema.url, env);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((p) => stop(p.child)));
    await schema.drop();
  });

  it('both processes report the event bus ready', async () => {
    for (const p of [a, b]) {
      const ready = (await (await fetch(`${p.url}/ready`)).json()) as { checks: Record<string, unknown> };
      expect(ready.checks.events).toEqual({ status: 'ok' });
    }
  });

  it('a REST write on B reaches a graphql-sse subscriber and a graphql-ws subscriber on A', async () => {
    const query = 'subscription { postChanged(id: "2") { id title } }';
    const sse = createSseClient({ url: `${a.url}/graphql/sse`, singleConnection: false, retryAttempts: 0 });
    const ws = createWsClient({ url: `${a.url.replace('http://', 'ws://')}/graphql/ws`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    type Changed = { data?: { postChanged: { id: string; title: string } } };
    const overSse = first<Changed>((sink) => sse.subscribe({ query }, sink as never));
    const overWs = first<Changed>((sink) => ws.subscribe({ query }, sink as never));
    await new Promise((resolve) => setTimeout(resolve, 500)); // both subscriptions established
    const title = `written on B over ${bus}`;
    const res = await fetch(`${b.url}/api/post/2`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: await bearer(b.url) }, body: JSON.stringify({ title }) });
    expect(res.status).toBe(200);
    expect((await overSse).data?.postChanged).toEqual({ id: '2', title });
    expect((await overWs).data?.postChanged).toEqual({ id: '2', title });
    sse.dispose();
    await ws.dispose();
  });

  it('a realtime publish on B (the post publish action announces on `news`) reaches an EventSource client and a WebSocket client on A', async () => {
    const sse = await SseStream.open(`${a.url}/realtime/events?channel=news`);
    const ws = await RealtimeSocket.open(`${a.url.replace('http://', 'ws://')}/realtime/ws`);
    expect(await ws.subscribe('news')).toEqual({ type: 'subscribed', channel: 'news' });
    const res = await fetch(`${b.url}/api/post/3/publish/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: await bearer(b.url) }, body: JSON.stringify({ reason: `over ${bus}` }) });
    expect(res.status).toBe(200);
    const overSse = await sse.next(10_000);
    const overWs = await ws.next('event', 10_000);
    const announced = { type: 'post_published', id: 3, title: ((await res.json()) as { title: string }).title };
    expect(overSse && { event: overSse.event, data: JSON.parse(overSse.data) as unknown }).toEqual({ event: 'message', data: announced });
    expect(overWs).toMatchObject({ type: 'event', channel: 'news', id: overSse?.id, data: announced });
    await sse.close();
    ws.close();
  });

  it('a logout on A stops the token on B, which had it cached, as soon as the bus reports it (not after the 5 s window)', async () => {
    const authorization = await bearer(a.url);
    expect((await fetch(`${b.url}/api/post/1`, { headers: { authorization } })).status).toBe(200); // B caches the caller
    const loggedOut = Date.now();
    expect((await fetch(`${a.url}/api/auth/logout`, { method: 'POST', headers: { authorization } })).status).toBeLessThan(300);
    let status = 200;
    while (status === 200 && Date.now() - loggedOut < 2_500) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await fetch(`${b.url}/api/post/1`, { headers: { authorization } })).status;
    }
    expect(status).toBe(401);
    expect(Date.now() - loggedOut).toBeLessThan(2_500);
  });

  it('a logout on B ends a realtime socket opened on A with that token (1008 credential revoked)', async () => {
    const authorization = await bearer(a.url);
    const ws = await RealtimeSocket.open(`${a.url.replace('http://', 'ws://')}/realtime/ws`, { authorization });
    expect(await ws.subscribe('chat/1')).toEqual({ type: 'subscribed', channel: 'chat/1' });
    expect((await fetch(`${b.url}/api/auth/logout`, { method: 'POST', headers: { authorization } })).status).toBeLessThan(300);
    const closed = await Promise.race([ws.closed, new Promise((resolve) => setTimeout(() => resolve('still open after 5 s'), 5000))]);
    expect(closed).toEqual({ code: 1008, reason: 'credential revoked' });
  });

  it('an unauthorized channel subscription on A is refused over both transports', async () => {
    const refused = await fetch(`${a.url}/realtime/events?channel=chat/1`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    const ws = await RealtimeSocket.open(`${a.url.replace('http://', 'ws://')}/realtime/ws`);
    expect(await ws.subscribe('chat/1')).toMatchObject({ type: 'error', channel: 'chat/1', code: 'not_authenticated' });
    ws.close();
  });
}

describe.skipIf(!pg)('two processes, PostgreSQL event bus', () => acrossProcesses('postgresql'));
describe.skipIf(!pg || !redis)('two processes, Redis event bus', () => acrossProcesses('redis'));
