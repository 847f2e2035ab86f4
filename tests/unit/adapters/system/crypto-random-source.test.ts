import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cryptoRandomSource } from '../../../../src/adapters/system/crypto-random-source.js';
import { hashToken } from '../../../../src/application/auth/secrets.js';

describe('cryptoRandomSource.bytes (pooled)', () => {
  it('answers the size asked, each call in a buffer of its own', () => {
    for (const size of [0, 1, 16, 24, 32, 255, 256, 257, 5000]) expect(cryptoRandomSource.bytes(size)).toHaveLength(size);
    const a = cryptoRandomSource.bytes(32);
    const b = cryptoRandomSource.bytes(32);
    expect(a.buffer).not.toBe(b.buffer);
    a.fill(0);
    expect(b.some((x) => x !== 0)).toBe(true);
  });

  it('never hands out the same bytes twice, across pool refills', () => {
    // 4 000 tokens of 32 bytes span about 31 refills of the 4 KiB pool.
    const seen = new Set<string>();
    for (let i = 0; i < 4000; i++) seen.add(Buffer.from(cryptoRandomSource.bytes(32)).toString('hex'));
    expect(seen.size).toBe(4000);
  });

  it('looks uniform: every byte value turns up in 64 KiB drawn in small pieces', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2048; i++) for (const x of cryptoRandomSource.bytes(32)) counts[x] = (counts[x] ?? 0) + 1;
    // Expected 256 per value; a pool handing out zeroed (used) bytes would pile them on 0.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(380);
  });
});

describe('hashToken', () => {
  it('is the hex SHA-256 of the token', () => {
    const token = Buffer.from(cryptoRandomSource.bytes(32)).toString('base64url');
    expect(hashToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
