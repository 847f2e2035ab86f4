import { describe, expect, it } from 'vitest';
import { parseIfMatch } from '../../../src/adapters/http-koa/routes/rest-routes.js';

describe('If-Match parsing (RFC 9110 §13.1.1)', () => {
  it('no header is no precondition; * is any version', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('*')).toBe('*');
    expect(parseIfMatch(' * ')).toBe('*');
  });

  it('lists the strong tags, in order, and drops weak ones (they never match)', () => {
    expect(parseIfMatch('"abc"')).toEqual(['"abc"']);
    expect(parseIfMatch('"a", W/"b" ,"c,d",, "e"')).toEqual(['"a"', '"c,d"', '"e"']);
    expect(parseIfMatch(['"a"', '"b"'])).toEqual(['"a"', '"b"']);
    expect(parseIfMatch('W/"a"')).toEqual([]);
  });

  it('a value that is not a list of entity tags names no version: an empty list, never "no precondition"', () => {
    for (const bad of ['', 'abc', '"a" "b"', '"a", *', 'w/"a"', '"unterminated', 'x"a"']) expect(parseIfMatch(bad), bad).toEqual([]);
  });
});
