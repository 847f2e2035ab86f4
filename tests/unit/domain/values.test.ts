import { describe, expect, it } from 'vitest';
import { c, compareValues, defineModel, ModelRegistry, normalizeValue } from '../../../src/domain/model/index.js';

const model = ModelRegistry.build([
  defineModel('t', {
    id: c.id(),
    i: c.int(),
    b: c.bigint(),
    f: c.float(),
    d: c.decimal(),
    s: c.text(),
    ok: c.bool(),
    day: c.date(),
    at: c.timestamp(),
    j: c.json(),
    u: c.uuid(),
  }),
]).require('t');
const col = (name: string) => model.columns.find((x) => x.name === name) ?? (() => { throw new Error(name); })();

describe('normalizeValue', () => {
  it.each([
    ['i', 5, 5],
    ['b', 12, '12'],
    ['b', '-900719925474099312', '-900719925474099312'],
    ['f', 1.5, 1.5],
    ['d', '10.25', '10.25'],
    ['d', 3, '3'],
    ['s', 'x', 'x'],
    ['ok', false, false],
    ['day', '2024-02-29', '2024-02-29'],
    ['j', { a: [1, null] }, { a: [1, null] }],
    ['u', 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee'],
    ['s', null, null],
  ])('accepts %s = %j', (name, input, expected) => {
    expect(normalizeValue(col(name), input)).toEqual({ ok: true, value: expected });
  });

  it('turns an ISO timestamp string into a Date', () => {
    const r = normalizeValue(col('at'), '2026-01-02T03:04:05.000Z');
    expect(r.ok && r.value instanceof Date && r.value.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it.each([
    ['i', 1.5],
    ['i', '5'],
    ['i', 2 ** 60],
    ['i', 2 ** 31],
    ['b', 'x1'],
    ['f', Number.NaN],
    ['d', '1e5'],
    ['s', 5],
    ['ok', 'true'],
    ['day', '2023-02-29'],
    ['day', '2024-1-1'],
    ['at', 'yesterday'],
    ['at', 12345],
    ['j', { f: () => 1 }],
    ['j', new Map()],
    ['u', 'not-a-uuid'],
  ])('refuses %s = %s', (name, input) => {
    expect(normalizeValue(col(name), input).ok).toBe(false);
  });
});

describe('compareValues', () => {
  it('sorts nulls after every value and bigints numerically', () => {
    expect(compareValues('int', null, 1)).toBeGreaterThan(0);
    expect(compareValues('int', 1, null)).toBeLessThan(0);
    expect(compareValues('bigint', '9', '10')).toBeLessThan(0);
    expect(compareValues('text', '9', '10')).toBeGreaterThan(0);
    expect(compareValues('timestamp', new Date(1), new Date(2))).toBeLessThan(0);
  });
});
