import { describe, expect, it } from 'vitest';
import { LogIn } from '../../../../src/application/auth/log-in.js';
import { ThrottleGate } from '../../../../src/application/auth/throttle-gate.js';
import { MemoryThrottleStore } from '../../../../src/adapters/throttle/memory-throttle-store.js';
import type { Row } from '../../../../src/domain/model/types.js';
import type { PasswordHasher } from '../../../../src/ports/password-hasher.js';
import type { Write } from '../../../../src/ports/record-store.js';
import { ManualClock, openTestDatabase } from '../../../support/open-test-database.js';

/** A hasher that records every call: `hash:<password>` stands for a hash of that password. */
class SpyHasher implements PasswordHasher {
  readonly verified: string[] = [];
  async hash(password: string): Promise<string> {
    return `hash:${password}`;
  }
  async verify(hash: string, password: string): Promise<boolean> {
    this.verified.push(hash);
    return hash === `hash:${password}`;
  }
}

async function setup(requireVerifiedEmail = false) {
  const t = await openTestDatabase('memory');
  const hasher = new SpyHasher();
  const clock = new ManualClock();
  await t.db.store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'hash:secret-pass' });
  await t.db.store.insert('auth_user', { username: 'eve', email: 'e@x.io', password_hash: 'hash:secret-pass', is_active: false });
  const logIn = new LogIn({
    store: t.db.store,
    hasher,
    throttle: new ThrottleGate(new MemoryThrottleStore(clock)),
    clock,
    requireVerifiedEmail,
    dummyHash: async () => 'hash:dummy-random',
  });
  return { logIn, hasher, t };
}

describe('LogIn', () => {
  it('runs one dummy verify for an unknown user, so timing does not reveal existence', async () => {
    const { logIn, hasher } = await setup();
    await expect(logIn.execute({ username: 'nobody', password: 'secret-pass', ip: '1.2.3.4' })).rejects.toMatchObject({ code: 'invalid_credentials', detail: 'invalid username or password' });
    expect(hasher.verified).toEqual(['hash:dummy-random']);
  });

  it('runs exactly one verify for a known user with a wrong password, and answers the same', async () => {
    const { logIn, hasher } = await setup();
    await expect(logIn.execute({ username: 'alice', password: 'wrong', ip: '1.2.3.4' })).rejects.toMatchObject({ code: 'invalid_credentials', detail: 'invalid username or password' });
    expect(hasher.verified).toEqual(['hash:secret-pass']);
  });

  it('refuses an inactive account like a wrong password', async () => {
    const { logIn } = await setup();
    await expect(logIn.execute({ username: 'eve', password: 'secret-pass', ip: '1.2.3.4' })).rejects.toMatchObject({ code: 'invalid_credentials', detail: 'invalid username or password' });
  });

  it('succeeds, stamps last_login, and says unverified only after a correct password when enforcement is on', async () => {
    const plain = await setup();
    const user = await plain.logIn.execute({ username: 'ALICE', password: 'secret-pass', ip: '1.2.3.4' });
    expect(user.last_login).toBeInstanceOf(Date);
    const strict = await setup(true);
    await expect(strict.logIn.execute({ username: 'alice', password: 'secret-pass', ip: '1.2.3.4' })).rejects.toMatchObject({
      code: 'email_unverified',
      detail: 'verify your email address before logging in',
    });
    await expect(strict.logIn.execute({ username: 'alice', password: 'nope', ip: '1.2.3.4' })).rejects.toMatchObject({ code: 'invalid_credentials', detail: 'invalid username or password' });
  });

  it('makes the caller\'s grant with the last_login stamp, only after the credentials hold, and both or neither', async () => {
    const { logIn, t } = await setup(true);
    const granted: unknown[] = [];
    const grant = (user: Row): Write => {
      granted.push(user.username);
      return { insert: 'auth_token', row: { token_hash: 'a'.repeat(64), user_id: user.id ?? null } };
    };
    await expect(logIn.execute({ username: 'alice', password: 'wrong', ip: '1.2.3.4', grant })).rejects.toMatchObject({ code: 'invalid_credentials' });
    await expect(logIn.execute({ username: 'alice', password: 'secret-pass', ip: '1.2.3.4', grant })).rejects.toMatchObject({ code: 'email_unverified' });
    expect(granted).toEqual([]);
    await t.db.store.updateWhere('auth_user', { column: 'username', op: 'eq', value: 'alice' }, { email_verified_at: new Date() });
    const user = await logIn.execute({ username: 'alice', password: 'secret-pass', ip: '1.2.3.4', grant });
    expect(granted).toEqual(['alice']);
    expect(user.last_login).toBeInstanceOf(Date);
    expect(await t.db.store.find('auth_token')).toMatchObject([{ user_id: user.id }]);
    // The same token hash again: the grant is refused, and the stamp goes with it.
    await t.db.store.update('auth_user', user.id ?? null, { last_login: null });
    await expect(logIn.execute({ username: 'alice', password: 'secret-pass', ip: '1.2.3.5', grant })).rejects.toMatchObject({ kind: 'unique' });
    expect((await t.db.store.getById('auth_user', user.id ?? null))?.last_login).toBeNull();
    expect(await t.db.store.count('auth_token')).toBe(1);
  });

  it('throttles the sixth attempt for one IP and username', async () => {
    const { logIn } = await setup();
    for (let i = 0; i < 5; i++) await expect(logIn.execute({ username: 'alice', password: 'x', ip: '9.9.9.9' })).rejects.toMatchObject({ code: 'invalid_credentials' });
    await expect(logIn.execute({ username: 'alice', password: 'secret-pass', ip: '9.9.9.9' })).rejects.toMatchObject({ code: 'throttled' });
    expect((await logIn.execute({ username: 'alice', password: 'secret-pass', ip: '8.8.8.8' })).username).toBe('alice');
  });
});
