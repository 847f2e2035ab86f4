import type { DriverException, ExceptionConverter } from '@mikro-orm/core';
import { ConstraintViolation, DatabaseUnavailable, DomainError } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';
import { mikroOrmCore } from './mikro-orm-core.js';

/** Which write raised the error: a failed foreign key on delete means "still referenced". */
export type Operation = 'insert' | 'update' | 'delete' | 'read';

/** What node-pg, node-sqlite3, knex and Node's sockets put on an error (PostgreSQL's fields: see its ErrorResponse). */
interface DriverError {
  /** SQLSTATE (PostgreSQL), `SQLITE_*` (node-sqlite3) or a Node errno code (`ECONNREFUSED`). */
  code?: string;
  name?: string;
  message?: string;
  detail?: string;
  column?: string;
  table?: string;
}

/** Node's socket and DNS errors: the database cannot be reached. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** PostgreSQL conditions that say "not now" rather than "not this" (SQLSTATE class 08, connection exceptions, is matched whole). */
const PG_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  // statement_timeout and lock_timeout: the database could not answer in time (a 503, like an outage).
  '57014', // query_canceled
  '55P03', // lock_not_available
]);

/** PostgreSQL data exceptions caused by the caller's value: out of range, malformed or too long for the column type. */
const PG_INVALID_INPUT = new Set([
  '22001', // string_data_right_truncation
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire
  '22P02', // invalid_text_representation
]);

/** node-sqlite3's codes for a database that cannot be opened or stayed locked past busy_timeout. */
const SQLITE_UNAVAILABLE = new Set(['SQLITE_BUSY', 'SQLITE_CANTOPEN']);

/** What node-pg says when a reply never came (the client's `query_timeout`); sql-executor.ts drops such a connection. */
export const PG_READ_TIMEOUT = 'Query read timeout';

/**
 * node-pg's own failures carry no code: these fixed texts (pg/lib/client.js) are all it gives for a
 * connection that ended, broke, never finished connecting (`connectionTimeoutMillis`) or went silent.
 */
const PG_CLIENT_FAILURES = [
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
  'timeout expired',
  PG_READ_TIMEOUT,
];

/** `message` is node-pg's `text`, bare or as knex reports it for its own statements (`BEGIN; - Query read timeout`). */
export function isPgMessage(message: string, text: string): boolean {
  return message === text || message.endsWith(` - ${text}`);
}

/** A node-pg client failure (see `isPgMessage`). */
function isPgClientFailure(message: string): boolean {
  return PG_CLIENT_FAILURES.some((text) => isPgMessage(message, text));
}

function unavailable(e: DriverError): boolean {
  const code = e.code ?? '';
  if (NETWORK_CODES.has(code) || SQLITE_UNAVAILABLE.has(code) || PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  // knex gave up waiting for a free connection of its pool (acquireConnectionTimeout).
  if (e.name === 'KnexTimeoutError') return true;
  return e.code === undefined && isPgClientFailure(e.message ?? '');
}

/**
 * MikroORM's reading of a driver error (the platform's ExceptionConverter: SQLSTATE on PostgreSQL,
 * SQLite's result text on SQLite, since node-sqlite3 only reports the primary code
 * `SQLITE_CONSTRAINT`). The converter gets a copy holding only the code and message: PostgreSQL's
 * appends `detail` and `hint` to the message of the error it is given.
 */
export function convertDriverError(converter: ExceptionConverter, error: unknown): DriverException {
  const e: DriverError = typeof error === 'object' && error !== null ? error : {};
  return converter.convertException(Object.assign(new Error(e.message ?? ''), { code: e.code }));
}

/** The first column named by a PostgreSQL detail such as `Key (email)=(a@b.c) already exists.` (the key part is not translated). */
function pgKeyColumn(detail: string | undefined): string | undefined {
  return detail ? /\((.+?)\)=\(/.exec(detail)?.[1]?.replace(/^lower\((.*)\)$/, '$1') : undefined;
}

/**
 * The column named by a SQLite message such as `UNIQUE constraint failed: author.email`, or by
 * the name of a case-insensitive index (`index 'auth_user_email_ci_unique'`, see ddl.ts).
 */
function sqliteColumn(message: string, table: string): string | undefined {
  const index = /constraint failed: index '(\w+)'/.exec(message)?.[1];
  if (index) return index.startsWith(`${table}_`) && index.endsWith('_ci_unique') ? index.slice(table.length + 1, -10) : undefined;
  const m = /constraint failed: ([\w.]+(?:, [\w.]+)*)/.exec(message);
  return m?.[1]?.split(', ').map((part) => part.split('.').pop()).join(', ');
}

/** The column a violation names: PostgreSQL's `column` field or the key of its `detail`; SQLite's message. */
function violatedColumn(e: DriverError, dialect: Dialect, table: string): string | undefined {
  return dialect === 'sqlite' ? sqliteColumn(e.message ?? '', table) : (e.column ?? pgKeyColumn(e.detail));
}

/** The constraint a driver error violates, as MikroORM's class for it (SQLite: only for `SQLITE_CONSTRAINT`, PostgreSQL: SQLSTATE class 23). */
function violation(e: DriverError, dialect: Dialect, converter: ExceptionConverter): DriverException | undefined {
  const integrity = dialect === 'sqlite' ? e.code === 'SQLITE_CONSTRAINT' : e.code?.startsWith('23') === true;
  return integrity ? convertDriverError(converter, e) : undefined;
}

/**
 * Turns a driver error into a port error: integrity failures become ConstraintViolation (with the
 * column where the driver names it), values the column type refuses invalid_input, lost or
 * overloaded connections DatabaseUnavailable. Anything else is returned as undefined and the caller
 * rethrows it as a bug. Errors are told apart by their codes (SQLSTATE, `SQLITE_*`, Node's errno
 * codes, knex's error class) and by MikroORM's ExceptionConverter for the dialect (`converter`,
 * the platform's); message text is read only for the column to name.
 */
export function translateSqlError(
  error: unknown,
  dialect: Dialect,
  table: string,
  operation: Operation,
  converter: ExceptionConverter,
): DomainError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as DriverError;
  if (unavailable(e)) return new DatabaseUnavailable();
  if (dialect === 'postgresql' && e.code && PG_INVALID_INPUT.has(e.code)) {
    // Out of range, malformed or too long for the column type: the caller's value, not a bug.
    return new DomainError('invalid_input', `${table}: a value is out of range or malformed for its column`);
  }
  const found = violation(e, dialect, converter);
  if (!found) return undefined;
  const column = violatedColumn(e, dialect, table);
  // The converter that found it has loaded MikroORM's exception classes.
  const { CheckConstraintViolationException, ForeignKeyConstraintViolationException, NotNullConstraintViolationException, UniqueConstraintViolationException } = mikroOrmCore();
  if (found instanceof UniqueConstraintViolationException) return new ConstraintViolation('unique', table, column);
  if (found instanceof NotNullConstraintViolationException) return new ConstraintViolation('not_null', table, column);
  if (found instanceof ForeignKeyConstraintViolationException) {
    // PostgreSQL's `table` is the referencing one: another table than the one written means this write removed a referenced row.
    const stillReferenced = operation === 'delete' || (e.table !== undefined && e.table !== table);
    return stillReferenced ? new ConstraintViolation('still_referenced', table) : new ConstraintViolation('foreign_key', table, column);
  }
  if (found instanceof CheckConstraintViolationException) return new ConstraintViolation('check', table);
  return undefined;
}
