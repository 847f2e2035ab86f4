import { DomainError } from '../errors/domain-error.js';

/** What a connection cursor remembers (SPEC "GraphQL" 7): its ordering and the row's sort key. */
export interface CursorState {
  readonly orderBy: string;
  readonly desc: boolean;
  /** The row's value in the orderBy column (JSON form: Dates as ISO strings). */
  readonly value: unknown;
  /** The row's primary key (the tie-breaker). */
  readonly key: unknown;
}

/** Encodes a cursor as opaque base64url JSON. */
export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify([state.orderBy, state.desc, state.value, state.key])).toString('base64url');
}

/**
 * Decodes a cursor and checks it was made under the same ordering: replaying it under another
 * one is an error (SPEC "GraphQL" 7), as is a malformed cursor.
 */
export function decodeCursor(cursor: string, orderBy: string, desc: boolean): CursorState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new DomainError('invalid_input', 'malformed cursor', [{ field: 'after', message: 'malformed cursor' }]);
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'boolean') {
    throw new DomainError('invalid_input', 'malformed cursor', [{ field: 'after', message: 'malformed cursor' }]);
  }
  if (parsed[0] !== orderBy || parsed[1] !== desc) {
    throw new DomainError('invalid_input', 'the cursor was made under another ordering', [{ field: 'after', message: 'cursor ordering mismatch' }]);
  }
  return { orderBy: parsed[0], desc: parsed[1], value: parsed[2], key: parsed[3] };
}
