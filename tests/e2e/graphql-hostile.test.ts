import { getIntrospectionQuery } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { RecordStore } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Hostile GraphQL documents against the one pipeline, on each transport (POST /graphql,
 * POST /graphql/sse, /graphql/ws) and each SQL backend: every refusal names its limit, none is
 * an internal error, the process keeps serving, and a client that leaves stops the reads.
 */

type Backend = 'sqlite' | 'postgresql';
type Transport = 'http' | 'sse' | 'ws';
const TRANSPORTS: readonly Transport[] = ['http', 'sse', 'ws'];

/** One answer, whatever the transport (`status` only over POST /graphql). */
interface Answer {
  status?: number;
  errors?: { message: string }[];
  data?: Record<string, unknown> | null;
}
interface Sink {
  next(value: Answer): void;
  error(error: unknown): void;
  complete(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with the last result a graphql-sse / graphql-ws sink got; an array given to `error` is a refusal (graphql-ws). */
function viaSink(subscribe: (sink: Sink) => () => void, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let last: Answer = {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = subscribe({
      next: (value) => void (last = value),
      error: (error) => {
        clearTimeout(timer);
        if (Array.isArray(error)) resolve({ errors: error as { message: string }[] });
        else reject(error instanceof Error ? error : new Error(`transport failure: ${String((error as { code?: unknown }).code ?? error)}`));
      },
      complete: () => {
        clearTimeout(timer);
        resolve(last);
      },
    });
  });
}

/** The three transports of one running app, and a way to start an operation and walk away from it. */
function connect(url: string) {
  const sse = createSseClient({ url: `${url}/graphql/sse`, singleConnection: false, retryAttempts: 0 });
  const wsClient = () => createWsClient({ url: `${url.replace('http://', 'ws://')}/graphql/ws`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const ws = wsClient();
  const send = async (transport: Transport, query: string, variables: Record<string, unknown> = {}, timeoutMs = 20_000): Promise<Answer> => {
    if (transport === 'sse') return viaSink((sink) => sse.subscribe({ query, variables }, sink as never), timeoutMs);
    if (transport === 'ws') return viaSink((sink) => ws.subscribe({ query, variables }, sink as never), timeoutMs);
    // The spec's media type, under which a refused request is a 400 (under application/json it is a 200).
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await res.json()) as Answer;
    return { status: res.status, ...(body.errors ? { errors: body.errors } : {}), ...(body.data !== undefined ? { data: body.data } : {}) };
  };
  /** Starts `query` and returns how to leave: abort the fetch, unsubscribe the SSE stream, dispose the WebSocket client. */
  const start = (transport: Transport, query: string): (() => Promise<void>) => {
    const ignore = { next: () => undefined, error: () => undefined, complete: () => undefined };
    if (transport === 'sse') {
      const unsubscribe = sse.subscribe({ query }, ignore);
      return async () => unsubscribe();
    }
    if (transport === 'ws') {
      const own = wsClient();
      own.subscribe({ query }, ignore);
      return async () => {
        await own.dispose();
      };
    }
    const controller = new AbortController();
    fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }), signal: controller.signal }).catch(() => undefined);
    return async () => controller.abort();
  };
  const close = async () => {
    sse.dispose();
    await ws.dispose();
  };
  return { send, start, close };
}

/** Every message a refusal may carry: a limit, named (so a hostile document is otherwise valid). */
const ANY_LIMIT = /depth limit|cost limit|Aliases limit|tokens|characters|introspection/;

/** A refusal: errors naming the limit and only limits, no data, 400 over POST, never an internal failure. */
function expectRefused(answer: Answer, limit: RegExp): void {
  const messages = (answer.errors ?? []).map((e) => e.message);
  expect(messages.length, JSON.stringify(answer).slice(0, 500)).toBeGreaterThan(0);
  expect(messages.some((m) => limit.test(m)), messages.join(' | ')).toBe(true);
  for (const m of messages) {
    expect(m).not.toMatch(/Maximum call stack|unexpected error|could not be analysed/i);
    expect(m).toMatch(ANY_LIMIT);
  }
  expect(answer.data ?? undefined).toBeUndefined();
  if (answer.status !== undefined) expect(answer.status).toBe(400);
}

function expectOk(answer: Answer): Record<string, unknown> {
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  if (answer.status !== undefined) expect(answer.status).toBe(200);
  return answer.data ?? {};
}

/** `{ a { b { c … leaf } } }` from a list of fields, each nesting the next. */
const chain = (fields: readonly string[], leaf: string, sep = ' '): string => `{${sep}${fields.map((f) => `${f}${sep}{${sep}`).join('')}${leaf}${`${sep}}`.repeat(fields.length)}${sep}}`;
/** `posts`, `author`, `posts`, … (`n` fields). */
const alternating = (n: number, first = 'posts', second = 'author') => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? first : second));

/**
 * Fragment fan-out: Ai and Bi each spread A(i+1) and B(i+1), so an expanding walker visits
 * 2^levels fragments. A valid document (the leaves select list fields, depth 4) whose only
 * problem, from 4 levels up, is its cost.
 */
function fanOut(levels: number): string {
  const fragments: string[] = [];
  for (let i = 0; i < levels; i++) {
    fragments.push(`fragment A${i} on Post { id ...A${i + 1} ...B${i + 1} }`, `fragment B${i} on Post { title ...A${i + 1} ...B${i + 1} }`);
  }
  fragments.push(`fragment A${levels} on Post { comments { id } }`, `fragment B${levels} on Post { author { posts { id } } }`);
  return `query FanOut { posts { ...A0 ...B0 } } ${fragments.join(' ')}`;
}

/** `fragment F0 { ...F1 }` … down to `F{n-1} { id }`. */
const fragmentChain = (n: number): string =>
  `query { posts { ...F0 } } ${Array.from({ length: n }, (_, i) => `fragment F${i} on Post { ${i === n - 1 ? 'id' : `...F${i + 1}`} }`).join(' ')}`;

const VARIABLE_PAGES = 'query($n: Int) { posts(limit: $n) { author { posts(limit: $n) { author { posts(limit: $n) { id } } } } } }';

/** The hostile corpus: every document and the limit its refusal must name. */
const CORPUS: readonly { name: string; query: string; variables?: Record<string, unknown>; limit: RegExp }[] = [
  { name: 'fragment fan-out, 20 levels', query: fanOut(20), limit: /cost limit/ },
  { name: 'fragment fan-out, 24 levels', query: fanOut(24), limit: /cost limit/ },
  { name: 'linear chain of 8,000 fragments', query: fragmentChain(8000), limit: /characters|tokens/ },
  { name: 'linear chain of 2,000 fragments (under the character limit)', query: fragmentChain(2000), limit: /tokens/ },
  { name: '500 aliases', query: `{ ${Array.from({ length: 500 }, (_, i) => `a${i}: authors { id }`).join(' ')} }`, limit: /Aliases limit/ },
  { name: 'depth 20 over 300 posts', query: chain(['post(id: "1")', ...alternating(18, 'author', 'posts')], 'id'), limit: /depth limit/ },
  { name: '100,000-deep selection', query: chain(alternating(100_000), 'id', ''), limit: /characters/ },
  { name: '1,500-deep selection (under the token limit)', query: chain(alternating(1_500), 'id', ''), limit: /depth limit/ },
  { name: 'page sizes as variables, n = 200', query: VARIABLE_PAGES, variables: { n: 200 }, limit: /cost limit/ },
  { name: 'reverse-list fan-out', query: '{ authors(limit: 200) { posts(limit: 200) { author { posts(limit: 200) { id } } } } }', limit: /cost limit/ },
  { name: '300 KB comment', query: `# ${'x'.repeat(300_000)}\n{ posts { id } }`, limit: /characters/ },
];

/** Polls GET /healthz every 50 ms until stopped; returns every status seen. */
function pollHealth(url: string): { stop(): Promise<number[]> } {
  const statuses: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      statuses.push(await fetch(`${url}/healthz`).then((r) => r.status, () => 0));
      await sleep(50);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return statuses;
    },
  };
}

/** Makes every store read wait `ms` before its statement, as a slow database would. */
function slowReads(store: RecordStore, ms: number): () => void {
  const { find, getManyByIds } = store;
  store.find = async function (this: RecordStore, ...args: Parameters<RecordStore['find']>) {
    await sleep(ms);
    return find.apply(this, args);
  };
  store.getManyByIds = async function (this: RecordStore, ...args: Parameters<RecordStore['getManyByIds']>) {
    await sleep(ms);
    return getManyByIds.apply(this, args);
  };
  return () => {
    store.find = find;
    store.getManyByIds = getManyByIds;
  };
}

function hostileSuite(backend: Backend): void {
  let ref: RunningReference;
  let client: ReturnType<typeof connect>;
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    client = connect(ref.url);
    // Author 1 has posts 1-3 from the seed: bring it to 300.
    await ref.app.store.insertMany('post', Array.from({ length: 297 }, (_, i) => ({ title: `bulk ${i}`, author_id: 1 })));
  });
  afterAll(async () => {
    await client?.close();
    await ref?.close();
  });

  it('a WebSocket message over the app\'s body limit (1 MiB) closes the socket with 1009, as POST /graphql answers 413', async () => {
    const over = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `# ${'x'.repeat(1024 * 1024)}\n{ posts { id } }` } });
    const http = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `# ${'x'.repeat(1024 * 1024)}\n{ posts { id } }` }) });
    expect(http.status).toBe(413);
    // The client's oversized message is not printed as an internal error (graphql-ws's console.error).
    const printed = vi.spyOn(console, 'error');
    const closed = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${ref.url.replace('http://', 'ws://')}/graphql/ws`, 'graphql-transport-ws');
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      ws.on('message', (data) => {
        if ((JSON.parse(String(data)) as { type: string }).type === 'connection_ack') ws.send(over);
      });
      ws.on('close', (code) => resolve(code));
      ws.on('error', () => undefined);
      setTimeout(() => reject(new Error('the socket stayed open')), 5000);
    });
    expect(closed).toBe(1009);
    await sleep(50);
    expect(printed.mock.calls.filter((args) => String(args[0]).includes('Internal error'))).toEqual([]);
    printed.mockRestore();
    expect((await fetch(`${ref.url}/healthz`)).status).toBe(200);
  });

  it('one WebSocket connection runs at most 100 operations at once; finished and refused ones do not count', async () => {
    const ws = new WebSocket(`${ref.url.replace('http://', 'ws://')}/graphql/ws`, 'graphql-transport-ws');
    const inbox: { id?: string; type: string; payload?: unknown }[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data) => {
      inbox.push(JSON.parse(String(data)) as { id?: string; type: string });
      for (const wake of waiters.splice(0)) wake();
    });
    const next = async (match: (m: { id?: string; type: string }) => boolean) => {
      for (;;) {
        const at = inbox.findIndex(match);
        if (at >= 0) return inbox.splice(at, 1)[0]!;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };
    await new Promise((resolve) => ws.on('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await next((m) => m.type === 'connection_ack');
    // 150 queries one after another: each completes and leaves no slot taken.
    for (let i = 0; i < 150; i++) {
      ws.send(JSON.stringify({ id: `q${i}`, type: 'subscribe', payload: { query: '{ __typename }' } }));
      await next((m) => m.id === `q${i}` && m.type === 'complete');
    }
    // 150 refused documents likewise (graphql-ws does not report a refusal as completed).
    for (let i = 0; i < 150; i++) {
      ws.send(JSON.stringify({ id: `bad${i}`, type: 'subscribe', payload: { query: '{ nonexistentField }' } }));
      expect((await next((m) => m.id === `bad${i}`)).type).toBe('error');
    }
    for (let i = 0; i < 100; i++) ws.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { postDeleted }' } }));
    ws.send(JSON.stringify({ id: 'over', type: 'subscribe', payload: { query: 'subscription { postDeleted }' } }));
    const refused = await next((m) => m.id === 'over');
    expect(refused.type).toBe('error');
    expect(refused.payload).toMatchObject([{ message: 'at most 100 operations may run at once on one connection; complete one first', extensions: { code: 'TOO_MANY_REQUESTS' } }]);
    expect(inbox.filter((m) => m.type === 'error')).toEqual([]); // the 100 before it were taken
    // Completing one frees its slot.
    ws.send(JSON.stringify({ id: 's0', type: 'complete' }));
    await sleep(100);
    ws.send(JSON.stringify({ id: 'again', type: 'subscribe', payload: { query: '{ __typename }' } }));
    expect((await next((m) => m.id === 'again')).type).toBe('next');
    ws.close();
  });

  it('introspection answers in development on every transport, and is refused in production', async () => {
    for (const t of TRANSPORTS) {
      const data = expectOk(await client.send(t, getIntrospectionQuery()));
      expect(data.__schema, t).toMatchObject({ queryType: { name: 'Query' } });
    }
    const prod = await startReference(backend, { env: { NODE_ENV: 'production', THROTTLE: 'off' } });
    const prodClient = connect(prod.url);
    try {
      for (const t of TRANSPORTS) {
        const answer = await prodClient.send(t, getIntrospectionQuery());
        console.log(`[${backend}/${t}] production introspection: ${answer.errors?.map((e) => e.message).join(' | ')}`);
        expectRefused(answer, /introspection/);
      }
    } finally {
      await prodClient.close();
      await prod.close();
    }
  });

  it('the fan-out documents are valid: a 3-level one runs', async () => {
    for (const t of TRANSPORTS) expect(expectOk(await client.send(t, fanOut(3))).posts, t).toHaveLength(50);
  });

  for (const t of TRANSPORTS) {
    it(`${t}: every hostile document is refused naming its limit, then the process still serves`, async () => {
      for (const doc of CORPUS) {
        const started = performance.now();
        const answer = await client.send(t, doc.query, doc.variables);
        const ms = Math.round(performance.now() - started);
        console.log(`[${backend}/${t}] ${doc.name} (${doc.query.length} chars, ${ms} ms): ${answer.errors?.map((e) => e.message.slice(0, 160)).join(' | ')}`);
        expectRefused(answer, doc.limit);
      }
      expect((await fetch(`${ref.url}/healthz`)).status).toBe(200);
      expect(expectOk(await client.send(t, '{ post(id: "4") { id author { name } } }')).post).toEqual({ id: '4', author: { name: expect.any(String) } });
    }, 120_000);
  }

  it('page sizes: given as variables they are priced; absent means 50, above 200 means 200', async () => {
    for (const t of TRANSPORTS) {
      const small = expectOk(await client.send(t, VARIABLE_PAGES, { n: 2 }));
      expect(small.posts, t).toHaveLength(2);
      // The same text is priced again for each request's variables (only variable-free documents are priced once).
      expectRefused(await client.send(t, VARIABLE_PAGES, { n: 200 }), /cost limit/);
      expect(expectOk(await client.send(t, VARIABLE_PAGES, { n: 1 })).posts, t).toHaveLength(1);
      const fanOutAgain = '{ authors(limit: 200) { posts(limit: 200) { author { posts(limit: 199) { id } } } } }';
      for (let i = 0; i < 2; i++) expectRefused(await client.send(t, fanOutAgain), /cost limit/);
      const byDefault = expectOk(await client.send(t, '{ author(id: "1") { posts { id } } }'));
      expect((byDefault.author as { posts: unknown[] }).posts, t).toHaveLength(50);
      const capped = expectOk(await client.send(t, '{ author(id: "1") { posts(limit: 1000) { id } } }'));
      expect((capped.author as { posts: unknown[] }).posts, t).toHaveLength(200);
    }
  });

  it('the corpus on all transports at once leaves /healthz answering 200 throughout', async () => {
    const poll = pollHealth(ref.url);
    await Promise.all(TRANSPORTS.map(async (t) => Promise.all(CORPUS.map(async (doc) => expectRefused(await client.send(t, doc.query, doc.variables), doc.limit)))));
    const statuses = await poll.stop();
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200), statuses.join(',')).toBe(true);
    expectOk(await client.send('http', '{ posts(limit: 1) { id } }'));
  }, 120_000);

  it('a validation error is reported once', async () => {
    for (const t of TRANSPORTS) {
      const answer = await client.send(t, '{ posts { nope } }');
      expect(answer.errors?.map((e) => e.message), t).toEqual(['Cannot query field "nope" on type "Post".']);
      if (t === 'http') expect(answer.status).toBe(400);
    }
    // Under application/json the same refusal is a 200 (GraphQL over HTTP's SHOULD for legacy clients).
    const legacy = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query: '{ posts { nope } }' }) });
    expect(legacy.status).toBe(200);
    expect(((await legacy.json()) as Answer).errors?.map((e) => e.message)).toEqual(['Cannot query field "nope" on type "Post".']);
  });

  describe('an operation whose client leaves stops reading', () => {
    // Distinct page sizes defeat the per-request loader cache: one statement per list level (6 in all).
    const QUERY = '{ posts(limit: 2) { author { posts(limit: 3) { author { posts(limit: 4) { author { posts(limit: 5) { author { posts(limit: 6) { author { name } } } } } } } } } } }';
    const DELAY = 150;
    let statements = 0;
    // The task worker's polls run on their own schedule, not on the operation's path.
    const count = (q: { sql: string }) => void (q.sql.includes('"task_row"') || statements++);
    let restore: () => void = () => undefined;
    beforeAll(() => {
      const knex = ref.app.db.sql?.knex;
      if (!knex) throw new Error('SQL backend expected');
      knex.on('query', count);
      restore = slowReads(ref.app.store, DELAY);
    });
    afterAll(() => {
      restore();
      ref.app.db.sql?.knex.off('query', count);
    });

    it('a full run issues one statement per list level', async () => {
      statements = 0;
      expectOk(await client.send('http', QUERY));
      expect(statements).toBe(6);
    });

    for (const t of TRANSPORTS) {
      it(`${t}: leaving after the first statement stops the statements`, async () => {
        statements = 0;
        const leave = client.start(t, QUERY);
        while (statements === 0) await sleep(5);
        await leave();
        const atLeave = statements;
        // The statements in flight when the client left may still finish (later under load):
        // wait until none has started for two statement delays, then nothing more may start.
        let settled = statements;
        for (let quiet = 0; quiet < 2 * DELAY + 200; quiet += 50) {
          await sleep(50);
          if (statements !== settled) [settled, quiet] = [statements, 0];
        }
        await sleep(6 * DELAY + 300); // longer than a whole run would take
        console.log(`[${backend}/${t}] statements: ${atLeave} when the client left, ${settled} once settled, ${statements} at the end (a full run: 6)`);
        expect(statements).toBe(settled);
        expect(statements - atLeave).toBeLessThanOrEqual(2);
        expect(statements).toBeLessThan(6);
        expect((await fetch(`${ref.url}/healthz`)).status).toBe(200);
      });
    }
  });
}

const pg = await postgresAvailable();

describe('hostile GraphQL documents: SQLite', () => hostileSuite('sqlite'));
describe.skipIf(!pg)('hostile GraphQL documents: PostgreSQL', () => hostileSuite('postgresql'));
