import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { where, type Row } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Issue 46 item 2 on GraphQL: the type of a mutable model answers `_version` (the entity tag of
 * the stored row, its REST ETag, over every column however little the selection reads), and
 * `updateX`/`deleteX` take `expectedVersion`: compared with the row read locked in the writing
 * transaction, a stale one is PRECONDITION_FAILED with nothing written, so of racing writers
 * naming one version exactly one wins.
 */
const pgUp = await postgresAvailable();
const STRONG = /^"[A-Za-z0-9_-]{22}"$/;

type Answer = { data?: Record<string, unknown> | null; errors?: { message: string; path?: string[]; extensions?: { code?: string } }[] };

function versionSuite(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    for (const name of ['alice', 'bob']) {
      const res = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: name, password: `${name}-password-1` });
      tokens[name] = ((await res.json()) as { token: string }).token;
    }
  });
  afterAll(async () => ref?.close());

  const gql = async (query: string, variables: Record<string, unknown> = {}, who?: string): Promise<Answer> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}) };
    const res = await fetch(`${ref.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as Answer;
  };
  const etag = async (path: string): Promise<string | null> => (await ref.get(path)).headers.get('etag');
  const newComment = async (body: string): Promise<number> => Number((await ref.app.store.insert('comment', { post_id: 2, body, votes: 0, moderation_note: 'hidden from REST' })).id);
  const UPDATE = 'mutation ($id: ID!, $body: String, $v: String) { updateComment(id: $id, data: { body: $body }, expectedVersion: $v) { id body _version } }';

  it('the type of a mutable model answers _version, the REST ETag; a model without mutations has none', async () => {
    const one = await gql('{ comment(id: "1") { _version } }');
    expect(one.errors).toBeUndefined();
    const version = (one.data?.comment as { _version: string })._version;
    expect(version).toMatch(STRONG);
    expect(version).toBe(await etag('/api/comment/1'));
    const fields = async (type: string) => ((await gql(`{ __type(name: "${type}") { fields { name type { kind ofType { name } } } } }`)).data?.__type as { fields: { name: string; type: { kind: string; ofType: { name: string } | null } }[] }).fields;
    expect((await fields('Comment')).find((f) => f.name === '_version')?.type).toEqual({ kind: 'NON_NULL', ofType: { name: 'String' } });
    expect((await fields('Reply')).map((f) => f.name)).not.toContain('_version');
    const args = ((await gql('{ __type(name: "Mutation") { fields { name args { name type { name } } } } }')).data?.__type as { fields: { name: string; args: { name: string; type: { name: string | null } }[] }[] }).fields;
    for (const name of ['updateComment', 'deleteComment']) expect(args.find((f) => f.name === name)?.args.find((a) => a.name === 'expectedVersion')?.type.name, name).toBe('String');
    expect(args.find((f) => f.name === 'createComment')?.args.map((a) => a.name)).not.toContain('expectedVersion');
  });

  it('_version covers every column whatever the selection reads: lists, connections and child lists read whole rows for it', async () => {
    const id = await newComment('projected');
    const tag = await etag(`/api/comment/${id}`);
    const list = await gql('{ comments(limit: 100) { id _version } }');
    expect(list.errors).toBeUndefined();
    expect((list.data?.comments as { id: string; _version: string }[]).find((c) => c.id === String(id))?._version).toBe(tag);
    const children = await gql('{ post(id: "2") { comments { id _version } } posts(limit: 5) { id comments { body _version } } }');
    expect(children.errors).toBeUndefined();
    expect(((children.data?.post as { comments: { id: string; _version: string }[] }).comments).find((c) => c.id === String(id))?._version).toBe(tag);
    const nested = (children.data?.posts as { id: string; comments: { body: string; _version: string }[] }[]).find((p) => p.id === '2');
    expect(nested?.comments.find((c) => c.body === 'projected')?._version).toBe(tag);
    const connection = await gql('{ commentsConnection(first: 100) { edges { node { id _version } } } }');
    expect(connection.errors).toBeUndefined();
    expect((connection.data?.commentsConnection as { edges: { node: { id: string; _version: string } }[] }).edges.find((e) => e.node.id === String(id))?.node._version).toBe(tag);
    // Whole rows in the same statements as a projection (no second read for the version): one per level.
    const knex = ref.app.db.sql?.knex;
    if (!knex) throw new Error('SQL backend expected');
    let statements = 0;
    const count = () => void statements++;
    knex.on('query', count);
    try {
      expect((await gql('{ posts(limit: 5) { id comments { body _version } } }')).errors).toBeUndefined();
    } finally {
      knex.off('query', count);
    }
    expect(statements).toBe(2);
    // A column GraphQL hides (author.email) changes the version all the same.
    const before = ((await gql('{ author(id: "2") { name _version } }')).data?.author as { _version: string })._version;
    await ref.app.store.update('author', 2, { email: 'alan@changed.example' });
    const after = ((await gql('{ author(id: "2") { name _version } }')).data?.author as { _version: string })._version;
    expect(after).not.toBe(before);
    expect(after).toBe(await etag('/api/author/2'));
  });

  it('updateX with the current expectedVersion writes and answers the new _version; a stale one is PRECONDITION_FAILED with nothing written', async () => {
    const id = await newComment('to update');
    const v1 = (await etag(`/api/comment/${id}`)) as string;
    const ok = await gql(UPDATE, { id: String(id), body: 'updated once', v: v1 });
    expect(ok.errors).toBeUndefined();
    const v2 = (ok.data?.updateComment as { _version: string })._version;
    expect(v2).toMatch(STRONG);
    expect(v2).not.toBe(v1);
    expect(v2).toBe(await etag(`/api/comment/${id}`));
    const stale = await gql(UPDATE, { id: String(id), body: 'lost update', v: v1 });
    expect(stale.data?.updateComment ?? null).toBeNull();
    expect(stale.errors?.[0]?.extensions?.code).toBe('PRECONDITION_FAILED');
    expect(stale.errors?.[0]?.path).toEqual(['updateComment']);
    expect((await ref.app.store.getById('comment', id))?.body).toBe('updated once');
    // The version without its quotes is the same version; without expectedVersion nothing is compared.
    expect((await gql(UPDATE, { id: String(id), body: 'bare tag', v: v2.slice(1, -1) })).errors).toBeUndefined();
    expect((await gql(UPDATE, { id: String(id), body: 'unconditional' })).errors).toBeUndefined();
    expect((await gql(UPDATE, { id: String(id), body: 'null version', v: null })).errors).toBeUndefined();
    expect((await ref.app.store.getById('comment', id))?.body).toBe('null version');
  });

  it('deleteX with a stale expectedVersion is PRECONDITION_FAILED and keeps the row; with the current one it deletes', async () => {
    const id = await newComment('to delete');
    const v1 = (await etag(`/api/comment/${id}`)) as string;
    await ref.app.store.update('comment', id, { votes: 1 });
    const stale = await gql('mutation ($id: ID!, $v: String) { deleteComment(id: $id, expectedVersion: $v) }', { id: String(id), v: v1 });
    expect(stale.errors?.[0]?.extensions?.code).toBe('PRECONDITION_FAILED');
    expect(await ref.app.store.getById('comment', id)).not.toBeNull();
    const current = (await etag(`/api/comment/${id}`)) as string;
    const done = await gql('mutation ($id: ID!, $v: String) { deleteComment(id: $id, expectedVersion: $v) }', { id: String(id), v: current });
    expect(done.errors).toBeUndefined();
    expect(done.data?.deleteComment).toBe(true);
    expect(await ref.app.store.getById('comment', id)).toBeNull();
  });

  it('under a row policy, another owner\'s row is NOT_FOUND whatever the version (nothing about it leaks)', async () => {
    const alice = (await ref.app.store.find('auth_user', { where: where.eq('username', 'alice') }))[0] as Row;
    const note = await ref.app.store.insert('note', { owner_id: alice.id ?? null, body: 'alice only' });
    const own = await gql(`{ note(id: "${String(note.id)}") { _version } }`, {}, 'alice');
    const version = (own.data?.note as { _version: string })._version;
    expect(version).toMatch(STRONG);
    const mutation = 'mutation ($id: ID!, $v: String) { updateNote(id: $id, data: { body: "taken" }, expectedVersion: $v) { id } }';
    for (const v of [version, '"stale"']) expect((await gql(mutation, { id: String(note.id), v }, 'bob')).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await gql(mutation, { id: String(note.id), v: '"stale"' }, 'alice')).errors?.[0]?.extensions?.code).toBe('PRECONDITION_FAILED');
    expect((await gql(mutation, { id: String(note.id), v: version }, 'alice')).errors).toBeUndefined();
  });

  it('a refused gate is FORBIDDEN through the error mapping, with its message', async () => {
    const anonymous = await gql('mutation { updateAuthor(id: "1", data: { name: "x" }) { id } }');
    expect(anonymous.errors?.[0]).toMatchObject({ message: 'not allowed to write author', path: ['updateAuthor'], extensions: { code: 'FORBIDDEN' } });
    expect((await ref.app.store.getById('author', 1))?.name).toBe('Ada Lovelace');
  });

  it('ten concurrent updates carrying one expectedVersion: exactly one succeeds, nine are PRECONDITION_FAILED', async () => {
    const id = await newComment('raced');
    const version = (await etag(`/api/comment/${id}`)) as string;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => gql(UPDATE, { id: String(id), body: `racer ${i}`, v: version })));
    const won = answers.filter((a) => !a.errors);
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.errors?.[0]?.extensions?.code === 'PRECONDITION_FAILED')).toHaveLength(9);
    const winner = won[0]?.data?.updateComment as { body: string; _version: string };
    expect((await ref.app.store.getById('comment', id))?.body).toBe(winner.body);
    expect(await etag(`/api/comment/${id}`)).toBe(winner._version);
  });
}

describe('GraphQL versions: SQLite', () => versionSuite('sqlite'));
describe.skipIf(!pgUp)('GraphQL versions: PostgreSQL', () => versionSuite('postgresql'));
