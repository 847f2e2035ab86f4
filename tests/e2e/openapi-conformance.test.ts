import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf, samplePng } from '../support/sample-files.js';
import { ConformanceClient, login, type CallOptions, type CallResult } from '../support/openapi-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/*
 * The document matches the server: the reference app on SQLite and PostgreSQL answers a
 * representative request to every operation of its own OpenAPI document (lists with filters,
 * ordering, include and paging; CRUD on every table; bulk verbs; parent-scoped routes; actions;
 * the error cases), and every answer is a declared status with a body of the declared schema.
 */

const pg = await postgresAvailable();
type Body = Record<string, unknown>;
type Ids = Record<string, unknown>;

/** One CRUD cycle per table: the create body, the PUT and PATCH bodies (shop_order and order_item rows are deleted last, children first). */
interface Cycle {
  readonly create: (ids: Ids) => Body;
  readonly replace: (ids: Ids, created: Body) => Body;
  readonly patch: (ids: Ids, created: Body) => Body;
  readonly staff?: boolean;
}

const CYCLES: Record<string, Cycle> = {
  author: { create: () => ({ name: 'Grace Hopper', bio: null, email: 'grace@example.com' }), replace: () => ({ name: 'Grace B. Hopper' }), patch: () => ({ bio: 'COBOL' }) },
  post: {
    create: () => ({ title: 'Conformance', author_id: 1, published: false, comments: [{ body: 'first', replies: [{ body: 'a reply' }] }] }),
    // An existing child named by its key is changed in place, one without a key is created.
    replace: (_ids, created) => ({ title: 'Replaced', author_id: 2, comments: [{ id: (created.comments as Body[])[0]?.id, body: 'edited' }, { body: 'second' }] }),
    patch: () => ({ published: true, score: 2147483647 }),
  },
  comment: { create: () => ({ post_id: 1, body: 'nice' }), replace: () => ({ post_id: 2, body: 'moved', votes: -2147483648 }), patch: () => ({ votes: 5 }) },
  reply: { create: () => ({ comment_id: 1, body: 'r' }), replace: () => ({ comment_id: 2, body: 'r2' }), patch: () => ({ body: 'r3' }) },
  tag: { create: () => ({ id: 'conformance', label: 'C' }), replace: () => ({ label: 'C2' }), patch: () => ({ label: 'C3' }) },
  shop_order: {
    create: () => ({ customer: 'Ada', items: [{ sku: 'A-1', qty: 2, parts: [{ name: 'bolt' }] }] }),
    replace: () => ({ customer: 'Alan', items: [{ sku: 'A-2', qty: 1 }] }),
    patch: () => ({ customer: 'Alan T.' }),
  },
  order_item: { create: (ids) => ({ order_id: ids.shop_order, sku: 'B-1', qty: 1, parts: [{ name: 'nut' }] }), replace: (ids) => ({ order_id: ids.shop_order, sku: 'B-2', qty: 4 }), patch: () => ({ qty: 3 }) },
  item_part: { create: (ids) => ({ item_id: ids.order_item, name: 'washer' }), replace: (ids) => ({ item_id: ids.order_item, name: 'spring' }), patch: () => ({ name: 'pin' }) },
  project: { create: () => ({ name: 'Docs' }), replace: () => ({ name: 'Docs site' }), patch: () => ({ name: 'Docs 2' }) },
  member: { create: () => ({ username: 'conformance-member', nickname: null }), replace: () => ({ username: 'conformance-member-2' }), patch: () => ({ nickname: 'cm' }) },
  staff_report: { create: () => ({ title: 'Q3' }), replace: () => ({ title: 'Q3 final', body: 'numbers' }), patch: () => ({ body: null }), staff: true },
  link: { create: () => ({ from_author_id: 1, to_author_id: 2, label: 'cites' }), replace: () => ({ from_author_id: 2, to_author_id: 1 }), patch: () => ({ label: null }) },
  note: { create: () => ({ body: 'a note' }), replace: () => ({ body: 'replaced' }), patch: () => ({ body: 'patched' }) },
};

describe.each([['sqlite'], ['postgresql']] as const)('every operation of the document answers as documented on %s', (backend) => {
  const skip = backend === 'postgresql' && !pg;
  let ref: RunningReference;
  let api: ConformanceClient;
  let alice = '';
  let staff = '';

  /** Calls and expects a conforming answer with `status`. */
  const expectCall = async (status: number, method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
    const res = await api.call(method, path, { token: alice, ...options });
    expect(res.problems, `${method} ${path}`).toEqual([]);
    expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
    return res;
  };

  beforeAll(async () => {
    if (skip) return;
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    api = await ConformanceClient.load(ref.url);
    [alice, staff] = await Promise.all([login(ref.url, 'alice', 'alice-password-1'), login(ref.url, 'staff', 'staff-password-1')]);
  });
  afterAll(async () => ref?.close());

  it.skipIf(skip)('lists every table, with filters, lookups, search, ordering, include, fields and paging', async () => {
    for (const op of api.conformance.operations().filter((o) => o.method === 'get' && !o.template.includes('{'))) {
      await expectCall(200, 'GET', op.template, { token: op.template.includes('staff_report') ? staff : alice });
    }
    const page = await expectCall(200, 'GET', '/api/post/?published=true&ordering=-score,title&include=author,created_by&fields=id,title,author_id,created_by_id&limit=1&offset=1');
    expect(page.json.next).toMatch(/^http/);
    expect(page.json.previous).toMatch(/^http/);
    await expectCall(200, 'GET', '/api/post?title__icontains=on&score__gte=5&deleted_at__isnull=true&author_id__in=1,2');
    await expectCall(200, 'GET', '/api/comment?votes__in=1,3&include=post.author');
    await expectCall(200, 'GET', '/api/author?search=ada&limit=5000');
    await expectCall(200, 'GET', '/api/project/1/milestone?due__gte=2026-01-01&ordering=-due');
  });

  it.skipIf(skip)('creates, retrieves, replaces, changes and deletes a row of every writable table (nested children included)', async () => {
    const ids: Ids = {};
    for (const [table, cycle] of Object.entries(CYCLES)) {
      const token = cycle.staff ? staff : alice;
      const created = await expectCall(201, 'POST', `/api/${table}/`, { token, body: cycle.create(ids) });
      ids[table] = created.json.id;
      const detail = `/api/${table}/${encodeURIComponent(String(created.json.id))}`;
      await expectCall(200, 'GET', detail, { token });
      await expectCall(200, 'PUT', detail, { token, body: cycle.replace(ids, created.json) });
      await expectCall(200, 'PATCH', detail, { token, body: cycle.patch(ids, created.json) });
      if (table === 'post') await expectCall(200, 'GET', `${detail}?include=author,created_by`, { token });
      if (!['shop_order', 'order_item'].includes(table)) await expectCall(204, 'DELETE', detail, { token });
    }
    // Children first, then their parents: 409 while referenced, 204 once free.
    await expectCall(409, 'DELETE', `/api/shop_order/${String(ids.shop_order)}`);
    await expectCall(409, 'DELETE', `/api/order_item/${String(ids.order_item)}`);
    const parts = await expectCall(200, 'GET', `/api/item_part?item_id=${String(ids.order_item)}`);
    for (const part of parts.json.results as Body[]) await expectCall(204, 'DELETE', `/api/item_part/${String(part.id)}`);
    await expectCall(204, 'DELETE', `/api/order_item/${String(ids.order_item)}`);
  });

  it.skipIf(skip)('uploads a file: multipart create, PUT and PATCH answer the File object; refusals answer declared problems', async () => {
    const upload = (fields: Record<string, string>, file?: [Uint8Array, string]): FormData => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      if (file) form.append('file', new Blob([new Uint8Array(file[0])]), file[1]);
      return form;
    };
    const created = await expectCall(201, 'POST', '/api/attachment/', { form: upload({ post_id: '1' }, [samplePdf(), 'a.pdf']) });
    expect(Object.keys(created.json.file).sort()).toEqual(['content_type', 'name', 'size', 'url']);
    const detail = `/api/attachment/${String(created.json.id)}`;
    await expectCall(200, 'GET', detail);
    await expectCall(200, 'PUT', detail, { form: upload({ post_id: '2' }, [samplePng(), 'b.png']) });
    await expectCall(200, 'PATCH', detail, { form: upload({}, [Buffer.from('text\n'), 'c.txt']) });
    await expectCall(200, 'PATCH', detail, { body: { post_id: 1 } });
    await expectCall(400, 'PATCH', detail, { body: { file: { key: 'attachment/00000000-0000-4000-8000-000000000000.pdf', name: 'x', size: 1, content_type: 'application/pdf' } } });
    await expectCall(415, 'POST', '/api/attachment/', { form: upload({ post_id: '1' }, [Buffer.from('<svg onload="alert(1)"/>'), 'x.txt']) });
    await expectCall(413, 'POST', '/api/attachment/', { form: upload({ post_id: '1' }, [samplePdf(5 * 1024 * 1024 + 1), 'big.pdf']) });
    await expectCall(401, 'POST', '/api/attachment/', { token: '', form: upload({ post_id: '1' }, [samplePdf(), 'a.pdf']) });
    await expectCall(204, 'DELETE', detail);
  });

  it.skipIf(skip)('retrieves what cannot be created: a ticket (none seeded), an announcement (read-only)', async () => {
    await expectCall(404, 'GET', '/api/ticket/00000000-0000-4000-8000-000000000000');
    await expectCall(200, 'GET', '/api/announcement/1');
    for (const [method, path] of [['POST', '/api/announcement'], ['PUT', '/api/announcement/1'], ['PATCH', '/api/announcement/1'], ['DELETE', '/api/announcement/1']] as const) {
      await expectCall(403, method, path, method === 'DELETE' ? {} : { body: { title: 'x' } });
    }
  });

  it.skipIf(skip)('bulk POST, PATCH and DELETE answer arrays and 204, all or nothing', async () => {
    const tags = await expectCall(201, 'POST', '/api/tag', { body: [{ id: 'bulk-a', label: 'A' }, { id: 'bulk-b', label: 'B' }] });
    expect(tags.json).toHaveLength(2);
    await expectCall(200, 'PATCH', '/api/tag', { body: [{ id: 'bulk-a', label: 'A2' }, { id: 'bulk-b', label: 'B2' }] });
    await expectCall(204, 'DELETE', '/api/tag', { body: { ids: ['bulk-a', 'bulk-b'] } });
    const order = (await expectCall(201, 'POST', '/api/shop_order', { body: { customer: 'For items' } })).json.id as number;
    const items: Record<string, Body> = { post: { title: 'Bulk', author_id: 2 }, shop_order: { customer: 'Bulk' }, order_item: { order_id: order, sku: 'S', qty: 1 } };
    for (const [table, item] of Object.entries(items)) {
      const rows = (await expectCall(201, 'POST', `/api/${table}`, { body: [item, item] })).json as Body[];
      await expectCall(200, 'PATCH', `/api/${table}`, { body: rows.map((r) => ({ id: r.id })) });
      await expectCall(204, 'DELETE', `/api/${table}`, { body: { ids: rows.map((r) => r.id) } });
    }
    await expectCall(400, 'POST', '/api/tag', { body: [] });
    await expectCall(400, 'POST', '/api/tag', { body: Array.from({ length: 1001 }, (_, i) => ({ id: `t${i}`, label: 'x' })) });
    await expectCall(400, 'POST', '/api/tag', { body: [{ id: 'ok-1', label: 'x' }, { id: 'bad', label: 'x', nope: 1 }] });
    await expectCall(400, 'PATCH', '/api/tag', { body: [{ label: 'no key' }] });
    await expectCall(404, 'PATCH', '/api/tag', { body: [{ id: 'missing', label: 'x' }] });
    await expectCall(400, 'DELETE', '/api/tag', { body: { ids: [] } });
    await expectCall(201, 'POST', '/api/tag', { body: { id: 'kept', label: 'K' } });
    await expectCall(404, 'DELETE', '/api/tag', { body: { ids: ['kept', 'missing'] } });
    const referenced = (await expectCall(201, 'POST', '/api/shop_order', { body: { customer: 'Kept', items: [{ sku: 'K', qty: 1 }] } })).json.id as number;
    await expectCall(409, 'DELETE', '/api/shop_order', { body: { ids: [order, referenced] } }); // its item still references it
    expect((await expectCall(200, 'GET', '/api/tag/kept')).json.id).toBe('kept'); // the failed batch rolled back
  });

  it.skipIf(skip)('parent-scoped routes: scoped to the parent, 404 for a missing parent, the key from the URL', async () => {
    const base = '/api/project/1/milestone';
    const created = await expectCall(201, 'POST', base, { body: { title: 'Conformance', due: '2027-06-30' } });
    const detail = `${base}/${String(created.json.id)}`;
    await expectCall(200, 'GET', detail);
    await expectCall(200, 'PUT', detail, { body: { title: 'Replaced', due: null } });
    await expectCall(200, 'PATCH', detail, { body: { due: '2027-07-01' } });
    await expectCall(404, 'GET', `/api/project/2/milestone/${String(created.json.id)}`);
    await expectCall(204, 'DELETE', detail);
    const rows = (await expectCall(201, 'POST', base, { body: [{ title: 'B1' }, { title: 'B2' }] })).json as Body[];
    expect(rows.every((r) => r.project_id === 1)).toBe(true);
    await expectCall(200, 'PATCH', base, { body: rows.map((r) => ({ id: r.id, title: 'B' })) });
    await expectCall(404, 'PATCH', '/api/project/2/milestone', { body: rows.map((r) => ({ id: r.id, title: 'B' })) });
    await expectCall(204, 'DELETE', base, { body: { ids: rows.map((r) => r.id) } });
    await expectCall(400, 'POST', base, { body: { title: 'x', project_id: 1 } });
    for (const [method, body] of [['GET'], ['POST', { title: 'x' }], ['PATCH', [{ id: 1 }]], ['DELETE', { ids: [1] }]] as const) {
      await expectCall(404, method, '/api/project/999/milestone', body ? { body } : {});
    }
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) await expectCall(404, method, '/api/project/999/milestone/1', method.startsWith('P') ? { body: { title: 'x' } } : {});
    await expectCall(404, 'GET', '/api/project/abc/milestone');
    await expectCall(404, 'GET', '/api/milestone', { undocumented: true });
  });

  it.skipIf(skip)('actions: publish, recent and export, with their input schema, status and permissions', async () => {
    const published = await expectCall(200, 'POST', '/api/post/3/publish/', { body: { reason: 'ready', channel: 'web' } });
    expect(published.json.published).toBe(true);
    await expectCall(400, 'POST', '/api/post/3/publish', { body: { channel: 'fax' } });
    await expectCall(404, 'POST', '/api/post/999/publish', { body: { reason: 'x' } });
    await expectCall(401, 'POST', '/api/post/3/publish', { token: '', body: { reason: 'x' } });
    await expectCall(200, 'GET', '/api/post/recent/?limit=2');
    await expectCall(400, 'GET', '/api/post/recent?limit=zero');
    await expectCall(401, 'GET', '/api/post/recent', { token: '' });
    expect((await expectCall(202, 'POST', '/api/post/3/export/', { body: {} })).json).toEqual({ status: 'accepted' });
    await expectCall(404, 'POST', '/api/post/999/export', { body: {} });
    await expectCall(401, 'POST', '/api/post/3/export', { token: '', body: {} });
  });

  it.skipIf(skip)('error cases answer declared problem+json documents', async () => {
    await expectCall(404, 'GET', '/api/author/9999');
    await expectCall(404, 'DELETE', '/api/author/9999');
    await expectCall(400, 'GET', '/api/author?nope=1');
    await expectCall(400, 'GET', '/api/comment?votes=3000000000');
    await expectCall(400, 'GET', '/api/post/1?include=comments');
    await expectCall(401, 'GET', '/api/post', { token: '' });
    await expectCall(401, 'GET', '/api/staff_report/1', { token: '' });
    // Credentials that are sent must be valid, even where anonymous callers are allowed.
    await expectCall(401, 'GET', '/api/author/1', { token: 'not-a-token' });
    await expectCall(401, 'POST', '/api/author', { token: 'not-a-token', body: { name: 'x' } });
    await expectCall(403, 'GET', '/api/staff_report/1');
    await expectCall(415, 'POST', '/api/author', { raw: 'name=x', contentType: 'text/plain' });
    await expectCall(400, 'POST', '/api/author', { raw: '{"name":', contentType: 'application/json' });
    await expectCall(400, 'POST', '/api/post', { body: { title: 't', author_id: 1, featured: true } });
    await expectCall(400, 'PATCH', '/api/post/1', { body: { is_staff: true } });
    await expectCall(400, 'POST', '/api/author', { body: { id: 77, name: 'generated key' } });
    await expectCall(400, 'POST', '/api/tag', { body: { id: '', label: 'empty key' } });
    await expectCall(400, 'PATCH', '/api/author/2', { body: { id: 3 } });
    await expectCall(400, 'POST', '/api/author', { body: { name: 'x', nope: 1 } });
    await expectCall(400, 'POST', '/api/comment', { body: { post_id: 1, body: 'x', votes: 2147483648 } });
    await expectCall(400, 'POST', '/api/comment', { body: { post_id: 9999, body: 'x' } });
    await expectCall(400, 'PUT', '/api/author/2', { body: { bio: 'missing name' } });
    await expectCall(400, 'POST', '/api/member', { body: { username: 'mallory' } });
    await expectCall(409, 'DELETE', '/api/author/1');
    await expectCall(413, 'POST', '/api/author', { body: { name: 'x'.repeat(1024 * 1024 + 10) } });
  });

  it.skipIf(skip)('reached every operation of the document, and every answer conformed', () => {
    expect(api.unexercised()).toEqual([]);
    expect(api.requests).toBeGreaterThan(150);
  });
});
