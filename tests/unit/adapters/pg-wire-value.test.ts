import { describe, expect, it } from 'vitest';
import { wireValue } from '../../../src/adapters/persistence/sql/pg-pipeline.js';

describe('wireValue (a pipeline parameter in the text form PostgreSQL reads)', () => {
  it('maps null, text, numbers, booleans, Buffers, Dates and JSON values', () => {
    expect(wireValue(null)).toBeNull();
    expect(wireValue(undefined)).toBeNull();
    expect(wireValue('héllo')).toBe('héllo');
    expect(wireValue(42)).toBe('42');
    expect(wireValue(-1.5)).toBe('-1.5');
    expect(wireValue(true)).toBe('true');
    expect(wireValue(10n)).toBe('10');
    const bytes = Buffer.from([0, 1, 255]);
    expect(wireValue(bytes)).toBe(bytes);
    expect(wireValue(new Date('2026-12-02T20:00:00.123Z'))).toBe('2026-12-02T20:00:00.123Z');
    expect(wireValue({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
  });

  it('writes arrays as array literals, quoting every element, NULL for null, nested arrays nested', () => {
    expect(wireValue([1, 2, 3])).toBe('{"1","2","3"}');
    expect(wireValue(['a b', 'c"d', 'e\\f', null])).toBe('{"a b","c\\"d","e\\\\f",NULL}');
    expect(wireValue([[1], [2]])).toBe('{{"1"},{"2"}}');
    expect(wireValue([])).toBe('{}');
  });
});
