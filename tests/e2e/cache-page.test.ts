import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { c, cache, cachePage, createApp, defineModel, type Plugin, type PorticoApp } from '../../src/index.js';
import { ManualClock } from '../support/open-test-database.js';
import { connectRedis, deleteRedisPrefix, freshRedisPrefix, REDIS_URL, redisAvailable } from '../support/redis.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startReference } from '../support/reference-server.js';

/**
 * Issue 52, `cachePage` on a host's routes: an anonymous GET is answered from the cache on the
 * second request (no handler run, `Age`, `Cache-Control: public`), by host, path and sorted
 * query; credentials (Authorization, a session cookie) bypass it both ways; an answer that sets a
 * cookie, is `private` or is not a 200 is never kept; a committed write to a `dependsOn` model
 * drops the page and a rolled-back one does not; concurrent cold requests run the page once;
 * the TTL follows the app's clock; two apps on one PostgreSQL database and one Redis share pages
 * and their invalidation; a TTL of 0 is refused.
 */
const models = [defineModel('post', { id: c.id(), title: c.text() })];
const redis = await redisAvailable();
const pg = await postgresAvailable();

function pages(counter: { runs: number }): Plugin {
  return {
    name: 'pages',
    install(ctx) {
      ctx.route({
        method: 'GET',
        path: '/stats',
        cache: cachePage({ ttl: 30, dependsOn: ['post'] }),
        handler: async () => {
          counter.runs++;
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { status: 200, body: { posts: await ctx.store.count('post'), run: counter.runs } };
        },
      });
      ctx.route({ method: 'GET', path: '/cookie', cache: cachePage({ ttl: 30 }), handler: () => (counter.runs++, { status: 200, body: { run: counter.runs }, headers: { 'Set-Cookie': 'seen=1; Path=/' } }) });
      ctx.route({ method: 'GET', path: '/private', cache: cachePage({ ttl: 30 }), handler: () => (counter.runs++, { status: 200, body: { run: counter.runs }, headers: { 'Cache-Control': 'private, max-age=60' } }) });
      ctx.route({ method: 'GET', path: '/missing', cache: cachePage({ ttl: 30 }), handler: () => (counter.runs++, { status: 404, body: { run: counter.runs } }) });
    },
  };
}

function build(database: string, counter: { runs: number }, clock: ManualClock, url = 'memory:', namespace?: string): PorticoApp {
  return createApp({ database, models, autoMigrate: true, logRequests: false, clock })
    .use(cache({ url, ...(namespace ? { namespace } : {}) }))
    .use(pages(counter));
}

describe('cachePage on one app (memory cache)', () => {
  const counter = { runs: 0 };
  const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
  let app: PorticoApp;
  let url: string;
  beforeAll(async () => {
    app = build('sqlite::memory:', counter, clock);
    ({ url } = await app.listen(0));
    await app.store.insert('post', { title: 'one' });
  });
  afterAll(() => app?.close());
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers });

  it('answers the second anonymous request from the cache, with Age and a public Cache-Control', async () => {
    const first = await get('/stats?b=2&a=1');
    expect(await first.json()).toEqual({ posts: 1, run: 1 });
    clock.advance(5000);
    const second = await get('/stats?a=1&b=2');
    expect(await second.json()).toEqual({ posts: 1, run: 1 });
    expect(second.headers.get('age')).toBe('5');
    expect(second.headers.get('cache-control')).toBe('public, max-age=25');
    expect(second.headers.get('content-type')).toContain('application/json');
    expect(counter.runs).toBe(1);
    // Another query is another page.
    expect(await (await get('/stats?a=2')).json()).toEqual({ posts: 1, run: 2 });
  });

  it('never serves or keeps a page for a caller with credentials', async () => {
    const before = counter.runs;
    expect(((await (await get('/stats?a=1&b=2', { authorization: 'Bearer someone' })).json()) as { run: number }).run).toBe(before + 1);
    expect(((await (await get('/stats?a=1&b=2', { cookie: 'portico_session=abc' })).json()) as { run: number }).run).toBe(before + 2);
    // The anonymous page is still the one kept first.
    expect(((await (await get('/stats?a=1&b=2')).json()) as { run: number }).run).toBe(1);
  });

  it('never keeps an answer that sets a cookie, is private, or is not a 200', async () => {
    for (const path of ['/cookie', '/private', '/missing']) {
      const a = (await (await get(path)).json()) as { run: number };
      const b = (await (await get(path)).json()) as { run: number };
      expect(b.run, path).toBe(a.run + 1);
    }
  });

  it('drops the page when a write to post commits, not when it rolls back', async () => {
    await get('/stats');
    const kept = (await (await get('/stats')).json()) as { run: number };
    await expect(app.store.transaction(async (tx) => {
      await tx.insert('post', { title: 'rolled back' });
      throw new Error('no');
    })).rejects.toThrow('no');
    expect(((await (await get('/stats')).json()) as { run: number }).run).toBe(kept.run);
    await app.store.insert('post', { title: 'two' });
    expect(await (await get('/stats')).json()).toEqual({ posts: 2, run: kept.run + 1 });
  });

  it('runs the page once for concurrent cold requests, and again once the TTL has passed', async () => {
    clock.advance(31_000);
    const before = counter.runs;
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('/stats').then((r) => r.json() as Promise<{ run: number }>)));
    expect(new Set(answers.map((a) => a.run))).toEqual(new Set([before + 1]));
    expect(counter.runs).toBe(before + 1);
  });

  it('refuses a TTL of 0 when the route is declared', () => {
    expect(() => cachePage({ ttl: 0 })).toThrow(/TTL must be a positive number/);
  });
});

describe.skipIf(!redis || !pg)('cachePage shared by two apps on one PostgreSQL database and one Redis', () => {
  const counter = { runs: 0 };
  const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
  const schema = freshPgSchema();
  const namespace = freshRedisPrefix();
  let a: PorticoApp;
  let b: PorticoApp;
  let urls: string[] = [];
  beforeAll(async () => {
    a = build(schema.url, counter, clock, REDIS_URL, namespace);
    urls = [(await a.listen(0)).url];
    b = build(schema.url, counter, clock, REDIS_URL, namespace);
    urls.push((await b.listen(0)).url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const r = connectRedis();
    await r.connect();
    await deleteRedisPrefix(r, namespace);
    await r.quit();
    await schema.drop();
  });

  it('serves on B the page A kept, and a write on B drops it for A', async () => {
    // Behind one load balancer both processes see the same Host (fetch cannot set it).
    const page = (i: number) =>
      new Promise<{ posts: number; run: number }>((resolve, reject) => {
        const req = request(`${urls[i]}/stats`, { headers: { host: 'portico.test' } }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(JSON.parse(text) as { posts: number; run: number }));
        });
        req.on('error', reject);
        req.end();
      });
    const first = await page(0);
    expect(await page(1)).toEqual(first);
    await b.store.insert('post', { title: 'from B' });
    // The invalidation travels over the database's bus: wait for it (never a fixed sleep).
    let seen = first;
    for (let i = 0; i < 100 && seen.run === first.run; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen = await page(0);
    }
    expect(seen.posts).toBe(first.posts + 1);
  });
});

describe('the reference app\'s /stats page', () => {
  it('is kept 30 s for anonymous callers, with Age, and dropped when a post is written', async () => {
    const clock = new ManualClock(new Date('2026-12-06T10:00:00Z'));
    const ref = await startReference('sqlite', { clock });
    try {
      const first = await ref.get('/stats');
      const body = (await first.json()) as { posts: number; generated_at: string };
      expect(body).toEqual({ posts: expect.any(Number), generated_at: '2026-12-06T10:00:00.000Z' });
      clock.advance(2500);
      const hit = await ref.get('/stats');
      expect(await hit.json()).toEqual(body);
      expect(hit.headers.get('age')).toBe('2');
      expect(hit.headers.get('cache-control')).toBe('public, max-age=28');
      const fresh = (await (await ref.get('/stats', { headers: { authorization: 'Bearer nobody' } })).json()) as { generated_at: string };
      expect(fresh.generated_at).toBe('2026-12-06T10:00:02.500Z');
      await ref.app.store.insert('post', { title: 'New', author_id: 1 });
      expect(await (await ref.get('/stats')).json()).toEqual({ posts: body.posts + 1, generated_at: '2026-12-06T10:00:02.500Z' });
    } finally {
      await ref.close();
    }
  });
});
