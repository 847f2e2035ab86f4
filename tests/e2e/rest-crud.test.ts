import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

function restSuite(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    for (const name of ['alice', 'staff']) {
      const res = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: name, password: `${name}-password-1` });
      tokens[name] = ((await res.json()) as { token: string }).token;
    }
  });
  afterAll(async () => ref.close());

  const c = () => new HttpClient(ref.url);
  const as = (who: string) => ({ authorization: `Bearer ${tokens[who]}` });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await c().request(path, { headers });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> & { results: Record<string, unknown>[] }, res };
  };
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await c().json(path, method, body, headers);
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown>, res };
  };

  describe('API root and exposure', () => {
    it('GET /api/ lists served resources and advertised endpoints with absolute urls', async () => {
      const { status, body } = await get('/api/');
      expect(status).toBe(200);
      const resources = body.resources as Record<string, { path: string; detail: string }>;
      expect(resources.author).toEqual({ path: '/api/author/', detail: '/api/author/{id}' });
      for (const hidden of ['auth_user', 'session', 'fw_migrations', 'secret_config', 'auth_token', 'permissions_group', 'task_row', 'admin_audit_log']) {
        expect(resources).not.toHaveProperty(hidden);
      }
      const endpoints = body.endpoints as { group: string; name: string; method: string; path: string; url: string; label: string }[];
      expect(endpoints).toContainEqual({ group: 'health', name: 'liveness', method: 'GET', path: '/healthz', url: `${ref.url}/healthz`, label: 'Liveness probe' });
      expect(endpoints.some((e) => e.path === '/auth/login' && e.url === `${ref.url}/auth/login`)).toBe(true);
    });

    it.each(['auth_user', 'session', 'fw_migrations', 'secret_config', 'permissions_permission', 'permissions_contenttype', 'permissions_group', 'permissions_usergroup', 'permissions_userpermission', 'task_row', 'admin_audit_log', 'auth_token'])(
      'the blocked table %s has no route: every verb answers 404',
      async (table) => {
        for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          const res = await c().request(`/api/${table}/`, { method, headers: { 'content-type': 'application/json' }, ...(method === 'GET' || method === 'OPTIONS' ? {} : { body: '{}' }) });
          expect(res.status, `${method} /api/${table}/`).toBe(404);
          expect((await c().request(`/api/${table}/1`, { method })).status).toBe(404);
        }
      },
    );
  });

  describe('list', () => {
    it('answers the envelope in primary-key order', async () => {
      const { status, body } = await get('/api/author/');
      expect(status).toBe(200);
      expect(body).toMatchObject({ count: 2, next: null, previous: null });
      expect(body.results.map((a) => a.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
      expect(body.results[0]).toEqual({ id: 1, name: 'Ada Lovelace', bio: 'First programmer', email: 'ada@example.com' });
    });

    it('pages with limit and offset and links next/previous absolutely', async () => {
      const first = await get('/api/comment/?limit=1');
      expect(first.body.count).toBe(2);
      expect(first.body.results).toHaveLength(1);
      expect(first.body.next).toBe(`${ref.url}/api/comment/?limit=1&offset=1`);
      const second = await get('/api/comment/?limit=1&offset=1');
      expect(second.body.results.map((m) => m.id)).toEqual([2]);
      expect(second.body.previous).toBe(`${ref.url}/api/comment/?limit=1&offset=0`);
      expect(second.body.next).toBeNull();
      expect((await get('/api/comment/?limit=5000')).status).toBe(200);
    });

    it('filters with lookups, searches and orders', async () => {
      expect((await get('/api/project/2/milestone/')).body.results.map((m) => m.id)).toEqual([3, 4]);
      expect((await get('/api/project/2/milestone/?due__isnull=true')).body.results.map((m) => m.id)).toEqual([3]);
      expect((await get('/api/project/1/milestone/?id__in=1,4')).body.results.map((m) => m.id)).toEqual([1]);
      expect((await get('/api/project/2/milestone/?id__gte=4')).body.results.map((m) => m.id)).toEqual([4]);
      expect((await get('/api/project/2/milestone/?title__icontains=LAUNCH')).body.results.map((m) => m.id)).toEqual([4]);
      expect((await get('/api/author/?search=turing')).body.results.map((a) => a.id)).toEqual([2]);
      expect((await get('/api/project/2/milestone/?ordering=-due')).body.results.map((m) => m.id)).toEqual([3, 4]);
      expect((await get('/api/project/1/milestone/?ordering=-title')).body.results.map((m) => m.title)).toEqual(['REST layer', 'Foundation']);
      expect((await get('/api/comment/?votes__gt=1&ordering=-votes')).body.results.map((m) => m.id)).toEqual([1]);
    });

    it('answers the same 400 for an unknown, a hidden or an uncoercible filter', async () => {
      const unknown = await get('/api/author/?nope=1');
      const hidden = await get('/api/author/?secret_note=ada-secret-note');
      const bad = await get('/api/author/?id=abc');
      for (const r of [unknown, hidden, bad]) {
        expect(r.status).toBe(400);
        expect(r.body.code).toBe('invalid_query');
      }
      expect(Object.keys(hidden.body).sort()).toEqual(Object.keys(unknown.body).sort());
      expect(JSON.stringify(hidden.body)).not.toContain('ada-secret-note');
      expect((await get('/api/author/?ordering=secret_note')).status).toBe(400);
      expect((await get('/api/member/?password_hash__startswith=$')).status).toBe(400);
    });
  });

  describe('field policy', () => {
    it('never returns password_hash, on a custom user table too', async () => {
      const list = await get('/api/member/');
      expect(list.body.results[0]).toEqual({ id: 1, username: 'mallory', nickname: 'mal' });
      const created = await send('POST', '/api/member/', { username: 'trent', password_hash: 'plaintext!', nickname: 't' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: created.body.id, username: 'trent', nickname: 't' });
      const [row] = await ref.app.store.find('member', { where: { column: 'username', op: 'eq', value: 'trent' } });
      expect(row?.password_hash).toBeNull();
    });

    it('strips hidden columns from responses and write bodies', async () => {
      const created = await send('POST', '/api/author/', { name: 'Grace Hopper', secret_note: 'do not store' });
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('secret_note');
      const row = await ref.app.store.getById('author', created.body.id as number);
      expect(row?.secret_note).toBeNull();
      expect((await get(`/api/author/${String(created.body.id)}`)).body).not.toHaveProperty('secret_note');
    });

    it('include hydrates foreign keys with the target table\'s policy at every hop', async () => {
      const { status, body } = await get('/api/post/1?include=created_by,author', as('alice'));
      expect(status).toBe(200);
      expect(body.author).toEqual({ id: 1, name: 'Ada Lovelace', bio: 'First programmer', email: 'ada@example.com' });
      expect(body.created_by).toMatchObject({ id: 1, username: 'alice', is_staff: false });
      for (const secret of ['password_hash', 'email', 'last_login', 'email_verified_at']) expect(body.created_by).not.toHaveProperty(secret);
      const deep = await get('/api/comment/?include=post.author,post.created_by');
      const first = deep.body.results[0] as { post: { author: Record<string, unknown>; created_by: Record<string, unknown> } };
      expect(first.post.author).not.toHaveProperty('secret_note');
      expect(first.post.created_by).not.toHaveProperty('password_hash');
      expect(deep.body.results[0]).not.toHaveProperty('moderation_note');
      expect((await get('/api/comment/?include=nope')).status).toBe(400);
      expect((await get('/api/comment/?include=post.author.a.b')).status).toBe(400);
    });

    it('a privileged column in the body answers 400 privileged_field and writes nothing', async () => {
      const before = await ref.app.store.count('post');
      const res = await send('POST', '/api/post/', { title: 'x', author_id: 1, featured: true }, as('alice'));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'privileged_field', errors: [{ field: 'featured' }] });
      expect(await ref.app.store.count('post')).toBe(before);
      const patch = await send('PATCH', '/api/post/1', { featured: true }, as('staff'));
      expect(patch.status).toBe(400);
      expect((await ref.app.store.getById('post', 1))?.featured).toBe(false);
    });
  });

  describe('writes', () => {
    it('POST creates (201), sets the caller as created_by, and ignores a forged created_by_id', async () => {
      const res = await send('POST', '/api/post/', { title: 'Fresh', author_id: 2, created_by_id: 2 }, as('alice'));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ title: 'Fresh', author_id: 2, created_by_id: 1, published: false, score: 0, deleted_at: null });
    });

    it('rejects bad bodies with precise 4xx', async () => {
      expect((await send('POST', '/api/author/', { name: 5 })).body).toMatchObject({ code: 'invalid_input', errors: [{ field: 'name' }] });
      expect((await send('POST', '/api/author/', { bio: 'no name' })).body).toMatchObject({ code: 'not_null_violation', errors: [{ field: 'name' }] });
      expect((await send('POST', '/api/author/', { name: 'x', nope: 1 })).body).toMatchObject({ code: 'invalid_input', errors: [{ field: 'nope' }] });
      expect((await send('POST', '/api/author/', ['x'])).status).toBe(400);
      expect((await send('POST', '/api/comment/', { body: 'x', post_id: 999 })).body).toMatchObject({ code: 'foreign_key_violation' });
      expect((await c().request('/api/author/', { method: 'POST', body: 'name=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
      expect((await c().request('/api/author/', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    });

    it('PUT needs every required field (400 naming them); PATCH changes what it names', async () => {
      const put = await send('PUT', '/api/link/1', { label: 'x' });
      expect(put.status).toBe(400);
      expect(put.body.errors).toEqual(expect.arrayContaining([{ field: 'from_author_id', message: 'required' }, { field: 'to_author_id', message: 'required' }]));
      const link = await send('POST', '/api/link/', { from_author_id: 1, to_author_id: 2 });
      const id = link.body.id as number;
      const full = await send('PUT', `/api/link/${id}`, { from_author_id: 2, to_author_id: 1, label: null });
      expect(full.status).toBe(200);
      expect(full.body).toEqual({ id, from_author_id: 2, to_author_id: 1, label: null });
      const patch = await send('PATCH', `/api/link/${id}`, { label: 'cites' });
      expect(patch.body).toEqual({ id, from_author_id: 2, to_author_id: 1, label: 'cites' });
      expect((await send('PATCH', '/api/link/99999', { label: null })).status).toBe(404);
    });

    it('DELETE answers 204; a soft-delete model keeps the row with deleted_at stamped', async () => {
      const created = await send('POST', '/api/post/', { title: 'To delete', author_id: 1 }, as('alice'));
      const id = created.body.id as number;
      const del = await c().request(`/api/post/${id}`, { method: 'DELETE', headers: as('alice') });
      expect(del.status).toBe(204);
      expect((await get(`/api/post/${id}`, as('alice'))).status).toBe(404);
      expect((await get('/api/post/?limit=1000', as('alice'))).body.results.map((p) => p.id)).not.toContain(id);
      const kept = await ref.app.store.getById('post', id, { withDeleted: true });
      expect(kept?.deleted_at).toBeInstanceOf(Date);
      const tag = await send('POST', '/api/tag/', { id: 'tmp', label: 'Temp' });
      expect(tag.status).toBe(201);
      expect((await c().request('/api/tag/tmp', { method: 'DELETE' })).status).toBe(204);
      expect(await ref.app.store.getById('tag', 'tmp')).toBeNull();
    });

    it('an id that cannot be coerced to the key type is a 404', async () => {
      expect((await get('/api/author/abc')).status).toBe(404);
      expect((await get('/api/author/1.5')).status).toBe(404);
      expect((await get('/api/ticket/not-a-uuid')).status).toBe(404);
      expect((await get('/api/author/999999')).status).toBe(404);
    });

    it('a session-cookie write without the CSRF header is refused', async () => {
      const client = c();
      await client.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
      expect((await client.json('/api/author/', 'POST', { name: 'x' })).status).toBe(403);
      const ok = await client.json('/api/author/', 'POST', { name: 'x' }, { 'x-csrf-token': client.cookies.get('portico_csrf') as string });
      expect(ok.status).toBe(201);
    });
  });

  describe('permission classes', () => {
    it('ReadOnly (unconfigured): reads open, any write 403 even for staff', async () => {
      expect((await get('/api/announcement/')).status).toBe(200);
      expect((await send('POST', '/api/announcement/', { title: 'x' })).status).toBe(403);
      expect((await send('POST', '/api/announcement/', { title: 'x' }, as('staff'))).status).toBe(403);
      expect((await send('PATCH', '/api/announcement/1', { title: 'x' }, as('staff'))).status).toBe(403);
      expect((await c().request('/api/announcement/1', { method: 'DELETE', headers: as('staff') })).status).toBe(403);
    });

    it('IsAuthenticated: anonymous 401, signed in 200', async () => {
      expect((await get('/api/post/')).status).toBe(401);
      expect((await get('/api/post/', as('alice'))).status).toBe(200);
    });

    it('IsStaff: anonymous 401, non-staff 403, staff 200', async () => {
      expect((await get('/api/staff_report/')).status).toBe(401);
      expect((await get('/api/staff_report/', as('alice'))).status).toBe(403);
      expect((await get('/api/staff_report/', as('staff'))).body.count).toBe(1);
    });
  });

  describe('view scope', () => {
    it('a scoped-out method answers 405 with Allow listing the served methods', async () => {
      for (const [method, path] of [['POST', '/api/ticket/'], ['DELETE', '/api/ticket/00000000-0000-4000-8000-000000000000'], ['PUT', '/api/ticket/00000000-0000-4000-8000-000000000000']]) {
        const res = await c().request(path as string, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('OPTIONS, GET');
      }
    });

    it('OPTIONS answers 204 with the same Allow header', async () => {
      const res = await c().request('/api/ticket/', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('OPTIONS, GET');
      expect((await c().request('/api/author/', { method: 'OPTIONS' })).headers.get('allow')).toBe('OPTIONS, GET, POST');
      expect((await c().request('/api/author/1', { method: 'OPTIONS' })).headers.get('allow')).toBe('OPTIONS, GET, PUT, PATCH, DELETE');
    });

    it('a URI left serving no method answers 404 with no Allow header', async () => {
      const res = await c().request('/api/list_only/1');
      expect(res.status).toBe(404);
      expect(res.headers.get('allow')).toBeNull();
      expect((await get('/api/list_only/')).status).toBe(200);
    });
  });
}

describe('REST layer on the reference app: SQLite', () => restSuite('sqlite'));
describe.skipIf(!pg)('REST layer on the reference app: PostgreSQL', () => restSuite('postgresql'));

describe('PROFILE=allowlist', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off', PROFILE: 'allowlist' } });
  });
  afterAll(async () => ref.close());

  it('serves only author and post; auth_user stays blocked although exposed', async () => {
    const root = (await (await fetch(`${ref.url}/api/`)).json()) as { resources: Record<string, unknown> };
    expect(Object.keys(root.resources).sort()).toEqual(['author', 'post']);
    expect((await fetch(`${ref.url}/api/author/`)).status).toBe(200);
    for (const table of ['auth_user', 'comment', 'tag', 'secret_config']) expect((await fetch(`${ref.url}/api/${table}/`)).status).toBe(404);
  });
});
