import { describe, expect, it } from 'vitest';
import { whileSchemasVanish } from '../../../src/adapters/persistence/sql/mikro-orm-database.js';

const vanished = (wrap?: 'cause' | 'previous') => {
  const driver = Object.assign(new Error('schema "portico_t1" does not exist'), { code: '3F000' });
  return wrap ? Object.assign(new Error('Migration failed'), { [wrap]: driver }) : driver;
};

describe('whileSchemasVanish: a migration is retried when another schema vanishes under the table listing', () => {
  it('retries 3F000 (bare or wrapped) and answers the first success', async () => {
    let calls = 0;
    const failures = [vanished(), vanished('cause'), vanished('previous')];
    const result = await whileSchemasVanish(async () => {
      const next = failures[calls++];
      if (next) throw next;
      return 'applied';
    });
    expect(result).toBe('applied');
    expect(calls).toBe(4);
  });

  it('gives up after three retries, and never retries another error', async () => {
    let calls = 0;
    await expect(whileSchemasVanish(async () => { calls++; throw vanished(); })).rejects.toThrow(/does not exist/);
    expect(calls).toBe(4);
    calls = 0;
    await expect(whileSchemasVanish(async () => { calls++; throw Object.assign(new Error('syntax'), { code: '42601' }); })).rejects.toThrow('syntax');
    expect(calls).toBe(1);
  });
});
