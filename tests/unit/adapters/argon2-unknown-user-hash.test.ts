import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, Argon2PasswordHasher, unknownUserArgon2Hash } from '../../../src/adapters/crypto/argon2-password-hasher.js';

const bytes = (size: number) => new Uint8Array(randomBytes(size));

describe('unknownUserArgon2Hash', () => {
  it('is an argon2id hash with the parameters real hashes get, made of random salt and digest', async () => {
    const dummy = unknownUserArgon2Hash(bytes);
    const real = await new Argon2PasswordHasher().hash('correct horse battery staple');
    const shape = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
    const [, m, t, p, salt, digest] = shape.exec(dummy) ?? [];
    expect([Number(m), Number(t), Number(p)]).toEqual([ARGON2_OPTIONS.memoryCost, ARGON2_OPTIONS.timeCost, ARGON2_OPTIONS.parallelism]);
    // Same layout as a hash @node-rs/argon2 produced: parameters, then salt and digest of the same lengths.
    const [, rm, rt, rp, realSalt, realDigest] = shape.exec(real) ?? [];
    expect([rm, rt, rp]).toEqual([m, t, p]);
    expect([salt?.length, digest?.length]).toEqual([realSalt?.length, realDigest?.length]);
    expect(unknownUserArgon2Hash(bytes)).not.toBe(dummy);
  });

  it('is verified like any hash and matches no password', async () => {
    const hasher = new Argon2PasswordHasher();
    const dummy = unknownUserArgon2Hash(bytes);
    expect(await hasher.verify(dummy, '')).toBe(false);
    expect(await hasher.verify(dummy, 'alice-password-1')).toBe(false);
  });
});
