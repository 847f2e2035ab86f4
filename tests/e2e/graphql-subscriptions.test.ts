import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/** Collects the first `n` results of a subscription, then disposes it. */
function take<T>(subscribe: (sink: { next(v: T): void; error(e: unknown): void; complete(): void }) => () => void, n: number, timeoutMs = 10_000): { ready: Promise<void>; results: Promise<T[]> } {
  const got: T[] = [];
  let readyResolve: () => void = () => undefined;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const results = new Promise<T[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${n} results`)), timeoutMs);
    const dispose = subscribe({
      next(v) {
        got.push(v);
        if (got.length >= n) {
          clearTimeout(timer);
          dispose();
          resolve(got);
        }
      },
      error(e) {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(JSON.stringify(e)));
      },
      complete() {},
    });
    setTimeout(readyResolve, 300);
  });
  return { ready, results };
}

describe('GraphQL subscriptions (post is subscribable)', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  it('postChanged(id) over SSE (graphql-sse client) yields the re-read row with the field policy applied', async () => {
    const client = createSseClient({ url: `${ref.url}/graphql/sse`, singleConnection: false, retryAttempts: 0 });
    const sub = take<{ data?: { postChanged: { id: string; title: string; score: number | null } } }>(
      (sink) => client.subscribe({ query: 'subscription { postChanged(id: "2") { id title score } }' }, sink as never),
      1,
    );
    await sub.ready;
    await ref.app.store.update('post', 1, { title: 'not this one' });
    await ref.app.store.update('post', 2, { title: 'Changed over SSE' });
    const [first] = await sub.results;
    expect(first?.data?.postChanged).toEqual({ id: '2', title: 'Changed over SSE', score: null });
    client.dispose();
  });

  it('postDeleted over WebSocket (graphql-ws client) yields the id', async () => {
    const wsUrl = ref.url.replace('http://', 'ws://');
    const client = createWsClient({ url: `${wsUrl}/graphql/ws`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    const sub = take<{ data?: { postDeleted: string } }>((sink) => client.subscribe({ query: 'subscription { postDeleted }' }, sink as never), 1);
    await sub.ready;
    const created = await ref.app.store.insert('post', { title: 'short-lived', author_id: 1 });
    await ref.app.store.delete('post', created.id ?? null);
    const [first] = await sub.results;
    expect(first?.data?.postDeleted).toBe(String(created.id));
    await client.dispose();
  });

  it('over WebSocket the caller is identified by a bearer connection parameter or the session cookie', async () => {
    const wsUrl = `${ref.url.replace('http://', 'ws://')}/graphql/ws`;
    const login = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'staff', password: 'staff-password-1' }) });
    const { token } = (await login.json()) as { token: string };
    const form = new HttpClient(ref.url);
    await form.form('/auth/login', { username: 'staff', password: 'staff-password-1' });
    const cookie = `portico_session=${form.cookies.get('portico_session') as string}`;
    class CookieSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie } });
      }
    }
    const viaToken = createWsClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${token}` } });
    const viaCookie = createWsClient({ url: wsUrl, webSocketImpl: CookieSocket, retryAttempts: 0 });
    const query = { query: 'subscription { postChanged(id: "4") { score } }' };
    const a = take<{ data?: { postChanged: { score: number | null } } }>((sink) => viaToken.subscribe(query, sink as never), 1);
    const b = take<{ data?: { postChanged: { score: number | null } } }>((sink) => viaCookie.subscribe(query, sink as never), 1);
    await Promise.all([a.ready, b.ready]);
    await ref.app.store.update('post', 4, { title: 'seen by staff' });
    expect((await a.results)[0]?.data?.postChanged.score).toBe(42);
    expect((await b.results)[0]?.data?.postChanged.score).toBe(42);
    await Promise.all([viaToken.dispose(), viaCookie.dispose()]);
  });

  it('over WebSocket an operation whose token is unknown or revoked fails UNAUTHENTICATED, without closing the connection as an internal error', async () => {
    const wsUrl = `${ref.url.replace('http://', 'ws://')}/graphql/ws`;
    const login = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'staff', password: 'staff-password-1' }) });
    const { token } = (await login.json()) as { token: string };
    const closes: number[] = [];
    const open = (authorization: string) =>
      createWsClient({ url: wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, connectionParams: { authorization }, on: { closed: (e) => void closes.push((e as { code: number }).code) } });
    type Outcome = { data?: unknown } | { errors: { message: string; extensions?: { code?: string } }[] };
    const once = (client: ReturnType<typeof open>) =>
      new Promise<Outcome>((resolve) => {
        let data: unknown;
        client.subscribe({ query: '{ posts(limit: 1) { id } }' }, { next: (v) => void (data = v.data), error: (e) => resolve({ errors: e as never }), complete: () => resolve({ data }) });
      });
    const client = open(`Bearer ${token}`);
    expect(await once(client)).toEqual({ data: { posts: [{ id: expect.any(String) as unknown }] } });
    expect((await fetch(`${ref.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBeLessThan(300);
    const refused = await once(client);
    expect(refused).toEqual({ errors: [expect.objectContaining({ message: 'invalid or revoked token', extensions: { code: 'UNAUTHENTICATED' } })] });
    expect(await once(client)).toEqual(refused); // the same connection answers the next operation the same way
    const bogus = open('Bearer not-a-token-not-a-token-not-a-token');
    expect(await once(bogus)).toEqual(refused);
    await Promise.all([client.dispose(), bogus.dispose()]);
    expect(closes.filter((code) => code !== 1000)).toEqual([]);
  });

  it('a non-subscribable model has no subscription field', async () => {
    const res = await fetch(`${ref.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { subscriptionType { fields { name } } } }' }),
    });
    const body = (await res.json()) as { data: { __schema: { subscriptionType: { fields: { name: string }[] } } } };
    expect(body.data.__schema.subscriptionType.fields.map((f) => f.name).sort()).toEqual(['postChanged', 'postDeleted']);
  });
});

describe('while the app drains (after SIGTERM), no transport opens a new stream', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    ref.app.drain();
  });
  afterAll(async () => ref.close());

  const overSse = (query: string) =>
    fetch(`${ref.url}/graphql/sse`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query }) });

  it('a subscription over SSE is refused as realtime SSE and a WebSocket upgrade are (503 overloaded, Retry-After), while a query is still answered', async () => {
    const subscription = await overSse('subscription { postDeleted }');
    expect(subscription.status).toBe(503);
    expect(subscription.headers.get('content-type')).toBe('application/problem+json');
    expect(subscription.headers.get('retry-after')).toBe('1');
    const refusal = (await subscription.json()) as Record<string, unknown>;
    expect(refusal).toMatchObject({ status: 503, code: 'overloaded' });

    const realtime = await fetch(`${ref.url}/realtime/events?channel=news`);
    expect(realtime.status).toBe(503);
    expect(await realtime.json()).toEqual(refusal);

    const upgrade = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(`${ref.url.replace('http://', 'ws://')}/graphql/ws`, 'graphql-transport-ws');
      socket.once('open', () => reject(new Error('the upgrade was accepted')));
      socket.once('error', () => undefined);
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
    });
    expect(upgrade.status).toBe(503);
    expect(JSON.parse(upgrade.body)).toEqual(refusal);

    const query = await overSse('{ posts(limit: 1) { id } }');
    expect(query.status).toBe(200);
    expect(await query.text()).toContain('"posts":[{"id":"1"}]');
  });
});
