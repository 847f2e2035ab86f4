import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * SPEC "GraphQL" 6-7 and "Limits": `postsConnection(first, after, orderBy, desc)` and
 * `posts(limit, offset)` on the edges of their arguments: negative sizes are bad input, `first: 0`
 * is an empty page that keeps its position and tells honestly whether rows follow, sizes above
 * 200 are clamped, and following `endCursor` visits every row exactly once.
 */

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}
interface Connection {
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: PageInfo;
}
interface GqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

const CONNECTION = `query($first: Int, $after: String, $orderBy: String, $desc: Boolean) {
  postsConnection(first: $first, after: $after, orderBy: $orderBy, desc: $desc) {
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

describe('GraphQL connections and lists at the edges of their arguments (SQLite)', () => {
  let ref: RunningReference;
  /** Every live post id, as GraphQL spells ids. */
  let allIds: string[] = [];

  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    // 250 more posts, with repeated titles so that orderings by title have ties.
    await ref.app.store.insertMany(
      'post',
      Array.from({ length: 250 }, (_, i) => ({ title: `bulk ${i % 7}`, author_id: (i % 2) + 1 })),
    );
    const rows = await ref.app.store.find('post', { limit: 10_000 });
    allIds = rows.map((r) => String(r.id)).sort();
    expect(allIds.length).toBeGreaterThan(250);
  });
  afterAll(async () => ref.close());

  const gql = async (query: string, variables: Record<string, unknown> = {}): Promise<GqlAnswer> => {
    const res = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as GqlAnswer;
  };
  const connection = async (variables: Record<string, unknown>): Promise<Connection> => {
    const answer = await gql(CONNECTION, variables);
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data?.postsConnection as Connection;
  };

  it('first: -1 is bad input and answers no data', async () => {
    const answer = await gql(CONNECTION, { first: -1 });
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(answer.errors?.[0]?.message).toMatch(/first/);
    expect(answer.data ?? null).toBeNull();
  });

  it('first: 0 is an empty page: hasNextPage true while rows exist, endCursor null without `after`', async () => {
    const conn = await connection({ first: 0 });
    expect(conn.edges).toEqual([]);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    expect(conn.pageInfo.hasPreviousPage).toBe(false);
    expect(conn.pageInfo.endCursor).toBeNull();
    expect(conn.pageInfo.startCursor).toBeNull();
  });

  it('first: 0 after the last row: hasNextPage false and endCursor is the `after` given', async () => {
    for (const ordering of [{}, { orderBy: 'title' }, { orderBy: 'title', desc: true }, { desc: true }]) {
      // The last row of the ordering is the first row of the reverse ordering.
      const reverse = await connection({ first: 1, ...ordering, desc: !('desc' in ordering) });
      const lastId = reverse.edges[0]?.node.id;
      expect(lastId).toBeDefined();
      // Its cursor under the ordering itself: page to it with a large page (cursors are bound to the ordering).
      let after: string | null = null;
      let lastCursor: string | null = null;
      for (let page = 0; page < 10 && lastCursor === null; page++) {
        const conn = await connection({ first: 200, after, ...ordering });
        lastCursor = conn.edges.find((e) => e.node.id === lastId)?.cursor ?? null;
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(lastCursor, JSON.stringify(ordering)).not.toBeNull();
      const empty = await connection({ first: 0, after: lastCursor, ...ordering });
      expect(empty.edges).toEqual([]);
      expect(empty.pageInfo.hasNextPage, JSON.stringify(ordering)).toBe(false);
      expect(empty.pageInfo.endCursor).toBe(lastCursor);
      expect(empty.pageInfo.hasPreviousPage).toBe(true);
      // And one page from there is empty too: the cursor really is at the end.
      const next = await connection({ first: 5, after: lastCursor, ...ordering });
      expect(next.edges).toEqual([]);
      expect(next.pageInfo.hasNextPage).toBe(false);
    }
  });

  it('first: 0 in the middle keeps the position: hasNextPage true, endCursor the `after` given, and paging resumes there', async () => {
    const head = await connection({ first: 3 });
    const cursor = head.pageInfo.endCursor;
    const empty = await connection({ first: 0, after: cursor });
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo).toMatchObject({ hasNextPage: true, endCursor: cursor });
    const resumed = await connection({ first: 2, after: empty.pageInfo.endCursor });
    const direct = await connection({ first: 5 });
    expect(resumed.edges.map((e) => e.node.id)).toEqual(direct.edges.slice(3).map((e) => e.node.id));
  });

  it('first: 1000 is clamped to 200', async () => {
    const conn = await connection({ first: 1000 });
    expect(conn.edges.length).toBe(200);
    expect(conn.pageInfo.hasNextPage).toBe(true);
    const rest = await connection({ first: 1000, after: conn.pageInfo.endCursor });
    expect(rest.edges.length).toBe(allIds.length - 200);
    expect(rest.pageInfo.hasNextPage).toBe(false);
  });

  it('posts(limit: -1) and posts(offset: -1) are bad input; posts(limit: 1000) is clamped to 200', async () => {
    for (const query of ['{ posts(limit: -1) { id } }', '{ posts(offset: -1) { id } }']) {
      const answer = await gql(query);
      expect(answer.errors?.[0]?.extensions?.code, query).toBe('BAD_USER_INPUT');
      expect(answer.data ?? null, query).toBeNull();
    }
    const clamped = await gql('{ posts(limit: 1000) { id } }');
    expect((clamped.data?.posts as unknown[]).length).toBe(200);
    const zero = await gql('{ posts(limit: 0) { id } }');
    expect(zero.data?.posts).toEqual([]);
    const tail = await gql('{ posts(limit: 1000, offset: 200) { id } }');
    expect((tail.data?.posts as unknown[]).length).toBe(allIds.length - 200);
  });

  it('a pager following endCursor until hasNextPage is false visits every row exactly once and terminates', async () => {
    const orderings = [
      {},
      { desc: true },
      { orderBy: 'title' },
      { orderBy: 'title', desc: true },
      { orderBy: 'body' },
      { orderBy: 'body', desc: true },
      { orderBy: 'published', desc: true },
      { orderBy: 'created_at', desc: true },
    ];
    await pageThrough({}, 1);
    for (const ordering of orderings) {
      for (const first of [5, 64, 1000]) await pageThrough(ordering, first);
    }
  }, 120_000);

  it('a pager ordered by a foreign-key column (author_id) also visits every row exactly once', async () => {
    for (const desc of [false, true]) {
      for (const first of [7, 1000]) await pageThrough({ orderBy: 'author_id', desc }, first);
    }
  }, 120_000);

  /** Follows endCursor from the start until hasNextPage is false; every row once, and a bounded number of requests. */
  async function pageThrough(ordering: Record<string, unknown>, first: number): Promise<void> {
    // A terminating pager needs at most ceil(rows / page) + 1 requests; more means it loops.
    const bound = Math.ceil(allIds.length / Math.min(first, 200)) + 1;
    const seen: string[] = [];
    let after: string | null = null;
    let requests = 0;
    for (;;) {
      requests++;
      expect(requests, `${JSON.stringify(ordering)} first ${first}: no end in sight`).toBeLessThanOrEqual(bound);
      const conn: Connection = await connection({ first, after, ...ordering });
      expect(conn.edges.length).toBeLessThanOrEqual(Math.min(first, 200));
      seen.push(...conn.edges.map((e) => e.node.id));
      if (!conn.pageInfo.hasNextPage) break;
      expect(conn.edges.length, 'a page before the end is never empty').toBeGreaterThan(0);
      expect(conn.pageInfo.endCursor).toBe(conn.edges.at(-1)?.cursor);
      after = conn.pageInfo.endCursor;
    }
    expect(new Set(seen).size, `${JSON.stringify(ordering)} first ${first}: duplicates`).toBe(seen.length);
    expect([...seen].sort(), `${JSON.stringify(ordering)} first ${first}`).toEqual(allIds);
  }
});
