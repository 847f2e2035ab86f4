import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

describe('GraphQL reads on the reference app', () => {
  let ref: RunningReference;
  let staffToken = '';
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    const res = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: 'staff', password: 'staff-password-1' });
    staffToken = ((await res.json()) as { token: string }).token;
  });
  afterAll(async () => ref.close());

  const gql = async (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const res = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
    return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: { code?: string } }[] } };
  };
  const staff = () => ({ authorization: `Bearer ${staffToken}` });

  it('deny by default: unexposed models are absent, even from introspection', async () => {
    const { body } = await gql('{ __schema { types { name } } }');
    const names = (body.data?.__schema as { types: { name: string }[] }).types.map((t) => t.name);
    for (const present of ['Author', 'Post', 'Comment', 'Reply', 'Tag', 'ShopOrder', 'OrderItem', 'Project', 'Milestone', 'StaffReport']) expect(names).toContain(present);
    for (const absent of ['AuthUser', 'Member', 'SecretConfig', 'Session', 'Ticket', 'Announcement', 'Link', 'ListOnly']) expect(names).not.toContain(absent);
  });

  it('hidden columns and password_hash are absent from the schema, not null', async () => {
    const { body } = await gql('{ __type(name: "Author") { fields { name } } }');
    const fields = (body.data?.__type as { fields: { name: string }[] }).fields.map((f) => f.name);
    expect(fields).toEqual(expect.arrayContaining(['id', 'name', 'bio', 'posts']));
    expect(fields).not.toContain('email');
    const item = await gql('{ __type(name: "OrderItem") { fields { name } } }');
    expect(JSON.stringify(item.body)).not.toContain('"secret"');
    const asked = await gql('{ authors { email } }');
    expect(asked.body.errors?.[0]?.message).toMatch(/email/);
  });

  it('one row, lists (ids as strings), forward and reverse relations', async () => {
    const { body } = await gql('{ post(id: "1") { id title author_id author { id name } comments { body } } authors(limit: 1) { name posts { id } } }');
    expect(body.errors).toBeUndefined();
    expect(body.data?.post).toMatchObject({ id: '1', author_id: '1', author: { id: '1', name: 'Ada Lovelace' } });
    expect((body.data?.post as { comments: unknown[] }).comments.length).toBeGreaterThan(0);
    expect(body.data?.authors).toEqual([{ name: 'Ada Lovelace', posts: [{ id: '1' }, { id: '2' }, { id: '3' }] }]);
    expect((await gql('{ post(id: "999") { id } }')).body.data?.post).toBeNull();
  });

  it('batches relations: a list with two relations is three queries', async () => {
    const knex = ref.app.db.sql?.knex;
    if (!knex) throw new Error('SQL backend expected');
    let queries = 0;
    const count = () => void queries++;
    knex.on('query', count);
    try {
      const { body } = await gql('{ posts { id author { name } comments { body } } }');
      expect(body.errors).toBeUndefined();
    } finally {
      knex.off('query', count);
    }
    expect(queries).toBe(3);
  });

  it('exposeIf: a caller who does not pass the gate gets FORBIDDEN; staff reads', async () => {
    const anon = await gql('{ staffReports { title } }');
    expect(anon.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const ok = await gql('{ staffReports { title } }', {}, staff());
    expect(ok.body.data?.staffReports).toEqual([{ title: 'Quarterly numbers' }]);
  });

  it('a private column is null unless unlocked', async () => {
    expect((await gql('{ post(id: "4") { score } }')).body.data?.post).toEqual({ score: null });
    expect((await gql('{ post(id: "4") { score } }', {}, staff())).body.data?.post).toEqual({ score: 42 });
  });

  it('cursor connections page every row exactly once and refuse a cursor replayed under another ordering', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const res = await gql('query($after: String) { postsConnection(first: 2, after: $after, orderBy: "title", desc: true) { edges { node { id } } pageInfo { hasNextPage endCursor } } }', { after });
      const conn = res.body.data?.postsConnection as { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      seen.push(...conn.edges.map((e) => e.node.id));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(seen.sort()).toEqual(['1', '2', '3', '4']);
    const first = await gql('{ postsConnection(first: 1, orderBy: "title") { pageInfo { endCursor } } }');
    const cursor = (first.body.data?.postsConnection as { pageInfo: { endCursor: string } }).pageInfo.endCursor;
    const replay = await gql('query($c: String) { postsConnection(first: 1, after: $c, orderBy: "id") { edges { cursor } } }', { c: cursor });
    expect(replay.body.errors?.[0]?.message).toMatch(/ordering/);
    const unknown = await gql('{ postsConnection(orderBy: "score") { edges { cursor } } }');
    expect(unknown.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('lists are capped at 200', async () => {
    await ref.app.store.insertMany('tag', Array.from({ length: 250 }, (_, i) => ({ id: `g${i}`, label: 'x' })));
    const res = await gql('{ tags(limit: 1000) { id } }');
    expect((res.body.data?.tags as unknown[]).length).toBe(200);
  });

  it('refuses a content type other than application/json with 415, and deep queries', async () => {
    const res = await fetch(`${ref.url}/graphql`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"query":"{ posts { id } }"}' });
    expect(res.status).toBe(415);
    const deep = await gql('{ posts { author { posts { author { posts { author { posts { author { posts { author { posts { author { name } } } } } } } } } } } } }');
    expect(deep.body.errors?.[0]?.message).toMatch(/nested/);
    const aliases = Array.from({ length: 5 }, (_, i) => `p${i}: posts(limit: 200) { id author { name } comments { body } }`).join(' ');
    const costly = await gql(`{ ${aliases} }`, {}, { accept: 'application/graphql-response+json' });
    expect(costly.status).toBe(400);
    expect((await gql(`{ ${aliases} }`, {}, { accept: 'application/json' })).status).toBe(200);
    expect(costly.body.errors?.[0]?.message).toBe('the query costs 54005 (each field 1, times the page size of the lists above it); the cost limit is 50000');
    expect(costly.body.data).toBeUndefined();
  });

  it('a JSON body that is not one request object is a 400 naming it, on /graphql and /graphql/sse, and runs nothing', async () => {
    const post = async (path: string, body: string) => {
      const res = await fetch(`${ref.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
      return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as { data?: unknown; errors?: { message: string }[] } };
    };
    const request = JSON.stringify({ query: '{ __typename }' });
    for (const path of ['/graphql', '/graphql/sse']) {
      const batch = await post(path, `[${request}]`);
      expect(batch.status, path).toBe(400);
      expect(batch.type).toBe('application/json; charset=utf-8');
      expect(batch.body.errors?.[0]?.message).toBe('the body must be one GraphQL request, a JSON object: batched requests (an array) are not supported');
      // A JSON string holding a request is not a request (graphql-http used to parse it again and run it).
      for (const body of [JSON.stringify(request), '42', 'true']) {
        const answer = await post(path, body);
        expect(answer.status, `${path} ${body}`).toBe(400);
        expect(answer.body).toEqual({ errors: [{ message: 'the body must be a GraphQL request, a JSON object' }] });
      }
    }
    expect((await post('/graphql', request)).body).toEqual({ data: { __typename: 'Query' } });
  });

  it('is CSRF-exempt: a POST carrying the session cookie is not refused', async () => {
    const client = new HttpClient(ref.url);
    await client.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    const res = await client.json('/graphql', 'POST', { query: '{ tags(limit: 1) { id } }' });
    expect(res.status).toBe(200);
  });

  describe('mutations', () => {
    let aliceToken = '';
    beforeAll(async () => {
      const res = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: 'alice', password: 'alice-password-1' });
      aliceToken = ((await res.json()) as { token: string }).token;
    });
    const alice = () => ({ authorization: `Bearer ${aliceToken}` });

    it('exist only for mutable models; inputs leave out generated keys, server-set columns and password_hash', async () => {
      const { body } = await gql('{ __schema { mutationType { fields { name } } } __type(name: "PostInput") { inputFields { name type { kind } } } }');
      const names = (body.data?.__schema as { mutationType: { fields: { name: string }[] } }).mutationType.fields.map((f) => f.name);
      expect(names).toEqual(expect.arrayContaining(['createComment', 'updateComment', 'deleteComment', 'createPost', 'updatePost', 'deletePost', 'createAuthor']));
      expect(names).not.toContain('createTag');
      const inputs = (body.data?.__type as { inputFields: { name: string; type: { kind: string } }[] }).inputFields;
      const byName = Object.fromEntries(inputs.map((f) => [f.name, f.type.kind]));
      expect(byName.title).toBe('NON_NULL');
      expect(byName.author_id).toBe('NON_NULL');
      expect(byName.body).toBe('SCALAR');
      for (const absent of ['id', 'created_by_id', 'is_staff', 'password_hash']) expect(byName).not.toHaveProperty(absent);
      // A privileged column is offered so that a writer learns why it is refused (privileged_field), not as a schema error.
      expect(byName.featured).toBe('SCALAR');
    });

    it('mutable: anyone creates a comment through the store write path (defaults applied)', async () => {
      const { body } = await gql('mutation { createComment(data: { post_id: "1", body: "via graphql" }) { id body votes post { id } } }');
      expect(body.errors).toBeUndefined();
      expect(body.data?.createComment).toMatchObject({ body: 'via graphql', votes: 0, post: { id: '1' } });
      const bad = await gql('mutation { createComment(data: { post_id: "999", body: "x" }) { id } }');
      expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    });

    it('mutableIf: anonymous callers are FORBIDDEN and nothing is written', async () => {
      const before = await ref.app.store.count('post');
      const { body } = await gql('mutation { createPost(data: { title: "x", author_id: "1" }) { id } }');
      expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(await ref.app.store.count('post')).toBe(before);
    });

    it('a writer may set a private column and reads it back as null unless unlocked', async () => {
      const mine = await gql('mutation { createPost(data: { title: "GQL", author_id: "2", score: 7 }) { id score } }', {}, alice());
      expect(mine.body.errors).toBeUndefined();
      const created = mine.body.data?.createPost as { id: string; score: number | null };
      expect(created.score).toBeNull();
      expect((await ref.app.store.getById('post', Number(created.id)))?.score).toBe(7);
      const asStaff = await gql(`{ post(id: "${created.id}") { score } }`, {}, staff());
      expect(asStaff.body.data?.post).toEqual({ score: 7 });
    });

    it('a privileged column cannot be mass-assigned: refused, nothing written', async () => {
      const before = await ref.app.store.count('post');
      const { body } = await gql('mutation { createPost(data: { title: "x", author_id: "1", featured: true }) { id } }', {}, alice());
      expect(body.errors?.[0]?.message).toMatch(/featured/);
      expect(body.errors?.[0]?.extensions?.code).toBe('privileged_field');
      expect(await ref.app.store.count('post')).toBe(before);
    });

    it('update reads the stored row back; delete answers true and the row leaves reads', async () => {
      const upd = await gql('mutation { updateComment(id: "1", data: { votes: 10 }) { id votes body } }');
      expect(upd.body.data?.updateComment).toMatchObject({ id: '1', votes: 10, body: 'Remarkable foresight.' });
      const created = await gql('mutation { createComment(data: { post_id: "2", body: "temp" }) { id } }');
      const id = (created.body.data?.createComment as { id: string }).id;
      expect((await gql(`mutation { deleteComment(id: "${id}") }`)).body.data?.deleteComment).toBe(true);
      expect((await gql(`{ comment(id: "${id}") { id } }`)).body.data?.comment).toBeNull();
      expect((await gql('mutation { deleteComment(id: "99999") }')).body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    });
  });
});
