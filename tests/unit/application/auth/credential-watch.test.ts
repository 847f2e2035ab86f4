import { describe, expect, it } from 'vitest';
import { CredentialWatch } from '../../../../src/application/auth/credential-watch.js';
import { hashToken } from '../../../../src/application/auth/secrets.js';
import { SessionManager } from '../../../../src/application/auth/session-manager.js';
import { TokenManager } from '../../../../src/application/auth/token-manager.js';
import { SeededRandom } from '../../../../src/testing.js';
import { databasePerTest, type Backend } from '../../../support/open-test-database.js';
import { postgresAvailable } from '../../../support/postgres.js';

const pg = await postgresAvailable();

const openDatabase = databasePerTest();

async function setup(backend: Backend) {
  const t = await openDatabase(backend);
  const alice = await t.db.store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'x' });
  const bob = await t.db.store.insert('auth_user', { username: 'bob', email: 'b@x.io', password_hash: 'x' });
  const watch = new CredentialWatch(t.events);
  const tokens = new TokenManager(t.db.store, new SeededRandom(5), t.clock, {}, t.events);
  const sessions = new SessionManager(t.db.store, t.clock, new SeededRandom(6));
  /** Watches `keys`, recording each end. */
  const watched = (keys: string[]) => {
    const ended: number[] = [];
    const stop = watch.watch(keys, () => ended.push(Date.now()));
    return { ended, stop };
  };
  return { db: t, alice, bob, watch, tokens, sessions, watched };
}

function credentialWatch(backend: Backend): void {
  it('a revoked bearer token ends what it opened, once, and nothing else', async () => {
    const { alice, tokens, watched, watch } = await setup(backend);
    const first = await tokens.issue(alice.id ?? null);
    const second = await tokens.issue(alice.id ?? null);
    const a = watched([`user:${String(alice.id)}`, `bearer:${hashToken(first)}`]);
    const b = watched([`user:${String(alice.id)}`, `bearer:${hashToken(second)}`]);
    expect(watch.size).toBe(2);
    expect(await tokens.revoke(first)).toBe(true);
    expect(a.ended).toHaveLength(1);
    expect(b.ended).toHaveLength(0);
    expect(watch.size).toBe(1);
    await tokens.revoke(first);
    expect(a.ended).toHaveLength(1);
  });

  it('a destroyed session ends what it opened', async () => {
    const { alice, sessions, watched } = await setup(backend);
    const { token, record } = await sessions.create(alice.id ?? null);
    const s = watched([`user:${String(alice.id)}`, `session:${hashToken(token)}`]);
    await sessions.save(record.id, { flash: [] }); // a save of the session is not an end
    expect(s.ended).toHaveLength(0);
    await sessions.destroy(record.id);
    expect(s.ended).toHaveLength(1);
  });

  it('a deactivated or deleted user ends every stream of theirs; another save (a login stamp) does not', async () => {
    const { db, alice, bob, watched } = await setup(backend);
    const a = watched([`user:${String(alice.id)}`, 'bearer:a']);
    const b = watched([`user:${String(bob.id)}`, 'bearer:b']);
    await db.db.store.update('auth_user', alice.id ?? null, { last_login: db.clock.now() });
    expect(a.ended).toHaveLength(0);
    await db.db.store.update('auth_user', alice.id ?? null, { is_active: false });
    expect(a.ended).toHaveLength(1);
    expect(b.ended).toHaveLength(0);
    await db.db.store.delete('auth_user', bob.id ?? null);
    expect(b.ended).toHaveLength(1);
  });

  it('a stopped watch is never called', async () => {
    const { alice, tokens, watched, watch } = await setup(backend);
    const token = await tokens.issue(alice.id ?? null);
    const w = watched([`bearer:${hashToken(token)}`]);
    w.stop();
    w.stop();
    expect(watch.size).toBe(0);
    await tokens.revoke(token);
    expect(w.ended).toHaveLength(0);
  });
}

describe('CredentialWatch (memory)', () => credentialWatch('memory'));
describe('CredentialWatch (SQLite)', () => credentialWatch('sqlite'));
describe.skipIf(!pg)('CredentialWatch (PostgreSQL)', () => credentialWatch('postgresql'));
