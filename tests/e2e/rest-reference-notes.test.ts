import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReferenceApp } from '../../examples/reference/app.js';
import { REFERENCE_MIGRATIONS, REFERENCE_MODELS } from '../../examples/reference/models.js';
import { createApp } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * REFERENCE-APP.md "Row policy and versions": the reference app's `note` (owner set to the caller
 * on create, ownedBy('owner_id')) over REST: a caller reaches only their own notes.
 */
const pgUp = await postgresAvailable();

type Who = 'alice' | 'bob' | null;

function noteSuite(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  const tokens: Record<'alice' | 'bob', string> = { alice: '', bob: '' };
  const ids: Record<'alice' | 'bob', number> = { alice: 0, bob: 0 };
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    for (const who of ['alice', 'bob'] as const) {
      const res = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: who, password: `${who}-password-1` }) });
      tokens[who] = ((await res.json()) as { token: string }).token;
      const [user] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: who } });
      ids[who] = Number(user?.id);
    }
  });
  afterAll(async () => ref?.close());

  const call = async (who: Who, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${ref.url}${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), body: (text ? JSON.parse(text) : null) as { id?: number; owner_id?: number; body?: string; code?: string; count?: number; results?: { id: number }[] } | null };
  };

  it("a note is its creator's, even when the body names another owner", async () => {
    const created = await call('alice', 'POST', '/api/note/', { body: 'for alice only', owner_id: ids.bob });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ body: 'for alice only', owner_id: ids.alice });
    expect(created.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect((await ref.app.store.getById('note', created.body?.id ?? 0))?.owner_id).toBe(ids.alice);
    const plain = await call('bob', 'POST', '/api/note/', { body: "bob's" });
    expect(plain.body?.owner_id).toBe(ids.bob);
  });

  it("another user's note is a 404 for GET, PUT, PATCH and DELETE, and out of their list", async () => {
    const mine = await call('alice', 'POST', '/api/note/', { body: 'private' });
    const id = mine.body?.id as number;
    expect((await call('alice', 'GET', `/api/note/${id}`)).status).toBe(200);
    expect((await call('bob', 'GET', `/api/note/${id}`)).status).toBe(404);
    expect((await call('bob', 'PATCH', `/api/note/${id}`, { body: 'taken' })).status).toBe(404);
    expect((await call('bob', 'PUT', `/api/note/${id}`, { body: 'taken' })).status).toBe(404);
    // Not even with a version that matches: the precondition is never reached.
    expect((await fetch(`${ref.url}/api/note/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.bob}`, 'if-match': mine.etag as string }, body: '{"body":"taken"}' })).status).toBe(404);
    expect((await call('bob', 'DELETE', `/api/note/${id}`)).status).toBe(404);
    const theirs = await call('bob', 'GET', '/api/note/');
    expect(theirs.status).toBe(200);
    expect(theirs.body?.results?.map((n) => n.id)).not.toContain(id);
    expect(theirs.body?.results?.every((n) => (n as { owner_id?: number }).owner_id === ids.bob)).toBe(true);
    expect((await call('bob', 'GET', `/api/note/?id=${id}`)).body?.count).toBe(0);
    expect((await call('alice', 'GET', '/api/note/')).body?.results?.map((n) => n.id)).toContain(id);
    expect(await ref.app.store.getById('note', id)).toMatchObject({ body: 'private', owner_id: ids.alice });
    // The owner is server-set: a body naming another one cannot hand the note over.
    await call('alice', 'PATCH', `/api/note/${id}`, { owner_id: ids.bob });
    expect((await ref.app.store.getById('note', id))?.owner_id).toBe(ids.alice);
    expect((await call('alice', 'DELETE', `/api/note/${id}`)).status).toBe(204);
  });

  it('anonymous callers are refused (IsAuthenticated)', async () => {
    expect((await call(null, 'GET', '/api/note/')).status).toBe(401);
    expect((await call(null, 'POST', '/api/note/', { body: 'x' })).status).toBe(401);
  });
}

describe('the reference note: SQLite', () => noteSuite('sqlite'));
describe.skipIf(!pgUp)('the reference note: PostgreSQL', () => noteSuite('postgresql'));

describe('the reference note on a database migrated before it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portico-note-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gains its table from a second migration, and the app starts without drift in production', async () => {
    const database = `sqlite:${join(dir, 'ref.db')}`;
    const [initial] = REFERENCE_MIGRATIONS;
    expect(initial?.name).toBe('reference_0001_initial');
    expect(initial?.createTables).not.toContain('note');
    // The app as it was before `note` (and `attachment`): its models and its one migration.
    const before = createApp({ database, models: REFERENCE_MODELS.filter((m) => m.table !== 'note' && m.table !== 'attachment'), migrations: [initial as NonNullable<typeof initial>], autoMigrate: true, logRequests: false });
    await before.start();
    await before.close();
    // Production refuses to start on drift: starting at all is the proof.
    const app = buildReferenceApp({ database, logRequests: false, env: { NODE_ENV: 'production', THROTTLE: 'off' } });
    await app.start();
    try {
      expect(await app.store.count('note')).toBe(0);
      const user = (await app.store.find('auth_user', { limit: 1 }))[0];
      expect((await app.store.insert('note', { owner_id: user?.id ?? null, body: 'migrated' })).body).toBe('migrated');
    } finally {
      await app.close();
    }
  });
});
