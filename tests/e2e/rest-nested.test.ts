import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

function suite(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await new HttpClient(ref.url).json(path, method, body);
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };
  const counts = async () => Promise.all(['shop_order', 'order_item', 'item_part'].map((t) => ref.app.store.count(t)));

  it('POST writes the parent, then the children with their parent key, recursively; hidden fields are stripped at every level', async () => {
    const res = await send('POST', '/api/shop_order/', {
      customer: 'Ada',
      items: [
        { sku: 'A-1', qty: 2, secret: 'hidden!', parts: [{ name: 'bolt' }, { name: 'nut' }] },
        { sku: 'B-2', qty: 1 },
      ],
    });
    expect(res.status).toBe(201);
    const order = res.body as { id: number; items: { id: number; order_id: number; sku: string; parts?: { item_id: number }[] }[] };
    expect(order).toMatchObject({ customer: 'Ada', items: [{ sku: 'A-1', qty: 2 }, { sku: 'B-2', qty: 1 }] });
    expect(order.items.every((i) => i.order_id === order.id && typeof i.id === 'number')).toBe(true);
    expect(order.items[0]?.parts?.map((p) => p.item_id)).toEqual([order.items[0]?.id, order.items[0]?.id]);
    expect(JSON.stringify(res.body)).not.toContain('hidden!');
    const stored = await ref.app.store.getById('order_item', order.items[0]?.id ?? 0);
    expect(stored?.secret).toBeNull();
  });

  it('any invalid child rolls back the parent and every child', async () => {
    const before = await counts();
    const res = await send('POST', '/api/shop_order/', { customer: 'Bob', items: [{ sku: 'ok', qty: 1, parts: [{ name: 'p' }] }, { sku: 'no qty' }] });
    expect(res.status).toBe(400);
    expect(String(res.body.detail)).toContain('items[1]');
    expect(await counts()).toEqual(before);
  });

  it('PATCH updates children with a key in place, creates the others, leaves the rest untouched', async () => {
    const created = (await send('POST', '/api/shop_order/', { customer: 'Cy', items: [{ sku: 'x', qty: 1 }, { sku: 'y', qty: 1 }] })).body as { id: number; items: { id: number }[] };
    const [x, y] = created.items;
    const res = await send('PATCH', `/api/shop_order/${created.id}`, { customer: 'Cyril', items: [{ id: x?.id, qty: 9 }, { sku: 'z', qty: 3 }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customer: 'Cyril', items: [{ id: x?.id, qty: 9 }, { sku: 'z', qty: 3, order_id: created.id }] });
    expect((await ref.app.store.getById('order_item', y?.id ?? 0))?.qty).toBe(1);
    expect(await ref.app.store.count('order_item', { column: 'order_id', op: 'eq', value: created.id })).toBe(3);
  });

  it('a child key that belongs to another parent answers 404 and rolls everything back', async () => {
    const a = (await send('POST', '/api/shop_order/', { customer: 'A', items: [{ sku: 'a', qty: 1 }] })).body as { id: number; items: { id: number }[] };
    const b = (await send('POST', '/api/shop_order/', { customer: 'B', items: [{ sku: 'b', qty: 1 }] })).body as { id: number };
    const res = await send('PATCH', `/api/shop_order/${b.id}`, { customer: 'B2', items: [{ sku: 'new', qty: 1 }, { id: a.items[0]?.id, qty: 99 }] });
    expect(res.status).toBe(404);
    expect((await ref.app.store.getById('shop_order', b.id))?.customer).toBe('B');
    expect((await ref.app.store.getById('order_item', a.items[0]?.id ?? 0))?.qty).toBe(1);
    expect(await ref.app.store.count('order_item', { column: 'sku', op: 'eq', value: 'new' })).toBe(0);
  });

  it('an undeclared array key is rejected, not ignored', async () => {
    const before = await counts();
    const res = await send('POST', '/api/shop_order/', { customer: 'x', items: [], gifts: [{ name: 'x' }] });
    expect(res.status).toBe(400);
    expect(String(res.body.detail)).toContain('gifts');
    expect(await counts()).toEqual(before);
  });

  it('a child with several foreign keys to the parent is ambiguous: 400', async () => {
    const before = await ref.app.store.count('author');
    const res = await send('POST', '/api/author/', { name: 'Ambiguous', links: [{ label: 'x' }] });
    expect(res.status).toBe(400);
    expect(String(res.body.detail)).toContain('ambiguous');
    expect(await ref.app.store.count('author')).toBe(before);
  });

  it('every node counts against the 1000 cap', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ sku: `s${i}`, qty: 1 }));
    const before = await counts();
    const res = await send('POST', '/api/shop_order/', { customer: 'big', items });
    expect(res.status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('comments and their replies nest under a post (two levels), with the caller recorded on the post', async () => {
    const login = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: 'alice', password: 'alice-password-1' });
    const { token } = (await login.json()) as { token: string };
    const res = await new HttpClient(ref.url).json(
      '/api/post/',
      'POST',
      { title: 'Tree', author_id: 1, comments: [{ body: 'c1', moderation_note: 'nope', replies: [{ body: 'r1' }] }] },
      { authorization: `Bearer ${token}` },
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { created_by_id: number; comments: { moderation_note?: string; replies: { body: string }[] }[] };
    expect(body.created_by_id).toBe(1);
    expect(body.comments[0]?.replies[0]?.body).toBe('r1');
    expect(body.comments[0]).not.toHaveProperty('moderation_note');
  });
}

describe('nested writes: SQLite', () => suite('sqlite'));
describe.skipIf(!pg)('nested writes: PostgreSQL', () => suite('postgresql'));
