import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTimestamp, parseTimestampText } from '../../src/domain/model/values.js';

/**
 * `parseTimestampText` reads the common shapes (PostgreSQL's timestamptz output, ISO 8601 with an
 * offset) with its own field parser and hands everything else to the general date parser. Both
 * must agree: the reference below is the general parser alone, as the function was written first.
 */
const reference = (text: string): number => new Date(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).getTime();
const same = (text: string): void => {
  const expected = reference(text);
  const got = parseTimestampText(text).getTime();
  expect(Number.isNaN(got) ? 'Invalid Date' : got, text).toBe(Number.isNaN(expected) ? 'Invalid Date' : expected);
};

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

describe('parseTimestampText', () => {
  it('reads the shapes PostgreSQL and ISO 8601 write', () => {
    expect(parseTimestampText('2026-11-24 12:41:56.932+00').toISOString()).toBe('2026-11-24T12:41:56.932Z');
    expect(parseTimestampText('2026-11-24 12:41:56.932123+00').toISOString()).toBe('2026-11-24T12:41:56.932Z');
    expect(parseTimestampText('2026-11-24 12:41:56+05:30').toISOString()).toBe('2026-11-24T07:11:56.000Z');
    expect(parseTimestampText('2026-11-24 12:41:56.9-03').toISOString()).toBe('2026-11-24T15:41:56.900Z');
    expect(parseTimestampText('1969-12-31T23:59:59.999Z').getTime()).toBe(-1);
  });

  it('agrees with the general parser on edge cases', () => {
    for (const text of [
      '0044-03-15 12:00:00+00',
      '0099-12-31 23:59:59+00',
      '0100-01-01 00:00:00+00',
      '2026-02-30 00:00:00+00',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-32T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:00:60Z',
      '2026-01-01T23:00:00+24:00',
      '2026-01-01T23:00:00+23:59',
      '2026-01-01T23:00:00+05:60',
      '2026-01-01T23:00:00+0530',
      '2026-01-01T23:00:00.1234567891Z',
      '2026-01-01 23:00:00.000001-12',
      '2026-11-24 12:41:56.932+05:30:12',
      '2026-11-24 12:41:56',
      '20261-11-24 12:41:56+00',
      '',
      'not a date',
    ]) {
      same(text);
    }
  });

  it('agrees with the general parser on generated timestamps', () => {
    const field = (max: number, width: number) => fc.integer({ min: 0, max }).map((n) => pad(n, width));
    const text = fc
      .tuple(
        field(9999, 4),
        field(13, 2),
        field(32, 2),
        fc.constantFrom(' ', 'T'),
        field(24, 2),
        field(60, 2),
        field(60, 2),
        fc.option(fc.stringMatching(/^\.\d{1,9}$/), { nil: '' }),
        fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), field(24, 2), fc.option(fc.tuple(fc.constantFrom(':', ''), field(60, 2)), { nil: undefined })).map(([sign, h, m]) => `${sign}${h}${m ? m.join('') : ''}`)),
      )
      .map(([y, mo, d, sep, h, mi, s, frac, zone]) => `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${frac}${zone}`);
    fc.assert(
      fc.property(text, (t) => {
        same(t);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('jsonTimestamp', () => {
  const asJson = (d: Date): unknown => JSON.parse(JSON.stringify({ d })).d;

  it('writes what JSON.stringify writes for a date', () => {
    for (const d of [new Date(0), new Date(-1), new Date('0044-03-15T12:00:00Z'), new Date('-000001-01-01T00:00:00Z'), new Date('+010000-01-01T00:00:00Z'), new Date(Number.NaN), new Date(8.64e15), new Date(-8.64e15)]) {
      expect(jsonTimestamp(d), String(d.getTime())).toBe(asJson(d));
    }
    fc.assert(fc.property(fc.date({ noInvalidDate: false }), (d) => {
        expect(jsonTimestamp(d)).toBe(asJson(d));
      }), { numRuns: 5000 });
  });
});
