import type { Value } from '../model/types.js';

/** Comparison operators a store must support (DESIGN §3 "filtering"). */
export type Operator = 'eq' | 'iexact' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'contains' | 'icontains' | 'startswith' | 'isnull';

/** A predicate tree over one table's columns. `isnull` takes a boolean; `in` takes an array. */
export type Condition =
  | { readonly column: string; readonly op: Operator; readonly value: Value | readonly Value[] }
  | { readonly all: readonly Condition[] }
  | { readonly any: readonly Condition[] }
  | { readonly not: Condition };

export interface OrderTerm {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
}

/** A filtered, ordered, paged read. Without `orderBy` rows come in primary-key order. */
export interface FindQuery {
  readonly where?: Condition;
  readonly orderBy?: readonly OrderTerm[];
  readonly limit?: number;
  readonly offset?: number;
  /** Include soft-deleted rows (default: live rows only). */
  readonly withDeleted?: boolean;
  /**
   * At most `limit` rows for each distinct value of `column`, taken in the query's order
   * (`orderBy`, primary key by default; ties are broken by primary key); `limit`/`offset` of
   * the query still apply to the whole result afterwards.
   */
  readonly perGroup?: { readonly column: string; readonly limit: number };
  /**
   * Read only these columns (the primary key always comes too, unless `withoutKey`): the rows
   * carry no other column. For readers that know what they will use (GraphQL reads what the
   * query selects).
   */
  readonly columns?: readonly string[];
  /**
   * With `columns`: the rows carry exactly those columns, the primary key only when they name it
   * (or when they name none).
   * For a read whose rows are never told apart by their key (a GraphQL child list that selects no
   * key): a key read and parsed on every row is work for nothing.
   */
  readonly withoutKey?: boolean;
  /**
   * `'update'`: the rows read are locked against other writers until the transaction ends (SQL
   * `select … for update` on PostgreSQL), so a read-check-write in one transaction sees the row
   * as it is when it writes. SQLite and the in-memory store run write transactions one at a time,
   * where the lock is implied. Outside a transaction it holds for the statement alone. Not with
   * `perGroup`.
   */
  readonly lock?: 'update';
}

/** Shorthand constructors for conditions. */
export const where = {
  eq: <C extends string, V extends Value>(column: C, value: V) => ({ column, op: 'eq', value }) as const,
  in: <C extends string, V extends Value>(column: C, values: readonly V[]) => ({ column, op: 'in', value: values }) as const,
  all: <T extends readonly object[]>(...conditions: T) => ({ all: conditions }) as const,
  any: <T extends readonly object[]>(...conditions: T) => ({ any: conditions }) as const,
  not: <T extends object>(condition: T) => ({ not: condition }) as const,
};

/**
 * The value a condition requires `column` to equal (`column = v`, alone or under `all`), if any:
 * a condition that pins a primary key matches one row at most.
 */
export function pinnedValue(where: Condition, column: string): Value | undefined {
  if ('all' in where) {
    for (const c of where.all) {
      const value = pinnedValue(c, column);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  return 'column' in where && where.column === column && where.op === 'eq' ? (where.value as Value) : undefined;
}
