import { describe, expect, it } from 'vitest';
import type { IssueVerificationCode } from '../../../../src/application/auth/issue-verification-code.js';
import { SignUp, SignUpRefused } from '../../../../src/application/auth/sign-up.js';
import { ThrottleGate } from '../../../../src/application/auth/throttle-gate.js';
import { MemoryThrottleStore } from '../../../../src/adapters/throttle/memory-throttle-store.js';
import { DomainError } from '../../../../src/domain/errors/domain-error.js';
import type { PasswordHasher } from '../../../../src/ports/password-hasher.js';
import { ManualClock, openTestDatabase } from '../../../support/open-test-database.js';

const hasher: PasswordHasher = { hash: async (p) => `hash:${p}`, verify: async (h, p) => h === `hash:${p}` };

async function setup(requireVerifiedEmail = false) {
  const t = await openTestDatabase('memory');
  const issued: unknown[] = [];
  const issueCode = { execute: async (user: unknown) => void issued.push(user) } as unknown as IssueVerificationCode;
  const throttle = new ThrottleGate(new MemoryThrottleStore(new ManualClock()));
  const signUp = new SignUp({ store: t.db.store, hasher, throttle, issueCode, requireVerifiedEmail });
  return { signUp, issued, t };
}

describe('SignUp', () => {
  it('returns the new user, and says whether a code was mailed', async () => {
    const plain = await setup();
    const done = await plain.signUp.execute({ username: 'alice', email: 'a@x.io', password: 'long-enough-pass', ip: '1.2.3.4' });
    expect(done).toMatchObject({ user: { username: 'alice', password_hash: 'hash:long-enough-pass' }, verificationPending: false });
    expect(plain.issued).toEqual([]);
    const strict = await setup(true);
    expect((await strict.signUp.execute({ username: 'bob', email: 'b@x.io', password: 'long-enough-pass', ip: '1.2.3.4' })).verificationPending).toBe(true);
    expect(strict.issued).toHaveLength(1);
  });

  it('throws one invalid_input listing every problem, and writes nothing', async () => {
    const { signUp, t } = await setup();
    const refusal = await signUp.execute({ username: 'a b', email: 'nope', password: '123', ip: '1.2.3.4' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(SignUpRefused);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'invalid_input' });
    const { errors, detail } = refusal as SignUpRefused;
    expect(errors.map((e) => e.field)).toEqual(['username', 'email', 'password', 'password']);
    expect(detail).toBe(errors.map((e) => `${e.field} ${e.message}`).join('; '));
    expect(await t.db.store.count('auth_user')).toBe(0);
  });

  it('refuses a taken username or email case-insensitively', async () => {
    const { signUp } = await setup();
    await signUp.execute({ username: 'alice', email: 'a@x.io', password: 'long-enough-pass', ip: '1.2.3.4' });
    await expect(signUp.execute({ username: 'ALICE', email: 'A@X.IO', password: 'long-enough-pass', ip: '1.2.3.4' })).rejects.toMatchObject({
      code: 'invalid_input',
      errors: [
        { field: 'username', message: 'a user with this username already exists' },
        { field: 'email', message: 'a user with this email already exists' },
      ],
    });
  });
});
