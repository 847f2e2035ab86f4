import type { Dialect } from '../../../domain/model/migration.js';
import { columnOf } from '../../../domain/model/model-registry.js';
import type { ModelDef, Value } from '../../../domain/model/types.js';
import type { Condition, OrderTerm } from '../../../domain/query/condition.js';
import { encodeValue } from './sql-codec.js';
import { cappedMemo } from './capped-memo.js';

/** A SQL fragment with `?` placeholders and its bindings. */
export interface SqlFragment {
  readonly sql: string;
  readonly bindings: unknown[];
}

/** Quoted identifiers by name: the registry's names are few and quoted on every statement. */
const quoted = new Map<string, string>();
const MAX_QUOTED = 10_000;

/** Quotes an identifier (names are validated by the registry, quoting is belt and braces). */
export function quote(name: string): string {
  return cappedMemo(quoted, MAX_QUOTED, name, name, quoteName);
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const COMPARE = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** Renders a validated condition for `dialect`; text matches are case-sensitive except icontains. */
export function conditionSql(model: ModelDef, cond: Condition, dialect: Dialect): SqlFragment {
  if ('all' in cond || 'any' in cond) {
    const parts = ('all' in cond ? cond.all : cond.any).map((c) => conditionSql(model, c, dialect));
    if (parts.length === 0) return { sql: 'all' in cond ? '1 = 1' : '1 = 0', bindings: [] };
    return {
      sql: `(${parts.map((p) => p.sql).join('all' in cond ? ' and ' : ' or ')})`,
      bindings: parts.flatMap((p) => p.bindings),
    };
  }
  if ('not' in cond) {
    const inner = conditionSql(model, cond.not, dialect);
    return { sql: `not (${inner.sql})`, bindings: inner.bindings };
  }
  const col = columnOf(model, cond.column);
  if (!col) throw new Error(`unvalidated column ${cond.column}`);
  const c = quote(col.name);
  const enc = (v: Value): unknown => encodeValue(col, v, dialect);
  const find = dialect === 'sqlite' ? 'instr' : 'strpos';
  switch (cond.op) {
    case 'isnull':
      return { sql: `${c} is ${cond.value ? '' : 'not '}null`, bindings: [] };
    case 'in': {
      const values = cond.value as readonly Value[];
      if (values.length === 0) return { sql: '1 = 0', bindings: [] };
      // On PostgreSQL one array parameter: the same statement text (one prepared statement) for any
      // number of values, and cheaper for the server to bind and plan than a list of parameters.
      if (dialect === 'postgresql') return { sql: `${c} = any(?)`, bindings: [values.map(enc)] };
      return { sql: `${c} in (${values.map(() => '?').join(', ')})`, bindings: values.map(enc) };
    }
    case 'iexact':
      return { sql: `lower(${c}) = lower(?)`, bindings: [cond.value] };
    case 'contains':
      return { sql: `${find}(${c}, ?) > 0`, bindings: [cond.value] };
    case 'icontains':
      return { sql: `${find}(lower(${c}), lower(?)) > 0`, bindings: [cond.value] };
    case 'startswith':
      return { sql: `${find}(${c}, ?) = 1`, bindings: [cond.value] };
    default:
      return { sql: `${c} ${COMPARE[cond.op]} ?`, bindings: [enc(cond.value as Value)] };
  }
}

/** ORDER BY terms with PostgreSQL's null placement on both dialects (nulls are largest). */
export function orderSql(terms: readonly OrderTerm[]): string {
  return terms.map((t) => `${quote(t.column)} ${t.direction} nulls ${t.direction === 'asc' ? 'last' : 'first'}`).join(', ');
}
