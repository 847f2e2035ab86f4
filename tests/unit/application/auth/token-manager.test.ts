import { describe, expect, it } from 'vitest';
import { TokenManager, type TokenCacheOptions } from '../../../../src/application/auth/token-manager.js';
import type { RecordStore } from '../../../../src/ports/record-store.js';
import { SeededRandom } from '../../../../src/testing.js';
import { databasePerTest, type Backend } from '../../../support/open-test-database.js';
import { postgresAvailable } from '../../../support/postgres.js';

const pg = await postgresAvailable();

const openDatabase = databasePerTest();

/** A store that counts the token look-ups (`findReferenced`) made through it. */
function counting(store: RecordStore): { store: RecordStore; lookups: () => number } {
  let lookups = 0;
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key === 'findReferenced' && typeof value === 'function') {
        return (...args: unknown[]) => {
          lookups++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: counted, lookups: () => lookups };
}

/**
 * Two processes' token managers over one database (neither hears the other's writes: no event
 * bus), and a user holding a token issued by the first.
 */
async function setup(cache: TokenCacheOptions = {}, backend: Backend = 'memory') {
  const t = await openDatabase(backend);
  const user = await t.db.store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'x' });
  const a = counting(t.db.store);
  const b = counting(t.db.store);
  const here = new TokenManager(a.store, new SeededRandom(1), t.clock, cache);
  const there = new TokenManager(b.store, new SeededRandom(2), t.clock, cache);
  const token = await here.issue(user.id ?? null);
  return { db: t, user, here, there, token, lookupsHere: a.lookups, lookupsThere: b.lookups };
}

describe('TokenManager: resolving bearer tokens, and its cache', () => {
  it('resolves a live token to its user with one look-up, then from the cache for the window', async () => {
    const { user, there, token, lookupsThere, db } = await setup();
    expect((await there.resolve(token))?.id).toBe(user.id);
    expect((await there.resolve(token))?.id).toBe(user.id);
    db.clock.advance(4_900);
    expect((await there.resolve(token))?.id).toBe(user.id);
    expect(lookupsThere()).toBe(1);
    db.clock.advance(200); // past the 5 s window: asked again
    expect((await there.resolve(token))?.id).toBe(user.id);
    expect(lookupsThere()).toBe(2);
  });

  it('refuses unknown and implausible tokens without caching them', async () => {
    const { there, token, lookupsThere } = await setup();
    expect(await there.resolve(`${token.slice(0, -2)}xx`)).toBeNull();
    expect(await there.resolve(`${token.slice(0, -2)}xx`)).toBeNull();
    expect(lookupsThere()).toBe(2);
    expect(await there.resolve('short')).toBeNull();
    expect(await there.resolve('x'.repeat(101))).toBeNull();
    expect(lookupsThere()).toBe(2);
  });

  it('a revocation takes effect at once in the revoking process, and in another within the window', async () => {
    const { here, there, token, db } = await setup();
    expect(await here.resolve(token)).not.toBeNull();
    expect(await there.resolve(token)).not.toBeNull();
    expect(await here.revoke(token)).toBe(true);
    expect(await here.resolve(token)).toBeNull();
    expect(await there.resolve(token)).not.toBeNull(); // the other process trusts its cache …
    db.clock.advance(5_001);
    expect(await there.resolve(token)).toBeNull(); // … for at most the window
    expect(await here.revoke(token)).toBe(false);
  });

  it('with the cache off (seconds: 0) every process sees a revocation at once', async () => {
    const { here, there, token, lookupsThere } = await setup({ seconds: 0 });
    expect(await there.resolve(token)).not.toBeNull();
    await here.revoke(token);
    expect(await there.resolve(token)).toBeNull();
    expect(lookupsThere()).toBe(2);
  });

  it('a deactivated user is refused once the window has passed', async () => {
    const { user, there, token, db } = await setup();
    expect(await there.resolve(token)).not.toBeNull();
    await db.db.store.update('auth_user', user.id ?? null, { is_active: false });
    db.clock.advance(5_001);
    expect(await there.resolve(token)).toBeNull();
  });

  it('does not cache a look-up that read the token before a revocation and answered after it', async () => {
    const { db, user, token } = await setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let held = true;
    const slow = new Proxy(db.db.store, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (key === 'findReferenced' && typeof value === 'function') {
          return async (...args: unknown[]) => {
            const rows: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            if (held) await gate; // the row was read; the answer arrives late
            return rows;
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const tokens = new TokenManager(slow, new SeededRandom(4), db.clock);
    const racing = tokens.resolve(token);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await tokens.revoke(token)).toBe(true);
    held = false;
    release();
    expect((await racing)?.id).toBe(user.id); // it read the token while it was live …
    expect(await tokens.resolve(token)).toBeNull(); // … but its answer was not kept
  });

  it('keeps at most `size` tokens, dropping the oldest first', async () => {
    const { user, here, token, lookupsHere } = await setup({ size: 2 });
    const second = await here.issue(user.id ?? null);
    const third = await here.issue(user.id ?? null);
    for (const tk of [token, second, third]) expect(await here.resolve(tk)).not.toBeNull();
    expect(lookupsHere()).toBe(3);
    await here.resolve(third);
    await here.resolve(second);
    expect(lookupsHere()).toBe(3); // the two newest are cached
    await here.resolve(token);
    expect(lookupsHere()).toBe(4); // the oldest was dropped
  });
});

/**
 * With the app's event bus: what the store reports after a commit (in this process, or relayed
 * from another by a cross-process bus, which delivers to the same `onCommitted` handlers).
 */
function withTheBus(backend: Backend): void {
  async function setupBus() {
    const t = await openDatabase(backend);
    const user = await t.db.store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'x' });
    const other = await t.db.store.insert('auth_user', { username: 'bob', email: 'b@x.io', password_hash: 'x' });
    const counted = counting(t.db.store);
    const tokens = new TokenManager(counted.store, new SeededRandom(3), t.clock, {}, t.events);
    return { db: t, user, other, tokens, lookups: counted.lookups };
  }

  it('forgets a token once its row is deleted, by whichever path', async () => {
    const { db, user, tokens } = await setupBus();
    const token = await tokens.issue(user.id ?? null);
    expect(await tokens.resolve(token)).not.toBeNull();
    const [row] = await db.db.store.find('auth_token', { where: { column: 'user_id', op: 'eq', value: user.id ?? null } });
    expect(await db.db.store.delete('auth_token', row?.id ?? null)).toBe(true);
    expect(await tokens.resolve(token)).toBeNull();
  });

  it('forgets a user\'s tokens once the user is saved (deactivated), and only theirs', async () => {
    const { db, user, other, tokens, lookups } = await setupBus();
    const mine = [await tokens.issue(user.id ?? null), await tokens.issue(user.id ?? null)];
    const theirs = await tokens.issue(other.id ?? null);
    for (const tk of [...mine, theirs]) expect(await tokens.resolve(tk)).not.toBeNull();
    expect(lookups()).toBe(3);
    await db.db.store.update('auth_user', user.id ?? null, { is_active: false });
    for (const tk of mine) expect(await tokens.resolve(tk)).toBeNull();
    expect(await tokens.resolve(theirs)).not.toBeNull();
    expect(lookups()).toBe(5); // bob's token still came from the cache
  });

  it('serves the user as saved, not as cached, after a change', async () => {
    const { db, user, tokens } = await setupBus();
    const token = await tokens.issue(user.id ?? null);
    expect((await tokens.resolve(token))?.is_staff).toBe(false);
    await db.db.store.update('auth_user', user.id ?? null, { is_staff: true });
    expect((await tokens.resolve(token))?.is_staff).toBe(true);
  });
}

describe('TokenManager with the event bus (memory)', () => withTheBus('memory'));
describe('TokenManager with the event bus (SQLite)', () => withTheBus('sqlite'));
describe.skipIf(!pg)('TokenManager with the event bus (PostgreSQL)', () => withTheBus('postgresql'));
