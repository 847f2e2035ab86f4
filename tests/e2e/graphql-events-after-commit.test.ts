import { createClient as createSseClient, type Client as SseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { EventBus, PorticoApp, Row } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference } from '../support/reference-server.js';

/**
 * DESIGN §3 "events and commits": GraphQL subscriptions (`postChanged`, on the bus's
 * `onCommitted`) and application topics published inside a store transaction are delivered only
 * after the COMMIT, in order, and never after a rollback, on SQLite and PostgreSQL, over both
 * subscription transports (graphql-sse and graphql-ws).
 */

const pg = await postgresAvailable();

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (no assertion is timed: the deadline only turns a hang into a failure). */
async function until(check: () => boolean, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** One delivered `postChanged` payload with when it arrived and whether the writer had already seen its commit. */
interface Arrival {
  readonly id: string;
  readonly title: string;
  readonly at: number;
  /** The value of the test's "transaction resolved" flag at the moment the event arrived. */
  readonly afterResolve: boolean;
}

interface RunningApp {
  readonly app: PorticoApp;
  readonly url: string;
  readonly bus: EventBus;
  close(): Promise<void>;
}

/** The reference app with its event bus (`app.events`). */
async function startWithBus(backend: 'sqlite' | 'postgresql'): Promise<RunningApp> {
  const ref = await startReference(backend, { env: { THROTTLE: 'off' } });
  return { app: ref.app, url: ref.url, bus: ref.app.events, close: () => ref.close() };
}

const QUERY = 'subscription { postChanged(id: "2") { id title } }';

function eventsSuite(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningApp;
  let sse: SseClient;
  let ws: WsClient;
  const disposers: (() => void)[] = [];
  const got: Record<'sse' | 'ws', Arrival[]> = { sse: [], ws: [] };
  const errors: unknown[] = [];
  /** Set by a test once the transaction promise it watches has resolved. */
  let resolved = true;
  let primes = 0;

  const titles = (which: 'sse' | 'ws') => got[which].map((a) => a.title);
  const both = (check: (list: Arrival[]) => boolean) => check(got.sse) && check(got.ws);
  const lastIs = (title: string) => both((list) => list.at(-1)?.title === title);

  /** Makes a committed update on post 2 and waits until both subscribers have it: everything delivered before it has arrived too. */
  async function sentinel(title: string): Promise<Row> {
    const row = await ref.app.store.update('post', 2, { title });
    await until(() => lastIs(title), `the sentinel "${title}" on both transports`);
    return row as Row;
  }

  beforeAll(async () => {
    ref = await startWithBus(backend);
    sse = createSseClient({ url: `${ref.url}/graphql/sse`, singleConnection: false, retryAttempts: 0 });
    ws = createWsClient({ url: `${ref.url.replace('http://', 'ws://')}/graphql/ws`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    for (const [which, client] of [
      ['sse', sse],
      ['ws', ws],
    ] as const) {
      const sink = {
        next: (value: { data?: { postChanged?: { id: string; title: string } } | null; errors?: unknown }) => {
          const row = value.data?.postChanged;
          if (!row) errors.push(value);
          else got[which].push({ id: row.id, title: row.title, at: Date.now(), afterResolve: resolved });
        },
        error: (error: unknown) => void errors.push(error),
        complete: () => undefined,
      };
      disposers.push(client.subscribe({ query: QUERY }, sink as never));
    }
    // Ready when both subscriptions are established: commit updates until both have heard one,
    // then wait for the last one so that no priming event is still in flight.
    let last = '';
    const end = Date.now() + 20_000;
    while (!both((list) => list.length > 0)) {
      if (Date.now() > end) throw new Error(`subscriptions never became live: ${JSON.stringify(errors)}`);
      last = `prime ${primes++}`;
      await ref.app.store.update('post', 2, { title: last });
      await sleep(100);
    }
    await until(() => lastIs(last), 'the last priming event');
  }, 60_000);

  afterAll(async () => {
    for (const dispose of disposers) dispose();
    sse?.dispose();
    await ws?.dispose();
    await ref?.close();
  });

  beforeEach(() => {
    got.sse.length = 0;
    got.ws.length = 0;
    resolved = true;
  });

  it('a write held open inside a transaction is delivered once, after the transaction resolved, with the committed row', async () => {
    const store = ref.app.store;
    let heardDuringHold = -1;
    resolved = false;
    let resolvedAt = 0;
    await store.transaction(async (tx) => {
      await tx.update('post', 2, { title: 'held' });
      await sleep(500);
      heardDuringHold = got.sse.length + got.ws.length;
    });
    resolved = true;
    resolvedAt = Date.now();
    expect(heardDuringHold).toBe(0);

    await until(() => both((list) => list.length > 0), 'the held write');
    const committed = await store.getById('post', 2);
    expect(committed?.title).toBe('held');
    for (const which of ['sse', 'ws'] as const) {
      const [arrival] = got[which];
      expect(arrival?.afterResolve, which).toBe(true);
      expect(arrival?.at, which).toBeGreaterThanOrEqual(resolvedAt);
      // The delivered row is the committed row.
      expect({ id: arrival?.id, title: arrival?.title }, which).toEqual({ id: String(committed?.id), title: committed?.title });
    }
    // Exactly one: events arrive in order, so once a later commit's event is in, nothing else for the held write can follow.
    await sentinel('after held');
    expect(titles('sse')).toEqual(['held', 'after held']);
    expect(titles('ws')).toEqual(['held', 'after held']);
    expect(errors).toEqual([]);
  });

  it('a rolled-back write delivers nothing; the subscription stays alive for the next commit', async () => {
    const store = ref.app.store;
    const before = await store.getById('post', 2);
    await expect(
      store.transaction(async (tx) => {
        await tx.update('post', 2, { title: 'rolled back' });
        throw new Error('roll it back');
      }),
    ).rejects.toThrow('roll it back');
    await sleep(500);
    expect(got.sse).toEqual([]);
    expect(got.ws).toEqual([]);
    expect((await store.getById('post', 2))?.title).toBe(before?.title);

    await sentinel('alive');
    expect(titles('sse')).toEqual(['alive']);
    expect(titles('ws')).toEqual(['alive']);
    expect(errors).toEqual([]);
  });

  it('the delivered row equals the row as committed (re-read after the commit)', async () => {
    const store = ref.app.store;
    resolved = false;
    await store.transaction(async (tx) => {
      await tx.update('post', 2, { title: 'committed row', body: 'committed body' });
    });
    resolved = true;
    const committed = await store.getById('post', 2);
    await until(() => lastIs('committed row'), 'the committed row');
    for (const which of ['sse', 'ws'] as const) {
      expect(got[which].map(({ id, title, afterResolve }) => ({ id, title, afterResolve }))).toEqual([{ id: String(committed?.id), title: committed?.title, afterResolve: true }]);
    }
  });

  it('two updates in one transaction deliver both events, in order, after the commit', async () => {
    const store = ref.app.store;
    const committedOrder: string[] = [];
    const off = ref.bus.onCommitted('post_save', 'post', (e) => {
      if (e.row.id === 2) committedOrder.push(String(e.row.title));
    });
    let heardInside = -1;
    resolved = false;
    try {
      await store.transaction(async (tx) => {
        await tx.update('post', 2, { title: 'first of two' });
        await tx.update('post', 2, { title: 'second of two' });
        await sleep(200);
        heardInside = got.sse.length + got.ws.length + committedOrder.length;
      });
      resolved = true;
    } finally {
      off();
    }
    expect(heardInside).toBe(0);
    // The bus hands committed handlers the rows as written, in the order written.
    expect(committedOrder).toEqual(['first of two', 'second of two']);
    // postChanged resolves by re-reading the row when the event is delivered, so both events carry
    // the committed row ('second of two'). The next write waits until both are in: a re-read
    // resolved after a later commit would carry that later row instead.
    await until(() => both((list) => list.length >= 2), 'both events of the transaction');
    await sentinel('after two');
    for (const which of ['sse', 'ws'] as const) {
      expect(titles(which)).toEqual(['second of two', 'second of two', 'after two']);
      expect(got[which].slice(0, 2).every((a) => a.afterResolve)).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('application topics published inside a transaction are delivered after the commit, in order, and never after a rollback', async () => {
    const store = ref.app.store;
    const topic = `t-${backend}`;
    const heard: { payload: unknown; storedTitle: unknown }[] = [];
    const off = ref.bus.subscribe(topic, async (payload) => {
      // Read outside the transaction: on PostgreSQL another connection sees only committed data.
      heard.push({ payload, storedTitle: (await store.getById('post', 3))?.title });
    });
    try {
      let heardInside = -1;
      await store.transaction(async (tx) => {
        await tx.update('post', 3, { title: 'topic commit' });
        await ref.bus.publish(topic, { n: 1 });
        await ref.bus.publish(topic, { n: 2 });
        heardInside = heard.length;
      });
      expect(heardInside).toBe(0);
      expect(heard).toEqual([
        { payload: { n: 1 }, storedTitle: 'topic commit' },
        { payload: { n: 2 }, storedTitle: 'topic commit' },
      ]);

      heard.length = 0;
      await expect(
        store.transaction(async (tx) => {
          await tx.update('post', 3, { title: 'topic rollback' });
          await ref.bus.publish(topic, { n: 3 });
          throw new Error('roll it back');
        }),
      ).rejects.toThrow('roll it back');
      await sleep(200);
      expect(heard).toEqual([]);
      expect((await store.getById('post', 3))?.title).toBe('topic commit');

      // Outside a transaction a publish is delivered at once.
      await ref.bus.publish(topic, { n: 4 });
      expect(heard).toEqual([{ payload: { n: 4 }, storedTitle: 'topic commit' }]);
    } finally {
      off();
    }
  });
}

describe('events after commit: SQLite', () => eventsSuite('sqlite'));
describe.skipIf(!pg)('events after commit: PostgreSQL', () => eventsSuite('postgresql'));
