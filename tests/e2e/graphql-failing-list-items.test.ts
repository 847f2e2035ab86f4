import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { c, createApp, defineModel, graphql, type PorticoApp } from '../../src/index.js';

/**
 * A query whose list items fail, some at once and some after a read, is an error in the answer on
 * every transport and never an unhandled rejection (which ends a Node process). graphql-js's
 * `execute`, which serves SSE and WebSocket, stopped at the post without an author (its
 * `comments(limit: -1)` fails at once) and left the failures of the posts before it unobserved.
 */
const QUERY = '{ posts { author { name } comments(limit: -1) { body } } }';

interface Answer {
  readonly data?: unknown;
  readonly errors?: readonly { message: string; extensions?: { code?: string } }[];
}

describe('GraphQL list items that fail, on POST, SSE and WebSocket', () => {
  let app: PorticoApp;
  let url: string;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => void unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', record);
    app = createApp({
      database: 'memory:',
      logRequests: false,
      models: [
        defineModel('author', { id: c.id(), name: c.text() }),
        defineModel('post', { id: c.id(), title: c.text(), author_id: c.fk('author').nullable() }),
        defineModel('comment', { id: c.id(), post_id: c.fk('post'), body: c.text() }),
      ],
    }).use(graphql().expose('author').expose('post').expose('comment'));
    ({ url } = await app.listen(0));
    const ada = await app.store.insert('author', { name: 'Ada' });
    for (const author_id of [ada.id ?? null, null, ada.id ?? null]) await app.store.insert('post', { title: 'p', author_id });
  });
  afterAll(async () => {
    await app.close();
    process.off('unhandledRejection', record);
  });

  /** The answer is the refusal of the negative limit; nulls reach the root (every level is non-null). */
  const refused = (answer: Answer) => {
    expect(answer.data).toBeNull();
    expect(answer.errors?.[0]?.message).toBe('limit must not be negative (got -1)');
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  };

  /** Lets the turns after an answer pass: a rejection left unobserved is reported within them. */
  const settle = async () => {
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
  };

  /** The one result of a query over a graphql-sse or graphql-ws client. */
  const single = (subscribe: (sink: { next(v: Answer): void; error(e: unknown): void; complete(): void }) => () => void) =>
    new Promise<Answer>((resolve, reject) => {
      let got: Answer | undefined;
      subscribe({ next: (v) => (got = v), error: reject, complete: () => (got ? resolve(got) : reject(new Error('no result'))) });
    });

  it('POST /graphql (graphql-jit)', async () => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: QUERY }) });
    refused((await res.json()) as Answer);
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('POST /graphql/sse (graphql-js)', async () => {
    const client = createSseClient({ url: `${url}/graphql/sse`, singleConnection: false, retryAttempts: 0 });
    refused(await single((sink) => client.subscribe({ query: QUERY }, sink as never)));
    client.dispose();
    await settle();
    expect(unhandled).toEqual([]);
  });

  it('/graphql/ws (graphql-js)', async () => {
    const client = createWsClient({ url: `${url.replace('http://', 'ws://')}/graphql/ws`, webSocketImpl: WebSocket, retryAttempts: 0 });
    refused(await single((sink) => client.subscribe({ query: QUERY }, sink as never)));
    await client.dispose();
    await settle();
    expect(unhandled).toEqual([]);
  });
});
