import { ConstraintViolation, DatabaseUnavailable, DomainError } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';

/** Which write raised the error: a failed foreign key on delete means "still referenced". */
export type Operation = 'insert' | 'update' | 'delete' | 'read';

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
  detail?: string;
  column?: string;
  table?: string;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300',
  // statement_timeout and lock_timeout: the database could not answer in time (a 503, like an outage).
  '57014', '55P03',
]);
const CONNECTION_TEXT = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Knex: Timeout acquiring a connection|Client has encountered a connection error|Query read timeout|^timeout expired$|SQLITE_CANTOPEN|SQLITE_BUSY/i;

/** The first column named by a PostgreSQL detail such as `Key (email)=(a@b.c) already exists.` */
function pgKeyColumn(detail: string | undefined): string | undefined {
  return detail ? /Key \((.+?)\)=\(/.exec(detail)?.[1] : undefined;
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

/**
 * Turns a driver error into a port error: integrity failures become ConstraintViolation
 * (with the column where the driver names it), lost connections DatabaseUnavailable.
 * Anything else is returned as undefined and the caller rethrows it as a bug.
 * (After MikroORM's per-dialect ExceptionConverter.)
 */
export function translateSqlError(error: unknown, dialect: Dialect, table: string, operation: Operation): DomainError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as DriverError;
  const message = e.message ?? '';
  if ((e.code && CONNECTION_CODES.has(e.code)) || CONNECTION_TEXT.test(message)) return new DatabaseUnavailable();
  if (dialect === 'postgresql') {
    switch (e.code) {
      case '23505':
        return new ConstraintViolation('unique', table, pgKeyColumn(e.detail)?.replace(/^lower\((.*)\)$/, '$1'));
      case '23503':
        return operation === 'delete' || /still referenced/.test(e.detail ?? '')
          ? new ConstraintViolation('still_referenced', table)
          : new ConstraintViolation('foreign_key', table, pgKeyColumn(e.detail));
      case '23502':
        return new ConstraintViolation('not_null', table, e.column);
      case '23514':
        return new ConstraintViolation('check', table);
      case '22003':
      case '22P02':
      case '22007':
      case '22008':
      case '22001':
        // Out of range, malformed or too long for the column type: the caller's value, not a bug.
        return new DomainError('invalid_input', `${table}: a value is out of range or malformed for its column`);
      default:
        return undefined;
    }
  }
  if (e.code !== 'SQLITE_CONSTRAINT') return undefined;
  if (/UNIQUE constraint failed/.test(message)) {
    return new ConstraintViolation('unique', table, sqliteColumn(message, table));
  }
  if (/NOT NULL constraint failed/.test(message)) return new ConstraintViolation('not_null', table, sqliteColumn(message, table));
  if (/FOREIGN KEY constraint failed/.test(message)) {
    return operation === 'delete' ? new ConstraintViolation('still_referenced', table) : new ConstraintViolation('foreign_key', table);
  }
  if (/CHECK constraint failed/.test(message)) return new ConstraintViolation('check', table);
  return undefined;
}
