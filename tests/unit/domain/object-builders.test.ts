import { afterEach, describe, expect, it, vi } from 'vitest';
import { objectBuilder } from '../../../src/domain/model/object-builders.js';

/** The object the builder must equal: the keys stored one by one, as node-pg and a spread template build them. */
function stored(keys: readonly string[], values: readonly unknown[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  keys.forEach((key, i) => Object.defineProperty(object, key, { value: values[i], enumerable: true, writable: true, configurable: true }));
  return object;
}

const HOSTILE_KEYS = ['id', 'a"b', 'back\\slash', 'line\nbreak', '\u2028sep', '${x}', '*/ x /*', "'", 'ünï', '', ' '];

describe('objectBuilder', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('builds a fresh object with the keys in order and the values in place', () => {
    const build = objectBuilder(['id', 'title', 'score']);
    const a = build([1, 'Hello', null]);
    const b = build([2, 'World']);
    expect(Object.entries(a)).toEqual([['id', 1], ['title', 'Hello'], ['score', null]]);
    expect(Object.entries(b)).toEqual([['id', 2], ['title', 'World'], ['score', undefined]]);
    expect(a).not.toBe(b);
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
  });

  it('takes any key as it is (quotes, backslashes, line separators, template syntax)', () => {
    const values = HOSTILE_KEYS.map((_, i) => i);
    const built = objectBuilder(HOSTILE_KEYS)(values);
    expect(Object.keys(built)).toEqual(HOSTILE_KEYS);
    expect(built).toEqual(stored(HOSTILE_KEYS, values));
  });

  it('gives a later duplicate key its value at the first one’s place, and integer keys first, as stores do', () => {
    const keys = ['b', 'a', 'b', '2', '10'];
    const values = [1, 2, 3, 4, 5];
    const built = objectBuilder(keys)(values);
    expect(Object.entries(built)).toEqual(Object.entries(stored(keys, values)));
    expect(Object.entries(built)).toEqual([['2', 4], ['10', 5], ['b', 3], ['a', 2]]);
  });

  it('makes a key "__proto__" an own property and leaves the prototype alone', () => {
    const built = objectBuilder(['id', '__proto__'])([1, { polluted: true }]);
    expect(Object.getPrototypeOf(built)).toBe(Object.prototype);
    expect(Object.keys(built)).toEqual(['id', '__proto__']);
    expect((built as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(built)).toBe('{"id":1,"__proto__":{"polluted":true}}');
  });

  it('still builds the same objects where code may not be compiled from strings', async () => {
    let compiles = 0;
    vi.stubGlobal('Function', function refused() {
      compiles++;
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const { objectBuilder: fresh } = await import('../../../src/domain/model/object-builders.js');
    const values = HOSTILE_KEYS.map((_, i) => `v${i}`);
    expect(fresh(HOSTILE_KEYS)(values)).toEqual(stored(HOSTILE_KEYS, values));
    expect(Object.keys(fresh(['x', 'y'])([1, 2]))).toEqual(['x', 'y']);
    // Refused once, then not tried again.
    expect(compiles).toBe(1);
  });

  it('reports a compile error that is not a refusal, and keeps compiling afterwards', async () => {
    const RealFunction = Function;
    let calls = 0;
    vi.stubGlobal('Function', function broken(...args: string[]) {
      calls++;
      if (calls === 1) throw new SyntaxError('Unexpected token');
      return new RealFunction(...args);
    });
    const { objectBuilder: fresh } = await import('../../../src/domain/model/object-builders.js');
    expect(() => fresh(['a'])).toThrow(SyntaxError);
    expect(fresh(['a', 'b'])([1, 2])).toEqual({ a: 1, b: 2 });
    expect(calls).toBe(2);
  });
});
