import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

type Problem = { code?: string; detail?: string; errors?: { field: string }[] };

/** Issue "contract fidelity, hostile input": text a backend cannot store, keys, junctions, 401s, CSRF rotation, messages. */
function hostileInput(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  const send = async (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${ref.url}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Problem & Record<string, unknown> };
  };

  it('NUL in a filter, a search or a lookup is a 400, never a 500', async () => {
    for (const q of ['name=%00', 'search=%00', 'name__icontains=%00', 'name=a%00b']) {
      const res = await send(`/api/author/?${q}`);
      expect(res.status, q).toBe(400);
      // A filter value a column cannot hold reads like an unknown or hidden column (nothing to probe).
      expect(res.body.code).toMatch(/^invalid_(query|input)$/);
    }
  });

  it('NUL or a lone surrogate in a body field is invalid_input naming the field; astral text reads back identical', async () => {
    const nul = await send('/api/author/', 'POST', { name: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.code).toBe('invalid_input');
    expect(nul.body.errors?.[0]?.field).toBe('name');
    const lone = await send('/api/author/', 'POST', '{"name":"x\\ud800y"}');
    expect(lone.status).toBe(400);
    expect(lone.body.detail).toMatch(/surrogate/);
    const astral = 'Ada 𝔄𝔡𝔞 🧮 \u0007 é';
    const made = await send('/api/author/', 'POST', { name: astral });
    expect(made.status).toBe(201);
    expect((await send(`/api/author/${String(made.body.id)}`)).body.name).toBe(astral);
  });

  it('a body that is not valid UTF-8 is a 400', async () => {
    const res = await fetch(`${ref.url}/api/author/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).detail).toMatch(/UTF-8/);
  });

  it('a body with a content coding is a 415 naming it, with Accept-Encoding: identity, on REST, GraphQL and the forms; nothing is written', async () => {
    const gzipped = async (path: string, body: string, contentType = 'application/json', extra: Record<string, string> = {}) => {
      const res = await fetch(`${ref.url}${path}`, { method: 'POST', headers: { 'content-type': contentType, 'content-encoding': 'gzip', ...extra }, body: gzipSync(body) });
      return { status: res.status, acceptEncoding: res.headers.get('accept-encoding'), body: (await res.json()) as Problem };
    };
    const before = (await send('/api/author/?limit=0', 'GET', undefined, await bearer())).body.count;
    for (const answer of [
      await gzipped('/api/author/', JSON.stringify({ name: 'zipped' })),
      await gzipped('/graphql', JSON.stringify({ query: 'mutation { createAuthor(data: { name: "zipped" }) { id } }' })),
      await gzipped('/api/auth/login', JSON.stringify({ username: 'alice', password: 'alice-password-1' })),
    ]) {
      expect(answer.status).toBe(415);
      expect(answer.acceptEncoding).toBe('identity');
      expect(answer.body.code).toBe('unsupported_media_type');
      expect(answer.body.detail).toBe('a body with Content-Encoding "gzip" is not accepted: send it without a content coding');
    }
    const form = await gzipped('/auth/login', 'username=alice&password=alice-password-1', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect((await send('/api/author/?limit=0', 'GET', undefined, await bearer())).body.count).toBe(before);
    // `identity` is no coding at all.
    const plain = await send('/api/author/', 'POST', { name: 'plain' }, { 'content-encoding': 'Identity' });
    expect(plain.status).toBe(201);
  });

  it('auth routes: NUL in a username is a 400, resend stays 202, verify stays the one 400', async () => {
    expect((await send('/api/auth/login', 'POST', { username: 'al\u0000ice', password: 'alice-password-1' })).status).toBe(400);
    expect((await send('/api/auth/resend-verification', 'POST', { email: 'a\u0000@example.com' })).status).toBe(202);
    const verify = await send('/api/auth/verify-email', 'POST', { email: 'a\u0000@example.com', code: '123456' });
    expect(verify.status).toBe(400);
    expect(verify.body.code).toBe('invalid_code');
  });

  it('GraphQL: NUL in a variable is BAD_USER_INPUT, not INTERNAL_SERVER_ERROR', async () => {
    const res = await send('/graphql', 'POST', { query: 'mutation($b: String!) { createComment(data: { post_id: "1", body: $b }) { id } }', variables: { b: 'x\u0000y' } });
    const errors = res.body.errors as { extensions?: { code?: string } }[];
    expect(errors[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('keys: an empty string, a generated key on create, another key on update are refused', async () => {
    const empty = await send('/api/tag/', 'POST', { id: '', label: 'x' });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/empty/);
    const chosen = await send('/api/author/', 'POST', { name: 'x', id: 999 });
    expect(chosen.status).toBe(400);
    expect(chosen.body.detail).toMatch(/generated by the server/);
    expect((await send('/api/author/999')).status).toBe(404);
    const moved = await send('/api/author/1', 'PATCH', { id: 5 });
    expect(moved.status).toBe(400);
    expect(moved.body.detail).toMatch(/does not match/);
    expect((await send('/api/author/1', 'PATCH', { id: 1, bio: 'same key' })).status).toBe(200);
    expect((await send('/api/tag/', 'POST', [{ id: 'k1', label: 'a' }, { id: '', label: 'b' }])).body.errors?.[0]).toMatchObject({ field: 'id', index: 1 });
    const nested = await send('/api/shop_order/', 'POST', { customer: 'c', items: [{ id: 77, sku: 's', qty: 1 }] });
    expect(nested.status).toBe(400);
    expect(nested.body.detail).toMatch(/generated by the server/);
  });

  it('junction tables are not resources: post_tags answers 404 on every verb', async () => {
    for (const method of ['GET', 'POST']) expect((await send('/api/post_tags/', method, method === 'POST' ? {} : undefined)).status).toBe(404);
    expect((await send('/api/post_tags/1')).status).toBe(404);
    const root = await send('/api/');
    expect(Object.keys(root.body.resources as object)).not.toContain('post_tags');
  });

  it('the links of a junction stay readable and writable through the owning resource', async () => {
    const auth = await bearer();
    const tagsOf = async (id: string) => (await send(`/api/post/${id}?include=tags`, 'GET', undefined, auth)).body.tags;
    const created = await send('/api/post/', 'POST', { title: 'linked', author_id: 1, tags: ['orm', 'rest'] }, auth);
    expect(created.status).toBe(201);
    expect(created.body.tags).toEqual(['orm', 'rest']);
    const id = String(created.body.id);
    expect(await tagsOf(id)).toEqual(['orm', 'rest']);
    // Without `include` a read carries no links (and costs no extra statement).
    expect((await send(`/api/post/${id}`, 'GET', undefined, auth)).body).not.toHaveProperty('tags');
    const patched = await send(`/api/post/${id}`, 'PATCH', { tags: ['rest'] }, auth);
    expect(patched.status).toBe(200);
    expect(patched.body.tags).toEqual(['rest']);
    expect(await tagsOf(id)).toEqual(['rest']);
    const missing = await send(`/api/post/${id}`, 'PATCH', { title: 'renamed', tags: ['orm', 'no-such-tag'] }, auth);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('foreign_key_violation');
    expect(missing.body.errors?.[0]?.field).toMatch(/tags\[1\]$/);
    expect(await tagsOf(id)).toEqual(['rest']);
    expect((await send(`/api/post/${id}`, 'GET', undefined, auth)).body.title).toBe('linked');
    const put = await send(`/api/post/${id}`, 'PUT', { title: 'replaced', author_id: 1, tags: ['rest', 'orm'] }, auth);
    expect(put.status).toBe(200);
    expect(await tagsOf(id)).toEqual(['rest', 'orm']);
    // Deleting a linked tag takes its links with it (they are the relation, not rows that refer to the tag).
    expect((await send('/api/tag/', 'POST', { id: 'short-lived', label: 'x' })).status).toBe(201);
    expect((await send(`/api/post/${id}`, 'PATCH', { tags: ['rest', 'short-lived'] }, auth)).status).toBe(200);
    expect((await send('/api/tag/short-lived', 'DELETE')).status).toBe(204);
    expect(await tagsOf(id)).toEqual(['rest']);
  });

  it('many-to-many links: a value that is not an array, or repeats an id, is a 400 naming the field; nothing is written', async () => {
    const auth = await bearer();
    const before = (await send('/api/post/?limit=1', 'GET', undefined, auth)).body.count;
    const scalar = await send('/api/post/', 'POST', { title: 'scalar', author_id: 1, tags: 'orm' }, auth);
    expect(scalar.status).toBe(400);
    expect(scalar.body.code).toBe('invalid_input');
    expect(scalar.body.errors?.[0]?.field).toMatch(/tags$/);
    expect(scalar.body.detail).toMatch(/must be an array of tag ids/);
    const twice = await send('/api/post/', 'POST', { title: 'twice', author_id: 1, tags: ['orm', 'orm'] }, auth);
    expect(twice.status).toBe(400);
    expect(twice.body.errors?.[0]?.field).toMatch(/tags\[1\]$/);
    const missing = await send('/api/post/', 'POST', { title: 'missing', author_id: 1, tags: ['orm', 'no-such-tag'] }, auth);
    expect(missing.status).toBe(400);
    expect((await send('/api/post/?limit=1', 'GET', undefined, auth)).body.count).toBe(before);
    // A bulk item carries no links: refused, not ignored.
    expect((await send('/api/post/', 'POST', [{ title: 'bulk', author_id: 1, tags: ['orm'] }], auth)).status).toBe(400);
  });

  it('?include=tags on a list answers each row\'s linked ids, in the order they were linked', async () => {
    const auth = await bearer();
    const made = await send('/api/post/', 'POST', { title: 'ordered', author_id: 1, tags: ['rest', 'orm'] }, auth);
    const list = await send('/api/post/?include=tags,author&limit=1000', 'GET', undefined, auth);
    expect(list.status).toBe(200);
    const rows = list.body.results as { id: unknown; tags?: unknown; author?: unknown }[];
    expect(rows.every((r) => Array.isArray(r.tags))).toBe(true);
    expect(rows.find((r) => r.id === made.body.id)?.tags).toEqual(['rest', 'orm']);
    expect(rows.find((r) => r.id === 1)?.tags).toEqual(['orm', 'rest']);
    const projected = await send('/api/post/?include=tags&fields=id', 'GET', undefined, auth);
    expect(Object.keys((projected.body.results as object[])[0] ?? {}).sort()).toEqual(['id', 'tags']);
    const further = await send('/api/post/?include=tags.label', 'GET', undefined, auth);
    expect(further.status).toBe(400);
    expect(further.body.detail).toMatch(/"tags" is a many-to-many relation of post/);
  });

  it('a 401 from the API names the Bearer scheme', async () => {
    const res = await send('/api/post/1');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="portico"');
    expect((await send('/api/auth/login', 'POST', { username: 'alice', password: 'wrong-password' })).headers.get('www-authenticate')).toBe('Bearer realm="portico"');
  });

  it('the CSRF token is rotated at login and at logout', async () => {
    const client = new HttpClient(ref.url);
    const before = await client.csrf();
    const login = await client.form('/auth/login', { username: 'bob', password: 'bob-password-1' }, { csrf: before });
    expect(login.status).toBe(303);
    const afterLogin = client.cookies.get('portico_csrf');
    expect(afterLogin).toBeDefined();
    expect(afterLogin).not.toBe(before);
    const logout = await client.form('/auth/logout', {}, { csrf: afterLogin ?? null });
    expect(logout.status).toBe(303);
    expect(client.cookies.get('portico_csrf')).not.toBe(afterLogin);
    // The token from before the login no longer matches the cookie: a replay is refused.
    expect((await client.form('/auth/login', { username: 'bob', password: 'bob-password-1' }, { csrf: before })).status).toBe(403);
  });

  it('query errors name the offending value and explain the rule', async () => {
    expect((await send('/api/author/?ordering=nope')).body.detail).toBe('invalid query parameter "ordering": "nope" is not a column author can be ordered by');
    expect((await send('/api/author/?ordering=secret_note')).body.detail).toBe('invalid query parameter "ordering": "secret_note" is not a column author can be ordered by');
    const include = (await send('/api/post/1?include=comments', 'GET', undefined, await bearer())).body.detail;
    expect(include).toMatch(/"comments" is not a relation of post; include follows foreign keys \(author, created_by\) and many-to-many relations \(tags\), not reverse relations/);
    expect((await send('/api/author/?limit=ten')).body.detail).toBe('invalid query parameter "limit": "ten" is not a non-negative integer');
  });

  const bearer = async () => {
    const res = await send('/api/auth/login', 'POST', { username: 'alice', password: 'alice-password-1' });
    return { authorization: `Bearer ${String(res.body.token)}` };
  };
}

describe('hostile input on SQLite', () => hostileInput('sqlite'));
describe.skipIf(!pg)('hostile input on PostgreSQL', () => hostileInput('postgresql'));
