import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * REFERENCE-APP.md "Row policy and versions": every REST detail answer carries a strong ETag of
 * the stored row, and PUT, PATCH and DELETE honour If-Match (412 `precondition_failed` when
 * stale), compared inside the write transaction, so that of racing writers naming one version
 * exactly one wins.
 */
const pgUp = await postgresAvailable();
const STRONG = /^"[A-Za-z0-9_-]{22}"$/;

type Answer = { status: number; etag: string | null; type: string | null; body: Record<string, unknown> | null };

function etagSuite(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  let token = '';
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    const res = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(async () => ref?.close());

  const send = async (method: string, path: string, options: { body?: unknown; ifMatch?: string; auth?: boolean } = {}): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.ifMatch !== undefined) headers['if-match'] = options.ifMatch;
    if (options.auth) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${ref.url}${path}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), type: res.headers.get('content-type'), body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };
  const newAuthor = async (name: string): Promise<{ id: number; etag: string }> => {
    const created = await send('POST', '/api/author/', { body: { name } });
    expect(created.status).toBe(201);
    return { id: Number(created.body?.id), etag: created.etag as string };
  };

  it('GET, POST, PUT and PATCH of one row carry a strong ETag of the stored row; it changes with any column', async () => {
    const created = await send('POST', '/api/author/', { body: { name: 'Tagged' } });
    expect(created.status).toBe(201);
    expect(created.etag).toMatch(STRONG);
    const id = Number(created.body?.id);
    const read = await send('GET', `/api/author/${id}`);
    expect(read.etag).toBe(created.etag);
    const head = await fetch(`${ref.url}/api/author/${id}`, { method: 'HEAD' });
    expect(head.headers.get('etag')).toBe(created.etag);
    const patched = await send('PATCH', `/api/author/${id}`, { body: { bio: 'changed' } });
    expect(patched.status).toBe(200);
    expect(patched.etag).toMatch(STRONG);
    expect(patched.etag).not.toBe(created.etag);
    expect((await send('GET', `/api/author/${id}`)).etag).toBe(patched.etag);
    const put = await send('PUT', `/api/author/${id}`, { body: { name: 'Tagged again' } });
    expect(put.status).toBe(200);
    expect(put.etag).toMatch(STRONG);
    expect(put.etag).not.toBe(patched.etag);
    expect((await send('GET', `/api/author/${id}`)).etag).toBe(put.etag);
    // A column the API hides changes the version all the same.
    await ref.app.store.update('author', id, { secret_note: 'hidden change' });
    const after = await send('GET', `/api/author/${id}`);
    expect(after.body).toEqual(put.body);
    expect(after.etag).toMatch(STRONG);
    expect(after.etag).not.toBe(put.etag);
    // A write that changes nothing keeps the version: the tag is the row's, not the request's.
    expect((await send('PATCH', `/api/author/${id}`, { body: {} })).etag).toBe(after.etag);
    // Lists and bulk answers are not one row: no ETag.
    expect((await send('GET', '/api/author/')).etag).toBeNull();
  });

  it('an ETag is the same row version wherever it is computed: another row with other values has another one', async () => {
    const a = await newAuthor('Twin');
    const b = await newAuthor('Twin');
    // The key is a column: two rows never share a version.
    expect(a.etag).not.toBe(b.etag);
    // The seeded row, read twice through different routes (detail, include), has one version.
    const plain = await send('GET', '/api/post/1', { auth: true });
    const included = await send('GET', '/api/post/1?include=author,tags', { auth: true });
    expect(plain.etag).toMatch(STRONG);
    expect(included.etag).toBe(plain.etag);
    // Parent-scoped detail routes too.
    expect((await send('GET', '/api/project/1/milestone/1')).etag).toMatch(STRONG);
  });

  it('a stale If-Match answers 412 precondition_failed and leaves the row unchanged (PUT, PATCH; weak tags never match)', async () => {
    const { id, etag: stale } = await newAuthor('Stale');
    const moved = await send('PATCH', `/api/author/${id}`, { body: { bio: 'moved on' } });
    expect(moved.status).toBe(200);
    for (const [method, body] of [
      ['PATCH', { name: 'lost update' }],
      ['PUT', { name: 'lost update' }],
    ] as const) {
      const refused = await send(method, `/api/author/${id}`, { body, ifMatch: stale });
      expect(refused.status, method).toBe(412);
      expect(refused.type).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 412, code: 'precondition_failed', type: 'urn:portico:error:precondition_failed', title: 'Precondition Failed' });
      expect(refused.etag).toBeNull();
    }
    // The current tag, weak, does not match either: If-Match compares strongly.
    expect((await send('PATCH', `/api/author/${id}`, { body: { name: 'lost update' }, ifMatch: `W/${moved.etag as string}` })).status).toBe(412);
    // Garbage names no version: it cannot match.
    expect((await send('PATCH', `/api/author/${id}`, { body: { name: 'lost update' }, ifMatch: 'not-a-tag' })).status).toBe(412);
    const row = await ref.app.store.getById('author', id);
    expect(row).toMatchObject({ name: 'Stale', bio: 'moved on' });
    expect((await send('GET', `/api/author/${id}`)).etag).toBe(moved.etag);
  });

  it('a matching If-Match (alone, in a list, or *) answers 200 with the new ETag', async () => {
    const { id, etag } = await newAuthor('Matching');
    const one = await send('PATCH', `/api/author/${id}`, { body: { bio: 'one' }, ifMatch: etag });
    expect(one.status).toBe(200);
    expect(one.etag).toMatch(STRONG);
    expect(one.etag).not.toBe(etag);
    expect(one.body).toMatchObject({ id, bio: 'one' });
    const listed = await send('PUT', `/api/author/${id}`, { body: { name: 'Matching', bio: 'two' }, ifMatch: `"old", W/${one.etag as string}, ${one.etag as string}` });
    expect(listed.status).toBe(200);
    expect(listed.etag).not.toBe(one.etag);
    const any = await send('PATCH', `/api/author/${id}`, { body: { bio: 'three' }, ifMatch: '*' });
    expect(any.status).toBe(200);
    expect((await ref.app.store.getById('author', id))?.bio).toBe('three');
    expect((await send('GET', `/api/author/${id}`)).etag).toBe(any.etag);
    // A row that is not there is a 404 whatever the precondition (another owner's row is not there either).
    expect((await send('PATCH', '/api/author/999999', { body: { bio: 'x' }, ifMatch: '*' })).status).toBe(404);
    expect((await send('PATCH', '/api/author/999999', { body: { bio: 'x' }, ifMatch: etag })).status).toBe(404);
  });

  it('DELETE with a stale If-Match is 412 and keeps the row; with the current one (or *) it deletes', async () => {
    const { id, etag: stale } = await newAuthor('Doomed');
    const current = (await send('PATCH', `/api/author/${id}`, { body: { bio: 'changed' } })).etag as string;
    const refused = await send('DELETE', `/api/author/${id}`, { ifMatch: stale });
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ code: 'precondition_failed' });
    expect(await ref.app.store.getById('author', id)).not.toBeNull();
    expect((await send('DELETE', `/api/author/${id}`, { ifMatch: current })).status).toBe(204);
    expect(await ref.app.store.getById('author', id)).toBeNull();
    const other = await newAuthor('Also doomed');
    expect((await send('DELETE', `/api/author/${other.id}`, { ifMatch: '*' })).status).toBe(204);
    // A soft-delete model (post) keeps the row stamped; the precondition is checked the same way.
    const post = await send('POST', '/api/post/', { body: { title: 'Soft', author_id: 1 }, auth: true });
    expect(post.etag).toMatch(STRONG);
    const postId = Number(post.body?.id);
    await send('PATCH', `/api/post/${postId}`, { body: { title: 'Soft, changed' }, auth: true });
    expect((await send('DELETE', `/api/post/${postId}`, { ifMatch: post.etag as string, auth: true })).status).toBe(412);
    expect((await ref.app.store.getById('post', postId))?.deleted_at).toBeNull();
  });

  it('nested writes and many-to-many links honour If-Match on the root row, and answer its ETag', async () => {
    const created = await send('POST', '/api/post/', { body: { title: 'Linked', author_id: 1, tags: ['orm'] }, auth: true });
    expect(created.status).toBe(201);
    expect(created.etag).toMatch(STRONG);
    const id = Number(created.body?.id);
    expect((await send('GET', `/api/post/${id}`, { auth: true })).etag).toBe(created.etag);
    await send('PATCH', `/api/post/${id}`, { body: { title: 'Linked, changed' }, auth: true });
    const stale = await send('PATCH', `/api/post/${id}`, { body: { tags: ['rest'] }, ifMatch: created.etag as string, auth: true });
    expect(stale.status).toBe(412);
    expect((await send('GET', `/api/post/${id}?include=tags`, { auth: true })).body?.tags).toEqual(['orm']);
    const current = (await send('GET', `/api/post/${id}`, { auth: true })).etag as string;
    const ok = await send('PATCH', `/api/post/${id}`, { body: { title: 'Linked again', tags: ['rest'] }, ifMatch: current, auth: true });
    expect(ok.status).toBe(200);
    expect(ok.etag).toMatch(STRONG);
    expect((await send('GET', `/api/post/${id}`, { auth: true })).etag).toBe(ok.etag);
  });

  it('ten concurrent PATCHes carrying one If-Match: exactly one 2xx, nine 412, and the row holds that one change', async () => {
    const { id, etag } = await newAuthor('Raced');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send('PATCH', `/api/author/${id}`, { body: { name: `racer ${i}`, bio: `bio ${i}` }, ifMatch: etag })));
    const won = answers.filter((a) => a.status >= 200 && a.status < 300);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412, 412, 412]);
    const winner = won[0]?.body as { name: string; bio: string };
    const row = await ref.app.store.getById('author', id);
    expect(row).toMatchObject({ name: winner.name, bio: winner.bio });
    expect(winner.bio).toBe(winner.name.replace('racer', 'bio'));
    expect((await send('GET', `/api/author/${id}`)).etag).toBe(won[0]?.etag);
    // The same race on DELETE: one deletes, the others find the precondition false.
    const doomed = await newAuthor('Raced to death');
    const deletes = await Promise.all(Array.from({ length: 10 }, () => send('DELETE', `/api/author/${doomed.id}`, { ifMatch: doomed.etag })));
    expect(deletes.filter((a) => a.status === 204)).toHaveLength(1);
    expect(deletes.every((a) => a.status === 204 || a.status === 412 || a.status === 404)).toBe(true);
  });

  it('the OpenAPI document declares the ETag answers, the If-Match parameter and 412', async () => {
    const doc = (await (await fetch(`${ref.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name?: string; in?: string }[]; responses: Record<string, { headers?: Record<string, { required?: boolean }>; $ref?: string }> }>>;
      components: { responses: Record<string, unknown> };
    };
    const detail = doc.paths['/api/author/{id}'] ?? {};
    expect(detail.get?.responses['200']?.headers?.ETag?.required).toBe(true);
    for (const method of ['put', 'patch'] as const) {
      expect(detail[method]?.responses['200']?.headers?.ETag?.required, method).toBe(true);
      expect(detail[method]?.responses['412'], method).toEqual({ $ref: '#/components/responses/PreconditionFailed' });
      expect(detail[method]?.parameters?.some((p) => p.name === 'If-Match' && p.in === 'header'), method).toBe(true);
    }
    expect(detail.delete?.responses['412']).toEqual({ $ref: '#/components/responses/PreconditionFailed' });
    expect(detail.delete?.parameters?.some((p) => p.name === 'If-Match')).toBe(true);
    expect(doc.paths['/api/author']?.post?.responses['201']?.headers?.ETag?.required).toBe(true);
    // A bulk create may answer an array: the header is there for one row only.
    expect(doc.paths['/api/tag']?.post?.responses['201']?.headers?.ETag?.required).toBe(false);
    expect(doc.paths['/api/author']?.get?.responses['412']).toBeUndefined();
    expect(doc.components.responses.PreconditionFailed).toMatchObject({ content: { 'application/problem+json': {} } });
  });

  describe('bulk PATCH items carrying _version', () => {
    const newTags = async (...ids: string[]): Promise<string[]> => {
      const created = await send('POST', '/api/tag/', { body: ids.map((id) => ({ id, label: `label ${id}` })) });
      expect(created.status).toBe(201);
      return Promise.all(ids.map(async (id) => (await send('GET', `/api/tag/${id}`)).etag as string));
    };
    const labels = async (...ids: string[]) => Promise.all(ids.map(async (id) => (await ref.app.store.getById('tag', id))?.label));

    it('current versions: every item is written, _version is no column and not in the answer', async () => {
      const [a, b] = await newTags('bv-a', 'bv-b');
      // The tag is taken with its quotes (the ETag) or without them.
      const res = await send('PATCH', '/api/tag/', { body: [{ id: 'bv-a', label: 'A2', _version: a }, { id: 'bv-b', label: 'B2', _version: b?.slice(1, -1) }] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ id: 'bv-a', label: 'A2' }, { id: 'bv-b', label: 'B2' }]);
      expect(await labels('bv-a', 'bv-b')).toEqual(['A2', 'B2']);
      expect((await send('GET', '/api/tag/bv-a')).etag).not.toBe(a);
      // Items without a version are not compared; a version on some items only is fine.
      expect((await send('PATCH', '/api/tag/', { body: [{ id: 'bv-a', label: 'A3' }, { id: 'bv-b', label: 'B3', _version: (await send('GET', '/api/tag/bv-b')).etag }] })).status).toBe(200);
    });

    it('a stale version answers 412 naming the item, and the whole batch is rolled back', async () => {
      const [a, b] = await newTags('bv-c', 'bv-d');
      await send('PATCH', '/api/tag/bv-d', { body: { label: 'changed meanwhile' } });
      const res = await send('PATCH', '/api/tag/', { body: [{ id: 'bv-c', label: 'C2', _version: a }, { id: 'bv-d', label: 'D2', _version: b }] });
      expect(res.status).toBe(412);
      expect(res.type).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'precondition_failed', errors: [{ field: '_version', index: 1 }] });
      expect(String(res.body?.detail)).toMatch(/^item 1: /);
      expect(await labels('bv-c', 'bv-d')).toEqual(['label bv-c', 'changed meanwhile']);
    });

    it('a _version that is not a string is refused (400) naming the item', async () => {
      await newTags('bv-e');
      const res = await send('PATCH', '/api/tag/', { body: [{ id: 'bv-e', label: 'E2', _version: 7 }] });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_input', errors: [{ field: '_version', index: 0 }] });
      expect(await labels('bv-e')).toEqual(['label bv-e']);
    });

    it('ten concurrent bulk PATCHes naming one version: exactly one 200, nine 412', async () => {
      const [v] = await newTags('bv-race');
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => send('PATCH', '/api/tag/', { body: [{ id: 'bv-race', label: `racer ${i}`, _version: v }] })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412, 412, 412]);
      const winner = (answers.find((a) => a.status === 200)?.body as unknown as { label: string }[])[0]?.label;
      expect(await labels('bv-race')).toEqual([winner]);
    });

    it('the OpenAPI bulk PATCH item documents _version, and the operation its 412', async () => {
      const doc = (await (await fetch(`${ref.url}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
        components: { schemas: Record<string, { properties?: Record<string, { type?: string }>; required?: string[] }> };
      };
      const item = doc.components.schemas.TagBulkPatchItem;
      expect(item?.properties?._version).toMatchObject({ type: 'string' });
      expect(item?.required).toEqual(['id']);
      expect(doc.paths['/api/tag']?.patch?.responses['412']).toEqual({ $ref: '#/components/responses/PreconditionFailed' });
    });
  });
}

describe('REST ETags and If-Match: SQLite', () => etagSuite('sqlite'));
describe.skipIf(!pgUp)('REST ETags and If-Match: PostgreSQL', () => etagSuite('postgresql'));
