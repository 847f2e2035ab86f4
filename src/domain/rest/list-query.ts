import { DomainError } from '../errors/domain-error.js';
import type { ModelRegistry } from '../model/model-registry.js';
import { columnOf } from '../model/model-registry.js';
import type { ColumnDef, ModelDef, Value } from '../model/types.js';
import { normalizeValue } from '../model/values.js';
import type { Condition, Operator, OrderTerm } from '../query/condition.js';

/**
 * A parsed REST list request (DESIGN §3 "list envelope", "filtering", "include", "limits"):
 * what the store is asked for, plus which relations to hydrate and which columns to project.
 * Every column named here is one the caller may see.
 *
 * @example
 * // GET /api/post?title__icontains=ts&ordering=-score&limit=10&include=author
 * { where: { column: 'title', op: 'icontains', value: 'ts' },
 *   orderBy: [{ column: 'score', direction: 'desc' }, { column: 'id', direction: 'asc' }],
 *   limit: 10, offset: 0, include: [['author']] }
 */
export interface ListQuery {
  /** AND of every filter, plus the `?search=` OR-group; absent when nothing filters. */
  readonly where?: Condition;
  /** From `?ordering=`, always ending with the primary key ascending (unless already present); default `[pk asc]`. */
  readonly orderBy: readonly OrderTerm[];
  /** `?limit=`, default 100, clamped to at most 1000 (DESIGN §3 "limits"). */
  readonly limit: number;
  /** `?offset=`, default 0. */
  readonly offset: number;
  /**
   * `?include=author,post.author` → `[['author'], ['post', 'author']]`; at most 3 hops each; the
   * last hop may be a many-to-many relation (`?include=tags`: the linked target ids).
   */
  readonly include: readonly (readonly string[])[];
  /** `?fields=id,title` projection (visible columns only); absent means every visible column. */
  readonly fields?: readonly string[];
}

/** What {@link parseListQuery} needs to know about the resource being listed (DESIGN §3 "filtering"). */
export interface ListQueryContext {
  readonly registry: ModelRegistry;
  readonly model: ModelDef;
  /** True when column `name` of `table` may be seen by the caller (not hidden, not password_hash). */
  readonly visible: (table: string, column: string) => boolean;
}

/** Default page size of a REST list (DESIGN §3 "list envelope"). */
export const DEFAULT_LIST_LIMIT = 100;
/** Largest page size of a REST list; larger `?limit=` values are clamped to it (DESIGN §3 "limits"). */
export const MAX_LIST_LIMIT = 1000;
/** Longest relation path `?include=` accepts (DESIGN §3 "include"). */
export const MAX_INCLUDE_HOPS = 3;
/** Query parameters that are not column filters (DESIGN §3 "list envelope", "filtering", "include"). */
export const RESERVED_LIST_PARAMS: readonly string[] = ['limit', 'offset', 'ordering', 'search', 'include', 'fields'];

type Lookup = Exclude<Operator, 'eq'>;
const LOOKUPS: ReadonlySet<string> = new Set<Lookup>([
  'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'icontains', 'iexact', 'startswith', 'isnull',
]);
const TEXT_ONLY: ReadonlySet<Operator> = new Set<Operator>(['contains', 'icontains', 'iexact', 'startswith']);
const RESERVED: ReadonlySet<string> = new Set(RESERVED_LIST_PARAMS);

const INTEGER_TEXT = /^-?\d+$/;
const FLOAT_TEXT = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const NON_NEGATIVE_INTEGER = /^\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The one error every refused list parameter answers. The message names only the parameter as
 * the caller wrote it, identical for an unknown column, a hidden one and an uncoercible value,
 * so nothing hidden can be probed (DESIGN §3 "filtering").
 */
/**
 * A refused query parameter. `why` names the offending value and the rule; it reads the same for
 * a hidden column as for an unknown one, so nothing hidden can be probed.
 */
function invalid(param: string, why?: string): DomainError {
  return new DomainError('invalid_query', `invalid query parameter "${param}"${why ? `: ${why}` : ''}`);
}

/** The caller's value, quoted and cut short, for an error message. */
const shown = (value: string): string => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

function canSee(ctx: ListQueryContext, table: string, col: ColumnDef): boolean {
  return !col.hidden && col.name !== 'password_hash' && ctx.visible(table, col.name);
}

function isText(col: ColumnDef): boolean {
  return col.type === 'text' || col.type === 'string';
}

function checked(col: ColumnDef, v: unknown): Value | undefined {
  const r = normalizeValue(col, v);
  return r.ok ? r.value : undefined;
}

/**
 * Coerces a query-string value to the domain value of `col` (DESIGN §3 "filtering"), or
 * returns undefined when it cannot be coerced. int → number (safe integers); bigint → canonical
 * digit string (64-bit range); float → number; decimal → its digit text; bool → `true/false/1/0`;
 * text/string → as is; date → `YYYY-MM-DD`; timestamp → Date from ISO 8601 (a bare date is
 * midnight UTC); uuid → lower-cased; json is not filterable (always undefined).
 *
 * @example
 * parseTextValue(intCol, '42');          // 42
 * parseTextValue(intCol, '4.2');         // undefined
 * parseTextValue(boolCol, '0');          // false
 */
export function parseTextValue(col: ColumnDef, text: string): Value | undefined {
  switch (col.type) {
    case 'int': {
      if (!INTEGER_TEXT.test(text)) return undefined;
      const n = Number(text);
      return Number.isSafeInteger(n) ? checked(col, n === 0 ? 0 : n) : undefined;
    }
    case 'bigint': {
      if (!INTEGER_TEXT.test(text)) return undefined;
      const n = BigInt(text);
      return n < INT64_MIN || n > INT64_MAX ? undefined : checked(col, n.toString());
    }
    case 'float': {
      if (!FLOAT_TEXT.test(text)) return undefined;
      const n = Number(text);
      return Number.isFinite(n) ? checked(col, n === 0 ? 0 : n) : undefined;
    }
    case 'decimal':
      return DECIMAL_TEXT.test(text) ? checked(col, text) : undefined;
    case 'bool':
      return parseBoolFlag(text);
    case 'text':
    case 'string':
      return checked(col, text);
    case 'date':
      return DATE_TEXT.test(text) ? checked(col, text) : undefined;
    case 'timestamp':
      // V8 rolls `2024-02-30T…` over to March: check the calendar date first.
      if (!isCalendarDate(text.slice(0, 10))) return undefined;
      if (text.length === 10) return checked(col, new Date(`${text}T00:00:00Z`));
      return TIMESTAMP_TEXT.test(text) ? checked(col, text) : undefined;
    case 'uuid':
      return checked(col, text);
    case 'json':
      return undefined;
  }
}

function isCalendarDate(text: string): boolean {
  if (!DATE_TEXT.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function parseBoolFlag(text: string): boolean | undefined {
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  return undefined;
}

/** Splits a comma list where every item must be non-empty (ordering, include, fields). */
function items(param: string, text: string): string[] {
  const parts = text.split(',');
  if (parts.some((p) => p === '')) throw invalid(param);
  return parts;
}

function parseFilter(param: string, text: string, ctx: ListQueryContext): Condition {
  const { model } = ctx;
  let col = columnOf(model, param);
  let op: Operator = 'eq';
  if (!col) {
    const cut = param.lastIndexOf('__');
    if (cut <= 0) throw invalid(param);
    const lookup = param.slice(cut + 2);
    if (!LOOKUPS.has(lookup)) throw invalid(param);
    op = lookup as Lookup;
    col = columnOf(model, param.slice(0, cut));
  }
  if (!col || !canSee(ctx, model.table, col)) throw invalid(param);
  if (op === 'isnull') {
    const flag = parseBoolFlag(text);
    if (flag === undefined) throw invalid(param);
    return { column: col.name, op, value: flag };
  }
  if (col.type === 'json') throw invalid(param);
  if (TEXT_ONLY.has(op) && !isText(col)) throw invalid(param);
  if (op === 'in') {
    const values: Value[] = [];
    for (const item of text === '' ? [] : text.split(',')) {
      const v = parseTextValue(col, item);
      if (v === undefined) throw invalid(param);
      values.push(v);
    }
    return { column: col.name, op, value: values };
  }
  const value = parseTextValue(col, text);
  if (value === undefined) throw invalid(param);
  return { column: col.name, op, value };
}

function parseSearch(text: string, ctx: ListQueryContext): Condition | undefined {
  if (text === '') return undefined;
  const any: Condition[] = ctx.model.columns
    .filter((col) => isText(col) && canSee(ctx, ctx.model.table, col))
    .map((col) => ({ column: col.name, op: 'icontains', value: text }));
  return any.length === 0 ? undefined : { any };
}

function parseOrdering(text: string | undefined, ctx: ListQueryContext): OrderTerm[] {
  const { model } = ctx;
  const terms: OrderTerm[] = [];
  if (text !== undefined) {
    for (const item of items('ordering', text)) {
      const desc = item.startsWith('-');
      const col = columnOf(model, desc ? item.slice(1) : item);
      if (!col || col.type === 'json' || !canSee(ctx, model.table, col)) throw invalid('ordering', `${shown(item)} is not a column ${model.table} can be ordered by`);
      if (terms.some((t) => t.column === col.name)) throw invalid('ordering', `${shown(col.name)} appears twice`);
      terms.push({ column: col.name, direction: desc ? 'desc' : 'asc' });
    }
  }
  if (!terms.some((t) => t.column === model.primaryKey)) terms.push({ column: model.primaryKey, direction: 'asc' });
  return terms;
}

function parseCount(param: 'limit' | 'offset', text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!NON_NEGATIVE_INTEGER.test(text)) throw invalid(param, `${shown(text)} is not a non-negative integer`);
  const n = Number(text);
  if (param === 'limit') return Math.min(n, MAX_LIST_LIMIT);
  if (!Number.isSafeInteger(n)) throw invalid(param, `${shown(text)} is too large`);
  return n;
}

/** Why `hop` is no relation `include` can follow from `model`: the relations it can follow, named. */
function notARelation(ctx: ListQueryContext, model: ModelDef, hop: string): DomainError {
  const forward = model.columns.filter((col) => col.references && canSee(ctx, model.table, col)).map((col) => col.references?.relation);
  const links = model.manyToMany.filter((rel) => ctx.visible(model.table, rel.name)).map((rel) => rel.name);
  const named = (list: readonly unknown[]) => (list.length > 0 ? list.join(', ') : 'it has none');
  return invalid('include', `${shown(hop)} is not a relation of ${model.table}; include follows foreign keys (${named(forward)}) and many-to-many relations (${named(links)}), not reverse relations`);
}

/**
 * One `include` path: each hop a visible foreign key of the model reached so far, the last hop
 * possibly a many-to-many relation (its target ids, DESIGN §3 "block-list": links are read
 * through the owning resource).
 */
function parseIncludePath(item: string, ctx: ListQueryContext): string[] {
  const hops = item.split('.');
  if (hops.length > MAX_INCLUDE_HOPS) throw invalid('include', `${shown(item)} follows more than ${MAX_INCLUDE_HOPS} relations`);
  let model: ModelDef | undefined = ctx.model;
  for (const [i, hop] of hops.entries()) {
    const here: ModelDef = model;
    const m2m = here.manyToMany.find((rel) => rel.name === hop && ctx.visible(here.table, rel.name));
    if (m2m) {
      if (i < hops.length - 1) throw invalid('include', `${shown(hop)} is a many-to-many relation of ${here.table}: include lists its ${m2m.target} ids and cannot follow it further`);
      break;
    }
    const fk: ColumnDef | undefined = here.columns.find((col) => col.references?.relation === hop);
    if (!fk?.references || !canSee(ctx, here.table, fk)) throw notARelation(ctx, here, hop);
    model = ctx.registry.get(fk.references.table);
    if (!model) throw invalid('include', `${shown(hop)} leads to no model`);
  }
  return hops;
}

function parseInclude(text: string | undefined, ctx: ListQueryContext): string[][] {
  if (text === undefined) return [];
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const item of items('include', text)) {
    const hops = parseIncludePath(item, ctx);
    if (!seen.has(item)) {
      seen.add(item);
      out.push(hops);
    }
  }
  return out;
}

function parseFields(text: string | undefined, ctx: ListQueryContext): string[] | undefined {
  if (text === undefined) return undefined;
  const out: string[] = [];
  for (const item of items('fields', text)) {
    const col = columnOf(ctx.model, item);
    if (!col || !canSee(ctx, ctx.model.table, col)) throw invalid('fields');
    if (!out.includes(col.name)) out.push(col.name);
  }
  return out;
}

/**
 * Parses the query parameters of a REST list request into a {@link ListQuery}
 * (DESIGN §3 "list envelope", "filtering", "include", "limits").
 *
 * Reserved parameters are `limit`, `offset`, `ordering`, `search`, `include` and `fields`;
 * every other parameter is a filter `col=v` or `col__<lookup>=v`. Nothing is dropped silently:
 * a repeated parameter, an unknown or invisible column, an unknown lookup, an uncoercible value,
 * or a malformed reserved parameter throws `DomainError('invalid_query')` whose message names
 * only the parameter as given.
 *
 * @example
 * parseListQuery({ published: 'true', ordering: '-score', limit: '5000' }, ctx);
 * // { where: { column: 'published', op: 'eq', value: true },
 * //   orderBy: [{ column: 'score', direction: 'desc' }, { column: 'id', direction: 'asc' }],
 * //   limit: 1000, offset: 0, include: [] }
 */
export function parseListQuery(
  params: Readonly<Record<string, string | string[] | undefined>>,
  ctx: ListQueryContext,
): ListQuery {
  const reserved = new Map<string, string>();
  const filters: Condition[] = [];
  for (const [param, raw] of Object.entries(params)) {
    if (raw === undefined) continue;
    if (typeof raw !== 'string') throw invalid(param);
    if (RESERVED.has(param)) reserved.set(param, raw);
    else filters.push(parseFilter(param, raw, ctx));
  }
  const search = reserved.get('search');
  const searchCondition = search === undefined ? undefined : parseSearch(search, ctx);
  if (searchCondition) filters.push(searchCondition);
  const where: Condition | undefined = filters.length === 0 ? undefined : filters.length === 1 ? filters[0] : { all: filters };
  const fields = parseFields(reserved.get('fields'), ctx);
  return {
    ...(where ? { where } : {}),
    orderBy: parseOrdering(reserved.get('ordering'), ctx),
    limit: parseCount('limit', reserved.get('limit'), DEFAULT_LIST_LIMIT),
    offset: parseCount('offset', reserved.get('offset'), 0),
    include: parseInclude(reserved.get('include'), ctx),
    ...(fields ? { fields } : {}),
  };
}
