import { describe, expect, it } from 'vitest';
import { DatabaseUrlError, describeDatabase, parseDatabaseUrl } from '../../../src/adapters/persistence/database-url.js';

describe('parseDatabaseUrl', () => {
  it('parses every supported address', () => {
    expect(parseDatabaseUrl('memory:')).toEqual({ kind: 'memory' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sql', dialect: 'sqlite', file: ':memory:' });
    expect(parseDatabaseUrl('sqlite:./data/x.db')).toEqual({ kind: 'sql', dialect: 'sqlite', file: './data/x.db' });
    expect(parseDatabaseUrl('postgres://u@h:5432/db?schema=s1')).toMatchObject({ dialect: 'postgresql', schema: 's1', url: 'postgres://u@h:5432/db' });
  });

  it('refuses unsupported addresses and unsafe schema names', () => {
    expect(() => parseDatabaseUrl('mysql://x')).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl('postgres://h/db?schema=x;drop')).toThrow(DatabaseUrlError);
  });

  it('describes an address without its credentials', () => {
    expect(describeDatabase(parseDatabaseUrl('postgres://admin:hunter2@db.local:6543/app'))).toBe('postgresql://db.local:6543/app');
  });
});
