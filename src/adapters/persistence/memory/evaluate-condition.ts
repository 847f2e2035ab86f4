import { columnOf } from '../../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../../domain/model/types.js';
import { compareValues } from '../../../domain/model/values.js';
import type { Condition } from '../../../domain/query/condition.js';

/** SQL's three-valued logic: null is "unknown", and only `true` selects a row. */
type Truth = boolean | null;

function same(a: Value, b: Value): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** Evaluates a (validated, canonical) condition against a row the way SQL would. */
export function evaluate(model: ModelDef, cond: Condition, row: Row): Truth {
  if ('all' in cond) {
    let result: Truth = true;
    for (const c of cond.all) {
      const t = evaluate(model, c, row);
      if (t === false) return false;
      if (t === null) result = null;
    }
    return result;
  }
  if ('any' in cond) {
    let result: Truth = false;
    for (const c of cond.any) {
      const t = evaluate(model, c, row);
      if (t === true) return true;
      if (t === null) result = null;
    }
    return result;
  }
  if ('not' in cond) {
    const t = evaluate(model, cond.not, row);
    return t === null ? null : !t;
  }
  const v = row[cond.column] ?? null;
  if (cond.op === 'isnull') return (v === null) === cond.value;
  if (v === null) return null;
  const type = columnOf(model, cond.column)?.type ?? 'text';
  const arg = cond.value as Value;
  switch (cond.op) {
    case 'eq':
      return same(v, arg);
    case 'iexact':
      return String(v).toLowerCase() === String(arg).toLowerCase();
    case 'ne':
      return !same(v, arg);
    case 'gt':
      return compareValues(type, v, arg) > 0;
    case 'gte':
      return compareValues(type, v, arg) >= 0;
    case 'lt':
      return compareValues(type, v, arg) < 0;
    case 'lte':
      return compareValues(type, v, arg) <= 0;
    case 'in':
      return (cond.value as readonly Value[]).some((x) => same(v, x));
    case 'contains':
      return String(v).includes(String(arg));
    case 'icontains':
      return String(v).toLowerCase().includes(String(arg).toLowerCase());
    case 'startswith':
      return String(v).startsWith(String(arg));
  }
}
