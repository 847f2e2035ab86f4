import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, health } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

function probes(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  beforeAll(async () => {
    process.env.LOG_LEVEL ??= 'silent';
    ref = await startReference(backend);
  });
  afterAll(async () => ref.close());

  it('GET /healthz answers 200 {"status":"ok"} with no-store', async () => {
    const res = await ref.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it.each(['/ready', '/readyz'])('GET %s answers 200 with the database check', async (path) => {
    const res = await ref.get(path);
    expect(res.status).toBe(200);
    // On PostgreSQL the reference app's event bus (LISTEN/NOTIFY) is a check of its own.
    const checks = backend === 'postgresql' ? { database: { status: 'ok' }, events: { status: 'ok' } } : { database: { status: 'ok' } };
    expect(await res.json()).toEqual({ status: 'ok', checks });
  });

  it('another method on a probe answers 405 problem+json with Allow', async () => {
    const res = await ref.get('/ready', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/GET/);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it('the probes answer as the router matches them: a trailing slash and any case, and only the probe paths', async () => {
    for (const path of ['/healthz/', '/HEALTHZ', '/Ready/']) expect((await ref.get(path)).status, path).toBe(200);
    expect((await ref.get('/healthz/x')).status).toBe(404);
    const head = await ref.get('/healthz', { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('an unknown path answers 404 problem+json and every response carries a request id', async () => {
    const res = await ref.get('/no/such/thing', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect(await res.json()).toMatchObject({ status: 404, code: 'not_found' });
    const generated = await ref.get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the seed data is in place', async () => {
    const store = ref.app.store;
    expect((await store.find('auth_user', { orderBy: [{ column: 'id', direction: 'asc' }] })).map((u) => [u.username, u.is_staff, u.is_superuser])).toEqual([
      ['alice', false, false],
      ['bob', false, false],
      ['staff', true, false],
      ['root', true, true],
    ]);
    const alice = (await store.find('auth_user', { where: { column: 'username', op: 'eq', value: 'alice' } }))[0];
    expect(String(alice?.password_hash)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await ref.app.hasher.verify(String(alice?.password_hash), 'alice-password-1')).toBe(true);
    expect(alice?.email_verified_at).toBeInstanceOf(Date);
    expect((await store.find('author')).map((a) => a.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect((await store.find('post')).map((p) => p.author_id)).toEqual([1, 1, 1, 2]);
    expect(await store.count('comment', { column: 'post_id', op: 'eq', value: 1 })).toBeGreaterThan(0);
    expect(await store.count('reply')).toBe(1);
    expect((await store.find('tag')).map((t) => t.id)).toEqual(['orm', 'rest']);
    expect(await store.count('milestone', { column: 'project_id', op: 'eq', value: 1 })).toBe(2);
    expect(await store.count('milestone', { column: 'project_id', op: 'eq', value: 2 })).toBe(2);
    expect(await store.count('announcement')).toBe(1);
    expect(await store.count('staff_report')).toBe(1);
    expect((await store.find('member'))[0]).toMatchObject({ username: 'mallory' });
    expect(await store.count('secret_config')).toBe(1);
    const created = await store.insert('author', { name: 'New' });
    expect(created.id).toBe(3);
  });

  it('draining answers 503 on readiness while liveness stays 200', async () => {
    ref.app.drain();
    const ready = await ref.get('/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    expect((await ref.get('/healthz')).status).toBe(200);
  });
}

describe('health probes on the reference app: SQLite', () => probes('sqlite'));
describe.skipIf(!pg)('health probes on the reference app: PostgreSQL', () => probes('postgresql'));

describe('readiness checks, timeouts and the migration gate', () => {
  it('a failing custom check gives 503 with a generic reason and no error text', async () => {
    const app = createApp({ database: 'sqlite::memory:', autoMigrate: true, logRequests: false })
      .use(health({ timeoutMs: 100 })
        .check('cache', async () => {
          throw new Error('redis at 10.0.0.7:6379 refused AUTH secret');
        })
        .check('slow', () => new Promise(() => undefined)));
    const { url } = await app.listen(0);
    try {
      const res = await fetch(`${url}/ready`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        status: 'fail',
        checks: { database: { status: 'ok' }, cache: { status: 'fail', reason: 'unavailable' }, slow: { status: 'fail', reason: 'timed out' } },
      });
      expect(text).not.toMatch(/10\.0\.0\.7|AUTH|secret/);
    } finally {
      await app.close();
    }
  });

  it('the opt-in migration gate reports pending migrations until they are applied; the database check names the tables they would create', async () => {
    const app = createApp({ database: 'sqlite::memory:', logRequests: false }).use(health({ migrationGate: true }));
    const { url } = await app.listen(0);
    try {
      const before = await fetch(`${url}/ready`);
      expect(before.status).toBe(503);
      const body = (await before.json()) as { status: string; checks: Record<string, { status: string; reason?: string }> };
      expect(body.status).toBe('fail');
      expect(body.checks.migrations).toEqual({ status: 'fail', reason: '8 migrations pending' });
      expect(body.checks.database?.reason).toMatch(/^schema drift: table auth_user is missing; .* \(run portico makemigrations, then portico migrate\)$/);
      expect(await app.migrate()).toEqual(['portico_0001_builtin_tables', 'portico_0002_idempotency_keys', 'portico_0003_event_payloads', 'portico_0004_task_queue', 'portico_0005_task_progress', 'portico_0006_password_reset', 'portico_0007_social_account', 'portico_0008_cache']);
      const after = await fetch(`${url}/ready`);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ status: 'ok', checks: { database: { status: 'ok' }, migrations: { status: 'ok' } } });
    } finally {
      await app.close();
    }
  });

  it('without the gate, a pending migration that leaves the models\' tables as they are does not fail readiness', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'portico-gate-')), 'gate.db');
    const first = createApp({ database: `sqlite:${file}`, logRequests: false, autoMigrate: true });
    await first.start();
    await first.close();
    const app = createApp({ database: `sqlite:${file}`, logRequests: false, migrations: [{ name: 'app_0001_index', sql: { sqlite: ['create index idx_session on session (expires_at)'] } }] }).use(health());
    const { url } = await app.listen(0);
    try {
      expect(await app.db.pending()).toEqual(['app_0001_index']);
      expect((await fetch(`${url}/ready`)).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('waits for a request in flight whose client has gone before closing the database', async () => {
    let finished: unknown;
    const app = createApp({ database: 'sqlite::memory:', autoMigrate: true, logRequests: false }).use({
      name: 'slow',
      install: (ctx) =>
        ctx.route({
          method: 'GET',
          path: '/slow',
          handler: async () => {
            await new Promise((resolve) => setTimeout(resolve, 300));
            finished = await ctx.store.count('auth_user').catch((e: unknown) => e);
            return { status: 200, body: { ok: true } };
          },
        }),
    });
    const { url } = await app.listen(0);
    const aborter = new AbortController();
    const request = fetch(`${url}/slow`, { signal: aborter.signal }).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 50));
    aborter.abort();
    expect(await request).toBe('aborted');
    await app.close();
    expect(finished).toBe(0);
  });
});
