import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { decodeCursor, encodeCursor, type CursorState } from '../../domain/graphql/cursor.js';
import { pageSize } from '../../domain/graphql/page-size.js';
import type { ReadPolicy } from '../../domain/graphql/read-policy.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { RecordStore } from '../../ports/record-store.js';

/** The arguments of `postsConnection`. */
export type ConnectionArgs = { first?: number | null; after?: string | null; orderBy?: string | null; desc?: boolean | null };

/** The model a connection pages through. */
export interface ConnectionSource {
  readonly model: ModelDef;
  readonly typeName: string;
  readonly pk: ColumnDef;
  readonly policy: ReadPolicy;
}

/** One page of a connection: its edges and where it stands. */
export interface ConnectionPage {
  readonly edges: { node: Row; cursor: string }[];
  readonly pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/**
 * One keyset page (SPEC "GraphQL" 7) of the rows the caller reaches (the model's row policy for
 * the identity): ordered by `orderBy` then the key, starting after the cursor, `first` rows (the
 * default 50, at most 200). An `orderBy` that is no column of the type, a malformed cursor or one
 * made under another ordering is `invalid_input`.
 */
export class ReadConnectionPage {
  constructor(private readonly store: RecordStore) {}

  async execute(identity: Identity, source: ConnectionSource, args: ConnectionArgs): Promise<ConnectionPage> {
    const { model, pk } = source;
    const orderBy = args.orderBy ?? pk.name;
    checkOrderBy(source, orderBy);
    const desc = args.desc ?? false;
    const first = pageSize('first', args.first);
    const after = args.after ? decodeCursor(args.after, orderBy, desc) : undefined;
    const past = after ? afterCondition(orderBy, pk.name, desc, after.value as Value, after.key as Value) : undefined;
    // Only the rows the caller's row policy reaches are paged (and counted towards the next page).
    const scope = rowScope(model.rowPolicy, identity);
    const where = past && scope ? { all: [past, scope] } : (past ?? scope);
    // One row beyond the page tells whether another page exists (SPEC "Limits": first + 1), even for first: 0.
    const rows = await this.store.find(model.table, {
      ...(where ? { where } : {}),
      orderBy: [
        { column: orderBy, direction: desc ? 'desc' : 'asc' },
        ...(orderBy === pk.name ? [] : [{ column: pk.name, direction: desc ? ('desc' as const) : ('asc' as const) }]),
      ],
      limit: first + 1,
    });
    return pageOf(rows, first, { orderBy, desc, pk: pk.name, after, afterArg: args.after });
  }
}

/** SPEC "GraphQL" 7: orderBy cannot name a column absent from the schema. */
function checkOrderBy({ model, typeName, policy }: ConnectionSource, orderBy: string): void {
  const col = model.columns.find((c) => c.name === orderBy);
  if (!col || !policy.visible(model, col) || col.private || col.type === 'json') {
    throw new DomainError('invalid_input', `orderBy "${orderBy}" is not a column of ${typeName}`, [{ field: 'orderBy', message: 'unknown column' }]);
  }
}

interface PageOrder {
  readonly orderBy: string;
  readonly desc: boolean;
  readonly pk: string;
  readonly after: CursorState | undefined;
  readonly afterArg: string | null | undefined;
}

/** The first `first` rows as edges with their cursors; the extra row read only tells whether a next page exists. */
function pageOf(rows: Row[], first: number, { orderBy, desc, pk, after, afterArg }: PageOrder): ConnectionPage {
  const page = rows.slice(0, first);
  const edges = page.map((node) => ({
    node,
    cursor: encodeCursor({ orderBy, desc, value: cursorValue(node[orderBy]), key: node[pk] }),
  }));
  return {
    edges,
    // An empty page keeps the position it was asked from, so a pager resumes rather than restarting.
    pageInfo: {
      hasNextPage: rows.length > first,
      hasPreviousPage: after !== undefined,
      startCursor: edges[0]?.cursor ?? afterArg ?? null,
      endCursor: edges.at(-1)?.cursor ?? afterArg ?? null,
    },
  };
}

/** The ordering value a cursor keeps: as the store holds it (a key stays a number, not its ID string), a date as ISO text. */
function cursorValue(v: Value | undefined): Value {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.toISOString() : v;
}

/**
 * Rows strictly after (value, key) in the order (column asc|desc nulls as PostgreSQL, key as
 * tie-breaker): the keyset condition of a cursor page.
 */
function afterCondition(column: string, pk: string, desc: boolean, value: Value, key: Value): Condition {
  const past = desc ? 'lt' : 'gt';
  const keyPast: Condition = { column: pk, op: past, value: key };
  if (column === pk) return keyPast;
  const isNull: Condition = { column, op: 'isnull', value: true };
  if (value === null) {
    // Ascending, nulls come last: only later nulls. Descending, nulls come first: later nulls, then every value.
    return desc ? { any: [{ all: [isNull, keyPast] }, { column, op: 'isnull', value: false }] } : { all: [isNull, keyPast] };
  }
  const beyond: Condition = { column, op: past, value };
  const tie: Condition = { all: [{ column, op: 'eq', value }, keyPast] };
  return desc ? { any: [beyond, tie] } : { any: [beyond, tie, isNull] };
}
