import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

/**
 * The hot path's statement counts (docs/performance.md), pinned: SPEC allows asserting query
 * counts. A count includes every statement the app sends (BEGIN and COMMIT too).
 */
function statementCounts(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  let token = '';
  const statements: string[] = [];
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    const knex = ref.app.db.sql?.knex;
    if (!knex) throw new Error('SQL backend expected');
    // The task worker's polls run on their own schedule, not on the request's path.
    knex.on('query', (q: { sql: string }) => void (q.sql.includes('"task_row"') || statements.push(q.sql)));
    const res = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(async () => ref.close());

  const counted = async (send: () => Promise<Response>, status: number): Promise<string[]> => {
    statements.length = 0;
    const res = await send();
    expect(res.status).toBe(status);
    await res.arrayBuffer();
    return [...statements];
  };
  const bearer = (t = token) => ({ authorization: `Bearer ${t}` });
  const json = { 'content-type': 'application/json' };

  it('authenticated REST detail: identity and row, 2 statements; 1 with a warm identity cache', async () => {
    const other = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ username: 'bob', password: 'bob-password-1' }) });
    const cold = ((await other.json()) as { token: string }).token;
    const first = await counted(() => fetch(`${ref.url}/api/post/1`, { headers: bearer(cold) }), 200);
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/auth_user.*auth_token/);
    expect(first[1]).not.toMatch(/order by|limit/i);
    expect(await counted(() => fetch(`${ref.url}/api/post/1`, { headers: bearer(cold) }), 200)).toHaveLength(1);
  });

  it('REST detail with a session cookie: the session\'s user in one statement, then the row (2 in all)', async () => {
    const browser = new HttpClient(ref.url);
    await browser.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    const cookie = `portico_session=${browser.cookies.get('portico_session') as string}`;
    const sent = await counted(() => fetch(`${ref.url}/api/post/1`, { headers: { cookie } }), 200);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/from [`"]auth_user[`"].*from [`"]session[`"]/);
    // A session that expired or was logged out identifies no one, in the same one statement.
    expect(await counted(() => fetch(`${ref.url}/api/post/1`, { headers: { cookie: 'portico_session=' + 'x'.repeat(43) } }), 401)).toHaveLength(1);
  });

  it('REST list: count and page, 2 statements', async () => {
    await fetch(`${ref.url}/api/post/1`, { headers: bearer() });
    expect(await counted(() => fetch(`${ref.url}/api/post/?limit=50`, { headers: bearer() }), 200)).toHaveLength(2);
  });

  it('REST list with ?include=tags: count, page and one statement on the junction', async () => {
    await fetch(`${ref.url}/api/post/1`, { headers: bearer() });
    const page = await counted(() => fetch(`${ref.url}/api/post/?limit=50&include=tags`, { headers: bearer() }), 200);
    expect(page).toHaveLength(3);
    expect(page.filter((s) => /post_tags/.test(s))).toHaveLength(1);
    expect(await counted(() => fetch(`${ref.url}/api/post/1?include=tags`, { headers: bearer() }), 200)).toHaveLength(2);
  });

  it('REST create: the insert alone (no BEGIN/COMMIT without in-transaction handlers), plus at most one identity statement', async () => {
    const cold = await counted(() => fetch(`${ref.url}/api/author/`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Counted' }) }), 201);
    expect(cold).toHaveLength(1);
    expect(cold[0]).toMatch(/^insert into [`"]author[`"]/);
    const authed = await counted(() => fetch(`${ref.url}/api/post/`, { method: 'POST', headers: { ...bearer(), ...json }, body: JSON.stringify({ title: 'Counted', author_id: 1 }) }), 201);
    expect(authed.length).toBeLessThanOrEqual(2);
    expect(authed.filter((s) => /^(begin|commit)/i.test(s))).toEqual([]);
  });

  it('an in-transaction signal handler brings the transaction back', async () => {
    const off = ref.app.events.on('pre_save', 'author', () => undefined);
    try {
      const writes = await counted(() => fetch(`${ref.url}/api/author/`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Handled' }) }), 201);
      expect(writes.map((s) => s.split(/[ ;]/)[0]?.toLowerCase())).toEqual(['begin', 'insert', 'commit']);
    } finally {
      off();
    }
  });

  it('REST bulk create: one multi-row INSERT', async () => {
    const tags = Array.from({ length: 300 }, (_, i) => ({ id: `${backend}-c${i}`, label: 'x' }));
    const writes = await counted(() => fetch(`${ref.url}/api/tag/`, { method: 'POST', headers: json, body: JSON.stringify(tags) }), 201);
    expect(writes).toHaveLength(1);
  });

  it('GraphQL posts { author comments }: 3 statements plus identity', async () => {
    const query = JSON.stringify({ query: '{ posts(limit: 50) { id title author { name } comments { body } } }' });
    await fetch(`${ref.url}/api/post/1`, { headers: bearer() });
    const sent = await counted(() => fetch(`${ref.url}/graphql`, { method: 'POST', headers: { ...bearer(), ...json }, body: query }), 200);
    expect(sent).toHaveLength(3);
    // Lists read the columns the selection uses (a child list its parent key, and its own key only
    // when selected); rows by key are read whole (every column, named).
    expect(selectList(sent, 'post')).toEqual(['author_id', 'id', 'title']);
    expect(selectList(sent, 'comment')).toEqual(['body', 'post_id']);
    expect(selectList(sent, 'author')).toEqual(['bio', 'email', 'id', 'name', 'secret_note']);
    const withIds = JSON.stringify({ query: '{ posts(limit: 2) { id comments { id body } } }' });
    const res = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { ...bearer(), ...json }, body: withIds });
    const first = ((await res.json()) as { data: { posts: { id: string; comments: { id: string; body: string }[] }[] } }).data.posts[0];
    expect(first?.comments.length).toBeGreaterThan(0);
    expect(first?.comments.every((c) => /^\d+$/.test(c.id) && typeof c.body === 'string')).toBe(true);
    const keyed = await counted(() => fetch(`${ref.url}/graphql`, { method: 'POST', headers: { ...bearer(), ...json }, body: withIds }), 200);
    expect(selectList(keyed, 'comment')).toEqual(['body', 'id', 'post_id']);
    // A child list whose own children are selected reads its key for them, selected or not.
    const nested = JSON.stringify({ query: '{ authors(limit: 1) { posts(limit: 1) { title comments { body } } } }' });
    const deep = await counted(() => fetch(`${ref.url}/graphql`, { method: 'POST', headers: { ...bearer(), ...json }, body: nested }), 200);
    expect(selectList(deep, 'post')).toEqual(['author_id', 'id', 'title']);
    expect(selectList(deep, 'comment')).toEqual(['body', 'post_id']);
    const answer = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { ...bearer(), ...json }, body: nested });
    const post = ((await answer.json()) as { data: { authors: { posts: { title: string; comments: { body: string }[] }[] }[] } }).data.authors[0]?.posts[0];
    expect(post?.comments.length).toBeGreaterThan(0);
  });

  it('GraphQL over SSE with a session cookie: a query reads the session once (only a subscription is watched, and reads it again)', async () => {
    const browser = new HttpClient(ref.url);
    await browser.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    const cookie = `portico_session=${browser.cookies.get('portico_session') as string}`;
    const sessionReads = () => statements.filter((s) => /from [`"]session[`"]/.test(s)).length;
    const headers = { ...json, accept: 'text/event-stream', cookie };
    await counted(() => fetch(`${ref.url}/graphql/sse`, { method: 'POST', headers, body: JSON.stringify({ query: '{ posts(limit: 1) { id } }' }) }), 200);
    await new Promise((resolve) => setTimeout(resolve, 200)); // a watch's read would have landed
    expect(sessionReads()).toBe(1);
    // A subscription reads it again once its watch listens (a logout in between would end it).
    statements.length = 0;
    const controller = new AbortController();
    const res = await fetch(`${ref.url}/graphql/sse`, { method: 'POST', headers, body: JSON.stringify({ query: 'subscription { postChanged(id: "1") { id } }' }), signal: controller.signal });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sessionReads()).toBe(2);
    controller.abort();
  });

  it('GraphQL over WebSocket with a session cookie: a query reads the session once; a subscription reads it again once watched', async () => {
    const browser = new HttpClient(ref.url);
    await browser.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    const cookie = `portico_session=${browser.cookies.get('portico_session') as string}`;
    const sessionReads = () => statements.filter((s) => /from [`"]session[`"]/.test(s)).length;
    // The browser's cookie rides on the upgrade request, as a page's socket would send it.
    class CookieSocket extends WebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols, { headers: { cookie } });
      }
    }
    const client = createWsClient({ url: `${ref.url.replace(/^http/, 'ws')}/graphql/ws`, webSocketImpl: CookieSocket, retryAttempts: 0, lazy: true });
    try {
      statements.length = 0;
      const answers = client.iterate({ query: '{ posts(limit: 1) { id } }' });
      const first = await answers.next();
      expect((first.value as { data?: { posts: unknown[] } }).data?.posts).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 200)); // a watch's read would have landed
      expect(sessionReads()).toBe(1);
      statements.length = 0;
      const unsubscribe = client.subscribe({ query: 'subscription { postChanged(id: "1") { id } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(sessionReads()).toBe(2);
      unsubscribe();
    } finally {
      await client.dispose();
    }
  });

  it('JSON login: the user, then last_login and the token as one atomic write (one round trip on PostgreSQL)', async () => {
    const login = await counted(() => fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ username: 'bob', password: 'bob-password-1' }) }), 200);
    // PostgreSQL pipelines the update and the insert, committed together; SQLite wraps them in a transaction.
    expect(login.map((s) => s.split(/[ ;]/)[0]?.toLowerCase())).toEqual(backend === 'postgresql' ? ['select', 'update', 'insert'] : ['select', 'begin', 'update', 'insert', 'commit']);
  });

  it('a revoked token stops working at once in the process that revoked it (cache or not)', async () => {
    const res = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
    const t = ((await res.json()) as { token: string }).token;
    expect((await fetch(`${ref.url}/api/post/1`, { headers: bearer(t) })).status).toBe(200);
    expect((await fetch(`${ref.url}/api/auth/logout`, { method: 'POST', headers: bearer(t) })).status).toBeLessThan(300);
    expect((await fetch(`${ref.url}/api/post/1`, { headers: bearer(t) })).status).toBe(401);
  });
}


/** The sorted select list of the statement in `sent` that reads `table`. */
const selectList = (sent: readonly string[], table: string): string[] | undefined =>
  /^select (.*?) from/
    .exec(sent.find((s) => s.includes(` from "${table}"`) || s.includes(` from \`${table}\``)) ?? '')?.[1]
    ?.replace(/[`"]/g, '')
    .split(', ')
    .sort();
describe('statement counts on SQLite', () => statementCounts('sqlite'));
describe.skipIf(!pg)('statement counts on PostgreSQL', () => statementCounts('postgresql'));
