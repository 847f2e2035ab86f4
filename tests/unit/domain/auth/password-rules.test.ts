import { describe, expect, it } from 'vitest';
import { emailProblems, passwordProblems, usernameProblems } from '../../../../src/domain/auth/password-rules.js';
import { parseRate } from '../../../../src/domain/auth/throttle-rates.js';

describe('password rules', () => {
  it('accepts a long uncommon password', () => {
    expect(passwordProblems('correct horse battery staple', { username: 'carol', email: 'carol@example.com' })).toEqual([]);
  });
  it('reports every problem together', () => {
    expect(passwordProblems('1234567', {})).toEqual(['must be at least 8 characters', 'must not be entirely numeric', 'is too common']);
  });
  it('refuses common passwords case-insensitively and overlong ones', () => {
    expect(passwordProblems('PassWord1', {})).toEqual(['is too common']);
    expect(passwordProblems('x'.repeat(1025), {})).toEqual(['must be at most 1024 characters']);
  });
  it('refuses passwords too similar to the username or email', () => {
    expect(passwordProblems('margaret-h', { username: 'margaret' })).toEqual(['is too similar to the username or email']);
    expect(passwordProblems('hamiltonm1', { email: 'hamiltonm@nasa.gov' })).toEqual(['is too similar to the username or email']);
    expect(passwordProblems('zebra-quartz-1997', { username: 'margaret', email: 'm@x.io' })).toEqual([]);
  });
  it('checks usernames and emails', () => {
    expect(usernameProblems('alice.b+1@x')).toEqual([]);
    expect(usernameProblems('')).toHaveLength(1);
    expect(usernameProblems('a b')).toHaveLength(1);
    expect(emailProblems('a@b.co')).toEqual([]);
    expect(emailProblems('a@b')).toHaveLength(1);
  });
  it('parses throttle rates', () => {
    expect(parseRate('100/min')).toEqual({ limit: 100, windowMs: 60_000 });
    expect(parseRate('10/hour')).toEqual({ limit: 10, windowMs: 3_600_000 });
    expect(() => parseRate('lots')).toThrow(/invalid rate/);
  });
});
