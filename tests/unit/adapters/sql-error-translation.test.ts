import { PostgreSqlExceptionConverter } from '@mikro-orm/postgresql';
import { SqliteExceptionConverter } from '@mikro-orm/sqlite';
import { describe, expect, it } from 'vitest';
import { translateSqlError, type Operation } from '../../../src/adapters/persistence/sql/sql-error-translation.js';

const pg = (error: unknown, op: Operation = 'read', table = 'post') => translateSqlError(error, 'postgresql', table, op, new PostgreSqlExceptionConverter());
const sqlite = (error: unknown, op: Operation = 'read', table = 'post') => translateSqlError(error, 'sqlite', table, op, new SqliteExceptionConverter());

describe('translateSqlError', () => {
  it.each([
    [{ code: '23505', detail: 'Key (email)=(a@b.c) already exists.' }, 'insert', 'unique', 'email'],
    [{ code: '23505', detail: 'Key (lower(username))=(alice) already exists.' }, 'insert', 'unique', 'username'],
    [{ code: '23505', detail: 'Schlüssel »(email)=(a@b.c)« existiert bereits.' }, 'insert', 'unique', 'email'],
    [{ code: '23503', detail: 'Key (author_id)=(9) is not present in table "author".', table: 'post' }, 'insert', 'foreign_key', 'author_id'],
    [{ code: '23503', detail: 'Key (id)=(1) is still referenced from table "post".', table: 'post' }, 'delete', 'still_referenced', undefined],
    [{ code: '23503', detail: 'Key (id)=(1) is still referenced from table "comment".', table: 'comment' }, 'update', 'still_referenced', undefined],
    [{ code: '23502', column: 'title' }, 'insert', 'not_null', 'title'],
    [{ code: '23514' }, 'update', 'check', undefined],
  ])('PostgreSQL %j', (error, op, kind, column) => {
    expect(pg(error, op as Operation)).toMatchObject({ kind, column });
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
    expect(sqlite({ code: 'SQLITE_CONSTRAINT', message: `SQLITE_CONSTRAINT: ${message}` }, op as Operation, table)).toMatchObject({ kind, column });
  });

  it('turns lost, overloaded or timed-out connections into a generic database_unavailable', () => {
    const timeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' });
    for (const error of [
      { code: 'ECONNREFUSED' },
      { code: '57P01' },
      { code: '57014', message: 'canceling statement due to statement timeout' },
      { code: '55P03' },
      { code: '08006' },
      { code: '08P01' },
      { code: '53300' },
      { message: 'Connection terminated unexpectedly' },
      { message: 'Query read timeout' },
      { message: 'COMMIT; - Query read timeout' },
      { message: 'timeout expired' },
      timeout,
    ]) {
      const e = pg(error);
      expect(e?.code, JSON.stringify(error)).toBe('database_unavailable');
      expect(e?.message).toBe('the database is unavailable');
    }
    for (const code of ['SQLITE_BUSY', 'SQLITE_CANTOPEN']) expect(sqlite({ code, message: `${code}: x` })?.code).toBe('database_unavailable');
  });

  it('turns out-of-range and malformed values into invalid_input', () => {
    for (const code of ['22003', '22P02', '22007', '22008', '22001', '22021']) {
      expect(pg({ code, message: 'integer out of range' }, 'insert')).toMatchObject({
        code: 'invalid_input',
        detail: 'post: a value is out of range or malformed for its column',
      });
    }
  });

  it('classifies by code, not by words in the message', () => {
    // A server error that merely quotes a client failure's words is not an outage.
    expect(pg({ code: '42P01', message: 'relation "Connection terminated" does not exist' })).toBeUndefined();
    // Without SQLite's SQLITE_CONSTRAINT code, constraint words in a message are not a violation.
    expect(sqlite({ code: 'SQLITE_ERROR', message: 'SQLITE_ERROR: no such column: UNIQUE constraint failed' })).toBeUndefined();
  });

  it('leaves the driver error untouched (it is rethrown as is when untranslated)', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint "post_title_key"'), { code: '23505', detail: 'Key (title)=(x) already exists.' });
    expect(pg(error, 'insert')).toMatchObject({ kind: 'unique', column: 'title' });
    expect(error.message).toBe('duplicate key value violates unique constraint "post_title_key"');
  });

  it('leaves anything else untranslated (a bug, answered as a generic 500)', () => {
    expect(pg({ code: '42P01', message: 'relation "x" does not exist' }, 'read', 'x')).toBeUndefined();
    expect(sqlite(new Error('boom'), 'read', 'x')).toBeUndefined();
    expect(pg('boom')).toBeUndefined();
  });
});
