import { afterEach, describe, expect, it } from 'vitest';
import { ARGON2_PURGE_DELAY_MS, withArgon2Allocator } from '../../../src/adapters/crypto/argon2-password-hasher.js';

describe('withArgon2Allocator (the argon2 addon loaded with a purge delay)', () => {
  const before = process.env.MIMALLOC_PURGE_DELAY;
  afterEach(() => {
    if (before === undefined) delete process.env.MIMALLOC_PURGE_DELAY;
    else process.env.MIMALLOC_PURGE_DELAY = before;
  });

  it('sets MIMALLOC_PURGE_DELAY while the addon loads, then puts the environment back', () => {
    delete process.env.MIMALLOC_PURGE_DELAY;
    const seen = withArgon2Allocator(() => process.env.MIMALLOC_PURGE_DELAY);
    expect(seen).toBe(String(ARGON2_PURGE_DELAY_MS));
    expect(process.env.MIMALLOC_PURGE_DELAY).toBeUndefined();
  });

  it('keeps a value the host set', () => {
    process.env.MIMALLOC_PURGE_DELAY = '25';
    expect(withArgon2Allocator(() => process.env.MIMALLOC_PURGE_DELAY)).toBe('25');
    expect(process.env.MIMALLOC_PURGE_DELAY).toBe('25');
  });

  it('puts the environment back when loading fails', () => {
    delete process.env.MIMALLOC_PURGE_DELAY;
    expect(() =>
      withArgon2Allocator(() => {
        throw new Error('no addon');
      }),
    ).toThrow('no addon');
    expect(process.env.MIMALLOC_PURGE_DELAY).toBeUndefined();
  });
});
