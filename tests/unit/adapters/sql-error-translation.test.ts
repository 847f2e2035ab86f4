import { describe, expect, it } from 'vitest';
import { translateSqlError } from '../../../src/adapters/persistence/sql/sql-error-translation.js';

describe('translateSqlError', () => {
  it.each([
    [{ code: '23505', detail: 'Key (email)=(a@b.c) already exists.' }, 'insert', 'unique', 'email'],
    [{ code: '23505', detail: 'Key (lower(username))=(alice) already exists.' }, 'insert', 'unique', 'username'],
    [{ code: '23503', detail: 'Key (author_id)=(9) is not present in table "author".' }, 'insert', 'foreign_key', 'author_id'],
    [{ code: '23503', detail: 'Key (id)=(1) is still referenced from table "post".' }, 'delete', 'still_referenced', undefined],
    [{ code: '23502', column: 'title' }, 'insert', 'not_null', 'title'],
    [{ code: '23514' }, 'update', 'check', undefined],
  ])('PostgreSQL %j', (error, op, kind, column) => {
    const e = translateSqlError(error, 'postgresql', 'post', op as 'insert');
    expect(e).toMatchObject({ kind, column });
  });

  it.each([
    ['UNIQUE constraint failed: author.email', 'insert', 'unique', 'email'],
    ["UNIQUE constraint failed: index 'auth_user_username_ci_unique'", 'insert', 'unique', 'username'],
    ['NOT NULL constraint failed: post.title', 'insert', 'not_null', 'title'],
    ['FOREIGN KEY constraint failed', 'insert', 'foreign_key', undefined],
    ['FOREIGN KEY constraint failed', 'delete', 'still_referenced', undefined],
    ['CHECK constraint failed: positive', 'update', 'check', undefined],
  ])('SQLite %s on %s', (message, op, kind, column) => {
    const table = message.includes('auth_user') ? 'auth_user' : 'post';
    const e = translateSqlError({ code: 'SQLITE_CONSTRAINT', message: `SQLITE_CONSTRAINT: ${message}` }, 'sqlite', table, op as 'insert');
    expect(e).toMatchObject({ kind, column });
  });

  it('turns lost connections into a generic database_unavailable', () => {
    for (const error of [{ code: 'ECONNREFUSED' }, { code: '57P01' }, { message: 'Connection terminated unexpectedly' }]) {
      const e = translateSqlError(error, 'postgresql', 'post', 'read');
      expect(e?.code).toBe('database_unavailable');
      expect(e?.message).toBe('the database is unavailable');
    }
  });

  it('turns out-of-range and malformed values into invalid_input', () => {
    expect(translateSqlError({ code: '22003', message: 'integer out of range' }, 'postgresql', 'post', 'insert')?.code).toBe('invalid_input');
  });

  it('leaves anything else untranslated (a bug, answered as a generic 500)', () => {
    expect(translateSqlError({ code: '42P01', message: 'relation "x" does not exist' }, 'postgresql', 'x', 'read')).toBeUndefined();
    expect(translateSqlError(new Error('boom'), 'sqlite', 'x', 'read')).toBeUndefined();
  });
});
