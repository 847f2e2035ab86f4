import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReferenceApp } from '../../examples/reference/app.js';
import type { PorticoApp } from '../../src/index.js';

/**
 * DESIGN §5: no response on any path contains `password_hash` or a hidden column, for random
 * rows and random include paths.
 */
describe('REST responses never leak secrets', () => {
  let app: PorticoApp;
  let url: string;
  let token: string;
  const SECRETS = ['password_hash', 'secret_note', 'moderation_note', '"secret"', 'last_login', 'email_verified_at', 'TOPSECRET'];

  beforeAll(async () => {
    app = buildReferenceApp({ database: 'memory:', logRequests: false, env: { THROTTLE: 'off' } });
    ({ url } = await app.listen(0));
    const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(async () => app.close());

  const text = fc.string({ minLength: 1, maxLength: 12 }).map((s) => `TOPSECRET-${s}`);
  const paths = [
    '/api/post/?include=created_by,author',
    '/api/comment/?include=post.author,post.created_by',
    '/api/reply/?include=comment.post.created_by',
    '/api/order_item/?include=order',
    '/api/item_part/?include=item.order',
    '/api/member/',
    '/api/author/',
    '/api/link/?include=from_author,to_author',
  ];

  it('for random rows and include paths', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, fc.constantFrom(...paths), async (secret, hash, path) => {
        const store = app.store;
        const author = await store.insert('author', { name: 'A', secret_note: secret });
        const post = await store.insert('post', { title: 'P', author_id: author.id ?? null, created_by_id: 1 });
        const comment = await store.insert('comment', { post_id: post.id ?? null, body: 'c', moderation_note: secret });
        await store.insert('reply', { comment_id: comment.id ?? null, body: 'r' });
        const order = await store.insert('shop_order', { customer: 'x' });
        const item = await store.insert('order_item', { order_id: order.id ?? null, sku: 's', qty: 1, secret });
        await store.insert('item_part', { item_id: item.id ?? null, name: 'p' });
        await store.insert('member', { username: `m-${Math.random()}`, password_hash: hash });
        await store.insert('link', { from_author_id: author.id ?? null, to_author_id: 1, label: 'l' });
        const res = await fetch(`${url}${path}${path.includes('?') ? '&' : '?'}limit=1000`, { headers: { authorization: `Bearer ${token}` } });
        expect(res.status).toBe(200);
        const body = await res.text();
        for (const s of SECRETS) expect(body, `${path} leaks ${s}`).not.toContain(s);
      }),
      { numRuns: 25 },
    );
  });
});
