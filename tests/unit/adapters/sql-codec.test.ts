import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeRowsInPlace, decodeValue } from '../../../src/adapters/persistence/sql/sql-codec.js';
import { c, defineModel, ModelRegistry } from '../../../src/domain/model/index.js';

const thing = ModelRegistry.build([
  defineModel('thing', {
    id: c.id(),
    name: c.text(),
    big: c.bigint().nullable(),
    flag: c.bool(),
    at: c.timestamp().nullable(),
    doc: c.json().nullable(),
    note: c.text().nullable(),
  }),
]).require('thing');

/** Driver rows as SQLite gives them (numbers for booleans, text for JSON, epoch milliseconds), and as PostgreSQL does. */
const driverRows = () => [
  { id: 1, name: 'a', big: 12345678901234, flag: 1, at: 1764000000000, doc: '{"k":[1,2]}', note: 'x' },
  { id: '2', name: 'b', big: '9', flag: true, at: new Date(0), doc: { k: 1 }, note: null },
  { id: 3, name: 'c', big: null, flag: 0, at: null, doc: null, note: undefined },
];

const expected = () => driverRows().map((raw) => Object.fromEntries(thing.columns.map((col) => [col.name, decodeValue(col, (raw as Record<string, unknown>)[col.name])])));

describe('decodeRowsInPlace', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('decodes every column of every row in place, as decodeValue does one value', () => {
    const rows = driverRows();
    const decoded = decodeRowsInPlace(rows, thing.columns);
    expect(decoded).toBe(rows);
    expect(decoded).toEqual(expected());
    expect(decoded[0]?.flag).toBe(true);
    expect(decoded[1]?.id).toBe(2);
    expect(decoded[0]?.doc).toEqual({ k: [1, 2] });
    // The same columns again (the compiled decoder, kept), and a projection of them.
    expect(decodeRowsInPlace(driverRows(), thing.columns)).toEqual(expected());
    const two = thing.columns.filter((col) => col.name === 'flag' || col.name === 'id');
    expect(decodeRowsInPlace([{ flag: 0, id: '7' }], two)).toEqual([{ flag: false, id: 7 }]);
  });

  it('finds a kept column list\'s decoder by identity, and decodes projections of it by their own columns', () => {
    expect(decodeRowsInPlace(driverRows(), thing.columns, true)).toEqual(expected());
    expect(decodeRowsInPlace(driverRows(), thing.columns, true)).toEqual(expected());
    const two = thing.columns.filter((col) => col.name === 'flag' || col.name === 'id');
    expect(decodeRowsInPlace([{ flag: 0, id: '7' }], two)).toEqual([{ flag: false, id: 7 }]);
    const other = thing.columns.filter((col) => col.name === 'flag' || col.name === 'note');
    expect(decodeRowsInPlace([{ flag: 1, note: 'n' }], other, true)).toEqual([{ flag: true, note: 'n' }]);
    expect(decodeRowsInPlace(driverRows(), thing.columns, true)).toEqual(expected());
  });

  it('stores only the values the decoding changes', () => {
    const stores: string[] = [];
    const row = new Proxy({ id: 1, name: 'a', big: '5', flag: true, at: null, doc: null, note: 'q' } as Record<string, unknown>, {
      set: (target, name, value) => {
        stores.push(String(name));
        return Reflect.set(target, name, value);
      },
    });
    decodeRowsInPlace([row], thing.columns);
    expect(stores).toEqual([]);
    decodeRowsInPlace([Object.assign(row, { flag: 1 })], thing.columns);
    expect(stores).toEqual(['flag', 'flag']);
  });

  it('makes a decoded column named __proto__ an own property', () => {
    const odd = ModelRegistry.build([defineModel('odd', { id: c.id(), ['__proto__']: c.json().nullable() } as never)]).require('odd');
    const row: Record<string, unknown> = { id: 1 };
    Object.defineProperty(row, '__proto__', { value: '{"polluted":true}', enumerable: true, writable: true, configurable: true });
    const [decoded] = decodeRowsInPlace([row], odd.columns);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toEqual({ polluted: true });
  });

  it('decodes the same where code may not be compiled from strings', async () => {
    vi.stubGlobal('Function', function refused() {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const fresh = await import('../../../src/adapters/persistence/sql/sql-codec.js');
    expect(fresh.decodeRowsInPlace(driverRows(), thing.columns)).toEqual(expected());
  });
});
