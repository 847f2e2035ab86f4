import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failureTarget, isSafePath, successTarget } from '../../../../src/domain/auth/redirect-guard.js';

describe('redirect guard', () => {
  it.each(['/', '/a', '/a/b?c=d#e', '/%2F%2Fevil.com'])('accepts %j', (p) => expect(isSafePath(p)).toBe(true));
  it.each(['', '//evil.com', '///evil.com', 'https://evil.com', '/\\evil.com', '\\\\evil.com', '/\tx', '/\nx', '/\u0000', 'evil.com', 'javascript:alert(1)', '/x\u007f'])(
    'refuses %j',
    (p) => expect(isSafePath(p)).toBe(false),
  );

  it('success falls back to /', () => {
    expect(successTarget('//evil.com')).toBe('/');
    expect(successTarget(undefined)).toBe('/');
    expect(successTarget('/next')).toBe('/next');
  });

  it('failure prefers the same-host Referer, then a safe redirect, then /', () => {
    expect(failureTarget('http://app.test/login?x=1', 'app.test', '/r')).toBe('/login?x=1');
    expect(failureTarget('http://app.test.evil.com/login', 'app.test', '/r')).toBe('/r');
    expect(failureTarget('http://evil.com/login', 'app.test', undefined)).toBe('/');
    expect(failureTarget('javascript://app.test/%0aalert(1)', 'app.test', undefined)).toBe('/');
  });

  it('never yields anything but a single-slash site path (property)', () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.webUrl()), (redirect, referer) => {
        const to = failureTarget(referer ?? undefined, 'app.test', redirect ?? undefined);
        expect(to.startsWith('/')).toBe(true);
        expect(to.startsWith('//')).toBe(false);
        // eslint-disable-next-line no-control-regex
        expect(to).not.toMatch(/[\\\u0000-\u001f]/);
      }),
    );
  });
});
