import type { ErrorCode } from './codes.js';

/** One field-level problem; `index` names the item of a batch. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
  readonly index?: number;
}

/**
 * An expected failure with a stable code. The message (`detail`) is safe to show a caller:
 * it never carries driver text, SQL or secrets.
 */
export class DomainError extends Error {
  override readonly name: string = 'DomainError';
  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(detail);
  }
  get detail(): string {
    return this.message;
  }
}

/** Too many requests: `retryAfterSeconds` tells the caller when to try again. */
export class Throttled extends DomainError {
  override readonly name = 'Throttled';
  constructor(readonly retryAfterSeconds: number, detail = 'too many requests; try again later') {
    super('throttled', detail);
  }
}

/** The first request with an Idempotency-Key is still running: retry after `retryAfterSeconds` for its answer. */
export class IdempotencyInProgress extends DomainError {
  override readonly name = 'IdempotencyInProgress';
  readonly retryAfterSeconds = 1;
  constructor() {
    super('idempotency_in_progress', 'the first request with this Idempotency-Key is still running; retry shortly for its answer');
  }
}

/** The kinds of integrity constraint a store can report. */
export type ConstraintKind = 'unique' | 'foreign_key' | 'still_referenced' | 'not_null' | 'check';

const CODE_OF: Record<ConstraintKind, ErrorCode> = {
  unique: 'unique_violation',
  foreign_key: 'foreign_key_violation',
  still_referenced: 'still_referenced',
  not_null: 'not_null_violation',
  check: 'check_violation',
};

const MESSAGE_OF: Record<ConstraintKind, string> = {
  unique: 'a row with this value already exists',
  foreign_key: 'the referenced row does not exist',
  still_referenced: 'the row is still referenced by other rows',
  not_null: 'this field may not be null',
  check: 'the value violates a check constraint',
};

/**
 * A store-level integrity failure, translated from whatever the driver said. `column` is set
 * where the driver names it (PostgreSQL usually does; SQLite does for unique and not-null).
 */
export class ConstraintViolation extends DomainError {
  override readonly name = 'ConstraintViolation';
  constructor(
    readonly kind: ConstraintKind,
    readonly table: string,
    readonly column?: string,
  ) {
    super(
      CODE_OF[kind],
      column ? `${table}.${column}: ${MESSAGE_OF[kind]}` : `${table}: ${MESSAGE_OF[kind]}`,
      column ? [{ field: column, message: MESSAGE_OF[kind] }] : [],
    );
  }
}

/**
 * The database could not be reached; the message stays generic. `missing`: the server answered
 * that the database (or the SQLite file's folder) does not exist.
 */
export class DatabaseUnavailable extends DomainError {
  override readonly name = 'DatabaseUnavailable';
  constructor(
    detail = 'the database is unavailable',
    readonly missing = false,
  ) {
    super('database_unavailable', detail);
  }
}

/**
 * The process is draining (after SIGTERM) and opens no new stream or socket: the client connects
 * again, and the load balancer sends it to another instance. A new SSE stream and a WebSocket
 * upgrade are refused with this one error (requests are still answered, closing their connection).
 */
export class ShuttingDown extends DomainError {
  override readonly name = 'ShuttingDown';
  readonly retryAfterSeconds = 1;
  constructor() {
    super('overloaded', 'the server is shutting down; connect again shortly');
  }
}
