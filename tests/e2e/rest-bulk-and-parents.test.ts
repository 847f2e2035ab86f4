import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

function suite(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  let token = '';
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    const res = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: 'alice', password: 'alice-password-1' });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(async () => ref.close());
  const send = async (method: string, path: string, body?: unknown, auth = false) => {
    const res = await new HttpClient(ref.url).json(path, method, body, auth ? { authorization: `Bearer ${token}` } : {});
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> & Record<string, unknown>[], res };
  };

  describe('bulk endpoints', () => {
    it('POST of an array creates every row in one go (201)', async () => {
      const res = await send('POST', '/api/tag/', [{ id: 'b1', label: 'One' }, { id: 'b2', label: 'Two' }]);
      expect(res.status).toBe(201);
      expect(res.body).toEqual([{ id: 'b1', label: 'One' }, { id: 'b2', label: 'Two' }]);
    });

    it('a single object on POST still does the ordinary create', async () => {
      expect((await send('POST', '/api/tag/', { id: 'single', label: 'S' })).status).toBe(201);
    });

    it('an invalid item rolls the whole batch back and the error names its index', async () => {
      const before = await ref.app.store.count('tag');
      const res = await send('POST', '/api/tag/', [{ id: 'ok1', label: 'x' }, { id: 'ok2', label: 'y' }, { id: 'bad' }]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'not_null_violation', errors: [{ field: 'label', index: 2 }] });
      expect(await ref.app.store.count('tag')).toBe(before);
      const dup = await send('POST', '/api/tag/', [{ id: 'd1', label: 'x' }, { id: 'orm', label: 'clash' }]);
      expect(dup.body).toMatchObject({ code: 'unique_violation', errors: [{ index: 1 }] });
      expect(await ref.app.store.getById('tag', 'd1')).toBeNull();
    });

    it('more than 1000 items answer 400 before any database work', async () => {
      const items = Array.from({ length: 1001 }, (_, i) => ({ id: `big${i}`, label: 'x' }));
      const res = await send('POST', '/api/tag/', items);
      expect(res.status).toBe(400);
      expect(String(res.body.detail)).toContain('1000');
      expect(await ref.app.store.getById('tag', 'big0')).toBeNull();
    });

    it('PATCH updates items carrying their key; a missing or unknown key rolls everything back', async () => {
      const ok = await send('PATCH', '/api/tag/', [{ id: 'b1', label: 'Uno' }, { id: 'b2', label: 'Dos' }]);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual([{ id: 'b1', label: 'Uno' }, { id: 'b2', label: 'Dos' }]);
      const missing = await send('PATCH', '/api/tag/', [{ id: 'b1', label: 'changed' }, { label: 'no key' }]);
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ errors: [{ field: 'id', index: 1 }] });
      const unknown = await send('PATCH', '/api/tag/', [{ id: 'b1', label: 'changed' }, { id: 'nope', label: 'x' }]);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ errors: [{ index: 1 }] });
      expect((await ref.app.store.getById('tag', 'b1'))?.label).toBe('Uno');
    });

    it('a privileged field in an update item rolls the batch back', async () => {
      const res = await send('PATCH', '/api/post/', [{ id: 1, title: 'changed' }, { id: 2, featured: true }], true);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'privileged_field', errors: [{ field: 'featured', index: 1 }] });
      expect((await ref.app.store.getById('post', 1))?.title).toBe('Notes on the Analytical Engine');
    });

    it('DELETE with {ids} answers 204; soft-delete models get deleted_at stamped; an unknown id rolls back', async () => {
      const created = await send('POST', '/api/post/', [{ title: 'a', author_id: 1 }, { title: 'b', author_id: 1 }], true);
      const ids = (created.body as unknown as { id: number }[]).map((p) => p.id);
      const bad = await send('DELETE', '/api/post/', { ids: [...ids, 999999] }, true);
      expect(bad.status).toBe(404);
      expect(await ref.app.store.count('post', { column: 'id', op: 'in', value: ids })).toBe(2);
      expect((await send('DELETE', '/api/post/', { ids }, true)).status).toBe(204);
      expect(await ref.app.store.count('post', { column: 'id', op: 'in', value: ids })).toBe(0);
      const kept = await ref.app.store.getManyByIds('post', ids, { withDeleted: true });
      expect(kept.every((p) => p.deleted_at instanceof Date)).toBe(true);
    });

    it('bulk verbs check the permission class per verb', async () => {
      expect((await send('POST', '/api/post/', [{ title: 'a', author_id: 1 }])).status).toBe(401);
      expect((await send('DELETE', '/api/post/', { ids: [1] })).status).toBe(401);
    });

    it('without bulk(): an array POST is rejected and there is no collection PATCH or DELETE', async () => {
      const res = await send('POST', '/api/author/', [{ name: 'x' }]);
      expect(res.status).toBe(400);
      const patch = await send('PATCH', '/api/author/', [{ id: 1, name: 'x' }]);
      expect(patch.status).toBe(405);
      expect(patch.res.headers.get('allow')).toBe('OPTIONS, GET, POST');
      expect((await send('DELETE', '/api/author/', { ids: [1] })).status).toBe(405);
    });

    it('blocked tables answer 404 to bulk verbs', async () => {
      expect((await send('POST', '/api/auth_user/', [{ username: 'x' }])).status).toBe(404);
      expect((await send('DELETE', '/api/auth_user/', { ids: [1] })).status).toBe(404);
    });
  });

  describe('parent-scoped sub-resources', () => {
    it('lists only the children of that parent', async () => {
      const res = await send('GET', '/api/project/1/milestone/');
      expect(res.status).toBe(200);
      expect((res.body.results as unknown as { project_id: number }[]).every((m) => m.project_id === 1)).toBe(true);
      expect(res.body.count).toBe(2);
    });

    it('a missing or uncoercible parent answers 404, never an empty list', async () => {
      expect((await send('GET', '/api/project/999/milestone/')).status).toBe(404);
      expect((await send('GET', '/api/project/abc/milestone/')).status).toBe(404);
      expect((await send('POST', '/api/project/999/milestone/', { title: 'x' })).status).toBe(404);
    });

    it('creates with the parent key from the URL; a body carrying it is rejected', async () => {
      const ok = await send('POST', '/api/project/2/milestone/', { title: 'Beta' });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ project_id: 2, title: 'Beta' });
      const bad = await send('POST', '/api/project/2/milestone/', { title: 'x', project_id: 1 });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ errors: [{ field: 'project_id' }] });
    });

    it('retrieve, update and delete are scoped to the parent', async () => {
      expect((await send('GET', '/api/project/1/milestone/1')).status).toBe(200);
      expect((await send('GET', '/api/project/2/milestone/1')).status).toBe(404);
      expect((await send('PATCH', '/api/project/2/milestone/1', { title: 'x' })).status).toBe(404);
      expect((await send('DELETE', '/api/project/2/milestone/1')).status).toBe(404);
      expect((await send('PATCH', '/api/project/1/milestone/1', { title: 'Foundation v2' })).body).toMatchObject({ title: 'Foundation v2', project_id: 1 });
      expect((await send('GET', '/api/project/1/milestone/abc')).status).toBe(404);
    });

    it('the flat routes answer 404 once a parent is declared', async () => {
      expect((await send('GET', '/api/milestone/')).status).toBe(404);
      expect((await send('GET', '/api/milestone/1')).status).toBe(404);
      expect((await send('PATCH', '/api/milestone/', [{ id: 1, title: 'x' }])).status).toBe(404);
      expect((await send('DELETE', '/api/milestone/', { ids: [1] })).status).toBe(404);
    });

    it('bulk create injects the parent into each item', async () => {
      const res = await send('POST', '/api/project/1/milestone/', [{ title: 'M1' }, { title: 'M2' }]);
      expect(res.status).toBe(201);
      expect((res.body as unknown as { project_id: number }[]).map((m) => m.project_id)).toEqual([1, 1]);
      const bad = await send('POST', '/api/project/1/milestone/', [{ title: 'M3' }, { title: 'M4', project_id: 2 }]);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ errors: [{ field: 'project_id', index: 1 }] });
    });

    it('the API root advertises the nested path', async () => {
      const root = await send('GET', '/api/');
      expect((root.body.resources as unknown as Record<string, unknown>).milestone).toEqual({
        path: '/api/project/{parent_id}/milestone/',
        detail: '/api/project/{parent_id}/milestone/{id}',
      });
    });
  });
}

describe('bulk writes and sub-resources: SQLite', () => suite('sqlite'));
describe.skipIf(!pg)('bulk writes and sub-resources: PostgreSQL', () => suite('postgresql'));
