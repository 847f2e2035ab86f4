import { describe, expect, it } from 'vitest';
import { cappedMemo } from '../../../src/adapters/persistence/sql/capped-memo.js';

describe('cappedMemo', () => {
  it('makes a value once per key and hands the kept one back', () => {
    const memo = new Map<string, { n: number }>();
    let made = 0;
    const make = (n: number) => ({ n: (made++, n) });
    const first = cappedMemo(memo, 2, 'a', 1, make);
    expect(cappedMemo(memo, 2, 'a', 99, make)).toBe(first);
    expect(first).toEqual({ n: 1 });
    expect(made).toBe(1);
  });

  it('past the cap makes the value each time and keeps nothing more', () => {
    const memo = new Map<string, { n: number }>();
    let made = 0;
    const make = (n: number) => ({ n: (made++, n) });
    cappedMemo(memo, 2, 'a', 1, make);
    cappedMemo(memo, 2, 'b', 2, make);
    const c1 = cappedMemo(memo, 2, 'c', 3, make);
    const c2 = cappedMemo(memo, 2, 'c', 3, make);
    expect(c1).toEqual({ n: 3 });
    expect(c2).not.toBe(c1);
    expect([...memo.keys()]).toEqual(['a', 'b']);
    expect(made).toBe(4);
  });
});
