import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyringTokenCipher, parseTokenKeys } from '../../src/adapters/crypto/keyring-token-cipher.js';
import type { TokenCipher } from '../../src/ports/token-cipher.js';

/*
 * The TokenCipher contract (src/ports/token-cipher.ts) over its adapter: a sealed token opens
 * only with its context and an unchanged value, names its key, and keeps opening after a new
 * first key is added; `isCurrent` tells rotation what is left to do.
 */
const key = (): string => randomBytes(32).toString('base64');
const ADAPTERS: readonly (readonly [string, (keys: string) => TokenCipher])[] = [['aes-256-gcm keyring', (keys) => new KeyringTokenCipher(parseTokenKeys(keys))]];

describe.each(ADAPTERS)('TokenCipher contract: %s', (_name, make) => {
  const a = `a:${key()}`;
  const b = `b:${key()}`;

  it('opens what it sealed, and the sealed text does not hold the plaintext', () => {
    const cipher = make(a);
    const sealed = cipher.seal('gho_secret-token', 'social_account:github:1:access');
    expect(sealed).not.toContain('gho_secret');
    expect(cipher.open(sealed, 'social_account:github:1:access')).toBe('gho_secret-token');
    expect(cipher.seal('gho_secret-token', 'c')).not.toBe(cipher.seal('gho_secret-token', 'c'));
  });

  it('refuses another context, a changed value and a truncated tag', () => {
    const cipher = make(a);
    const sealed = cipher.seal('token', 'social_account:github:1:access');
    expect(() => cipher.open(sealed, 'social_account:github:2:access')).toThrow();
    expect(() => cipher.open(sealed, 'social_account:google:1:access')).toThrow();
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4] ?? '', 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => cipher.open([...parts.slice(0, 4), flipped.toString('base64url')].join('.'), 'social_account:github:1:access')).toThrow();
    expect(() => cipher.open([parts[0], parts[1], parts[2], (parts[3] ?? '').slice(0, 8), parts[4]].join('.'), 'social_account:github:1:access')).toThrow();
    expect(() => cipher.open('plain', 'x')).toThrow();
  });

  it('rotates: a new first key seals, the old one still opens, isCurrent tells which is which', () => {
    const old = make(a);
    const sealed = old.seal('token', 'ctx');
    const rotated = make(`${b},${a}`);
    expect(rotated.isCurrent(sealed)).toBe(false);
    expect(rotated.open(sealed, 'ctx')).toBe('token');
    const resealed = rotated.seal('token', 'ctx');
    expect(rotated.isCurrent(resealed)).toBe(true);
    expect(() => make(b).open(sealed, 'ctx')).toThrow(/key a/);
  });
});

describe('parseTokenKeys', () => {
  it.each([undefined, '', '  ', 'k1', 'k1:', `:${key()}`, 'k1:c2hvcnQ=', `k 1:${key()}`, `k1:${key()},k1:${key()}`, `k1:${key()},bad`])('refuses %j with one line naming TOKEN_KEYS', (text) => {
    expect(() => parseTokenKeys(text)).toThrow(/^TOKEN_KEYS [^\n]+$/);
  });

  it('reads kid:base64 entries in order', () => {
    const keys = parseTokenKeys(`new:${key()}, old:${key()}`);
    expect(keys.map((k) => k.kid)).toEqual(['new', 'old']);
    expect(keys.every((k) => k.key.length === 32)).toBe(true);
  });
});
