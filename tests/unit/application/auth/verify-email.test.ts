import { describe, expect, it } from 'vitest';
import { codeHash } from '../../../../src/application/auth/issue-verification-code.js';
import { ThrottleGate } from '../../../../src/application/auth/throttle-gate.js';
import { INVALID_CODE, VerifyEmail } from '../../../../src/application/auth/verify-email.js';
import { MemoryThrottleStore } from '../../../../src/adapters/throttle/memory-throttle-store.js';
import { CODE_LIFETIME_MS } from '../../../../src/domain/auth/verification-code.js';
import { openTestDatabase } from '../../../support/open-test-database.js';

const SECRET = 'test-secret';

async function setup() {
  const t = await openTestDatabase('memory');
  const user = await t.db.store.insert('auth_user', { username: 'alice', email: 'a@x.io', password_hash: 'h' });
  await t.db.store.insert('auth_email_code', {
    user_id: user.id ?? null,
    code_hash: codeHash(SECRET, user.id, '123456'),
    expires_at: new Date(t.clock.now().getTime() + CODE_LIFETIME_MS),
  });
  const throttle = new ThrottleGate(new MemoryThrottleStore(t.clock), false);
  const verify = new VerifyEmail({ store: t.db.store, clock: t.clock, throttle, secret: SECRET });
  return { verify, user, t };
}

const refused = { code: 'invalid_code', detail: INVALID_CODE };

describe('VerifyEmail', () => {
  it('stamps the address for the right code, once', async () => {
    const { verify, user, t } = await setup();
    await expect(verify.execute({ email: 'A@x.io', code: '123456', ip: '1.2.3.4' })).resolves.toBeUndefined();
    expect((await t.db.store.getById('auth_user', user.id ?? null))?.email_verified_at).toBeInstanceOf(Date);
    await expect(verify.execute({ email: 'a@x.io', code: '123456', ip: '1.2.3.4' })).rejects.toMatchObject(refused);
  });

  it('throws the same invalid_code for every failure', async () => {
    const { verify, t } = await setup();
    for (const input of [
      { email: 'a@x.io', code: '654321' },
      { email: 'nobody@x.io', code: '123456' },
      { email: 'a@x.io', code: '12345' },
      { email: 42, code: '123456' },
      { email: 'a\u0000@x.io', code: '123456' },
    ]) {
      await expect(verify.execute({ ...input, ip: '1.2.3.4' })).rejects.toMatchObject(refused);
    }
    const [code] = await t.db.store.find('auth_email_code', {});
    expect(code?.attempts).toBe(1);
  });
});
