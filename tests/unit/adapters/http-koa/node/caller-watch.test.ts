import { describe, expect, it } from 'vitest';
import { SessionManager } from '../../../../../src/application/auth/session-manager.js';
import { TokenManager } from '../../../../../src/application/auth/token-manager.js';
import { callerWatch } from '../../../../../src/adapters/http-koa/node/caller-watch.js';
import type { Identity } from '../../../../../src/domain/auth/identity.js';
import type { Row } from '../../../../../src/domain/model/types.js';
import { SeededRandom } from '../../../../../src/testing.js';
import { databasePerTest, type Backend } from '../../../../support/open-test-database.js';
import { postgresAvailable } from '../../../../support/postgres.js';

const pg = await postgresAvailable();

const openDatabase = databasePerTest();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(backend: Backend) {
  const t = await openDatabase(backend);
  const db = t;
  const alice = await db.db.store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'x' });
  const tokens = new TokenManager(db.db.store, new SeededRandom(5), db.clock, {}, db.events);
  const sessions = new SessionManager(db.db.store, db.clock, new SeededRandom(6));
  const warnings: unknown[] = [];
  const logger = { debug: () => undefined, info: () => undefined, warn: (obj: object) => void warnings.push(obj), error: () => undefined };
  const watchCaller = callerWatch({ events: () => db.events, sessions: () => sessions, tokens: () => tokens, clock: db.clock, logger });
  const identity = (user: Row, via: Identity['via']): Identity => ({ isAuthenticated: true, id: user.id ?? null, username: String(user.username), isStaff: false, isSuperuser: false, via });
  /** Watches a stream opened by `caller` as `identity`, recording each end. */
  const watched = (caller: { authorization?: string; cookie?: string }, who: Identity) => {
    const ended: number[] = [];
    const stop = watchCaller({ authorization: caller.authorization, cookie: caller.cookie }, who, () => ended.push(Date.now()));
    return { ended, stop };
  };
  return { db, alice, tokens, sessions, watched, identity, warnings };
}

function watchesTheCaller(backend: Backend): void {
  it('a token revoked after the stream was identified and before its watch ends the stream (no signal reaches the watch)', async () => {
    const { alice, tokens, watched, identity } = await setup(backend);
    const token = await tokens.issue(alice.id ?? null);
    expect(await tokens.resolve(token)).not.toBeNull(); // identified (and cached)
    await tokens.revoke(token); // the signal is gone before anyone watches
    const s = watched({ authorization: `Bearer ${token}` }, identity(alice, 'bearer'));
    await sleep(50);
    expect(s.ended).toHaveLength(1);
  });

  it('a user deactivated before the watch ends a bearer stream; a token that holds keeps it open until its logout', async () => {
    const { db, alice, tokens, watched, identity } = await setup(backend);
    const token = await tokens.issue(alice.id ?? null);
    const kept = watched({ authorization: `Bearer ${token}` }, identity(alice, 'bearer'));
    await sleep(50);
    expect(kept.ended).toHaveLength(0);
    await tokens.revoke(token);
    expect(kept.ended).toHaveLength(1);

    const other = await tokens.issue(alice.id ?? null);
    await tokens.resolve(other);
    await db.db.store.update('auth_user', alice.id ?? null, { is_active: false });
    const s = watched({ authorization: `Bearer ${other}` }, identity(alice, 'bearer'));
    await sleep(50);
    expect(s.ended).toHaveLength(1);
  });

  it('a session destroyed before the watch ends the stream; one that holds does not', async () => {
    const { alice, sessions, watched, identity } = await setup(backend);
    const gone = await sessions.create(alice.id ?? null);
    await sessions.destroy(gone.record.id);
    const held = await sessions.create(alice.id ?? null);
    const a = watched({ cookie: `portico_session=${gone.token}` }, identity(alice, 'session'));
    const b = watched({ cookie: `other=1; portico_session=${held.token}` }, identity(alice, 'session'));
    await sleep(50);
    expect(a.ended).toHaveLength(1);
    expect(b.ended).toHaveLength(0);
    b.stop();
  });

  it('a session that expires while the stream is open ends it at its expiry, once; a stopped watch is not ended', async () => {
    const { db, alice, sessions, watched, identity } = await setup(backend);
    const soon = await sessions.create(alice.id ?? null);
    await db.db.store.update('session', soon.record.id, { expires_at: new Date(db.clock.now().getTime() + 250) });
    const s = watched({ cookie: `portico_session=${soon.token}` }, identity(alice, 'session'));
    const stopped = watched({ cookie: `portico_session=${soon.token}` }, identity(alice, 'session'));
    stopped.stop();
    await sleep(100);
    expect(s.ended).toHaveLength(0);
    await sleep(400);
    expect(s.ended).toHaveLength(1);
    expect(stopped.ended).toHaveLength(0);
  });

  it('an expiry beyond what one timer can wait (about 24.8 days) does not end the stream early', async () => {
    const { db, alice, sessions, watched, identity } = await setup(backend);
    const far = await sessions.create(alice.id ?? null);
    await db.db.store.update('session', far.record.id, { expires_at: new Date(db.clock.now().getTime() + 40 * 24 * 3600 * 1000) });
    const warnings: string[] = [];
    const warned = (w: Error) => void warnings.push(w.name);
    process.on('warning', warned);
    try {
      const s = watched({ cookie: `portico_session=${far.token}` }, identity(alice, 'session'));
      await sleep(150);
      expect(s.ended).toHaveLength(0);
      s.stop();
      // Node fires a timer asked to wait longer at once (with this warning), then again and again.
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', warned);
    }
  });

  it('a session of another user than the identity ends the stream; an anonymous caller is not watched', async () => {
    const { db, alice, sessions, watched, identity } = await setup(backend);
    const bob = await db.db.store.insert('auth_user', { username: 'bob', email: 'b@x.io', password_hash: 'x' });
    const bobs = await sessions.create(bob.id ?? null);
    const s = watched({ cookie: `portico_session=${bobs.token}` }, identity(alice, 'session'));
    const anonymous = watched({}, { isAuthenticated: false, id: null, username: null, isStaff: false, isSuperuser: false, via: 'anonymous' });
    await sleep(50);
    expect(s.ended).toHaveLength(1);
    expect(anonymous.ended).toHaveLength(0);
  });
}

describe('callerWatch (memory)', () => watchesTheCaller('memory'));
describe('callerWatch (SQLite)', () => watchesTheCaller('sqlite'));
describe.skipIf(!pg)('callerWatch (PostgreSQL)', () => watchesTheCaller('postgresql'));

describe('callerWatch when the credential cannot be read again', () => {
  it('logs a warning and leaves the stream to the revocation signals', async () => {
    const t = await openDatabase('memory');
    const db = t;
    const warnings: unknown[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (obj: object) => void warnings.push(obj), error: () => undefined };
    const failing = { resolve: () => Promise.reject(new Error('database down')) } as unknown as TokenManager;
    const watchCaller = callerWatch({ events: () => db.events, sessions: () => undefined, tokens: () => failing, clock: db.clock, logger });
    const ended: number[] = [];
    const who: Identity = { isAuthenticated: true, id: 1, username: 'alice', isStaff: false, isSuperuser: false, via: 'bearer' };
    const stop = watchCaller({ authorization: 'Bearer abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', cookie: undefined }, who, () => ended.push(1));
    await sleep(20);
    expect(ended).toHaveLength(0);
    expect(warnings).toHaveLength(1);
    stop();
  });
});
