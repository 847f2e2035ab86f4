import { describe, expect, it } from 'vitest';
import { SESSION_LIFETIME_MS, SessionManager } from '../../../../src/application/auth/session-manager.js';
import { SeededRandom } from '../../../../src/testing.js';
import { databasePerTest, type Backend } from '../../../support/open-test-database.js';
import { postgresAvailable } from '../../../support/postgres.js';

const pg = await postgresAvailable();

const openDatabase = databasePerTest();

async function setup(backend: Backend) {
  const t = await openDatabase(backend);
  const store = t.db.store;
  const alice = await store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'x' });
  const bob = await store.insert('auth_user', { username: 'bob', email: 'b@x.io', password_hash: 'x' });
  return { db: t, store, alice, bob, sessions: new SessionManager(store, t.clock, new SeededRandom(7)) };
}

/** SessionManager.userOf: the session's active user in one statement, with load + user's answers. */
function sessionUser(backend: Backend): void {
  it('answers the active user of a live session, the same user load + user answer', async () => {
    const { alice, bob, sessions } = await setup(backend);
    const a = await sessions.create(alice.id ?? null);
    const b = await sessions.create(bob.id ?? null);
    expect((await sessions.userOf(a.token))?.username).toBe('alice');
    expect((await sessions.userOf(b.token))?.username).toBe('bob');
    const record = await sessions.load(a.token);
    expect((await sessions.user(record!))?.id).toEqual((await sessions.userOf(a.token))?.id);
  });

  it('answers null for an unknown or implausible token, a session without a user, a destroyed session', async () => {
    const { alice, sessions } = await setup(backend);
    const anonymous = await sessions.create(null, { flash: [{ level: 'info', body: 'hi' }] });
    expect(await sessions.userOf(anonymous.token)).toBeNull();
    expect(await sessions.userOf('x'.repeat(43))).toBeNull();
    expect(await sessions.userOf('short')).toBeNull();
    const gone = await sessions.create(alice.id ?? null);
    await sessions.destroy(gone.record.id);
    expect(await sessions.userOf(gone.token)).toBeNull();
  });

  it('answers null once the session has expired (to the millisecond), as load does', async () => {
    const { db, alice, sessions } = await setup(backend);
    const s = await sessions.create(alice.id ?? null);
    db.clock.advance(SESSION_LIFETIME_MS - 1);
    expect((await sessions.userOf(s.token))?.username).toBe('alice');
    db.clock.advance(1);
    expect(await sessions.userOf(s.token)).toBeNull();
    expect(await sessions.load(s.token)).toBeNull();
  });

  it('answers null for an inactive user (the session still loads)', async () => {
    const { store, alice, sessions } = await setup(backend);
    const a = await sessions.create(alice.id ?? null);
    await store.update('auth_user', alice.id ?? null, { is_active: false });
    expect(await sessions.userOf(a.token)).toBeNull();
    expect(await sessions.load(a.token)).not.toBeNull();
  });

  it('purgeExpired removes the expired sessions in batches, with a post_delete each, and nothing live', async () => {
    const { db, alice, bob, sessions } = await setup(backend);
    const old = [await sessions.create(alice.id ?? null), await sessions.create(null), await sessions.create(bob.id ?? null)];
    db.clock.advance(60_000);
    const live = await sessions.create(alice.id ?? null);
    db.clock.advance(SESSION_LIFETIME_MS - 30_000); // the first three expired 30 s ago, the last lives 30 s more
    const deleted: unknown[] = [];
    db.events.on('post_delete', 'session', (e) => void deleted.push(e.row.id));
    expect(await sessions.purgeExpired(2)).toBe(3);
    expect(deleted.sort()).toEqual(old.map((s) => s.record.id).sort());
    expect(await sessions.load(live.token)).not.toBeNull();
    expect(await db.db.store.count('session')).toBe(1);
    expect(await sessions.purgeExpired()).toBe(0);
  });
}

describe('SessionManager.userOf on memory', () => sessionUser('memory'));
describe('SessionManager.userOf on SQLite', () => sessionUser('sqlite'));
describe.skipIf(!pg)('SessionManager.userOf on PostgreSQL', () => sessionUser('postgresql'));
