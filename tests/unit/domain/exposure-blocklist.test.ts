import { describe, expect, it } from 'vitest';
import { BUILTIN_MODELS } from '../../../src/domain/model/builtin-tables.js';
import { DEFAULT_BLOCKLIST, isExposed } from '../../../src/domain/rest/exposure.js';

/** DESIGN §3 "block-list": every table Portico creates is blocked by default, so no new one is served by accident. */
describe('the default block-list', () => {
  it.each(BUILTIN_MODELS.map((m) => m.table))('blocks the built-in table %s', (table) => {
    expect(DEFAULT_BLOCKLIST.has(table)).toBe(true);
    expect(isExposed(table, { expose: new Set(), exclude: new Set() })).toBe(false);
  });
});
