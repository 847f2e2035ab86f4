import type { ModelDef, Row, Value } from '../model/types.js';
import { compiledLiteral, key, storeKey } from '../model/object-builders.js';
import { jsonTimestamp } from '../model/values.js';
import type { FieldConfig } from './resource-config.js';

/** Never returned and never written through any API (SPEC "Model resource" 2). */
export const PASSWORD_HASH = 'password_hash';

/** Privileged on every table (DESIGN §3 "field policy on writes"). */
export const ALWAYS_PRIVILEGED: ReadonlySet<string> = new Set(['is_staff', 'is_superuser']);

/**
 * Columns hidden by default when a table REST does not serve appears under `?include`
 * (DESIGN §3 "include": `auth_user` hides contact data).
 */
export const DEFAULT_HIDDEN: Readonly<Record<string, readonly string[]>> = {
  auth_user: ['email', 'last_login', 'email_verified_at'],
};

/** The field policy of one table: what may be read and what may be written. */
export interface FieldPolicy {
  /** True when the column may appear in a response. */
  readable(column: string): boolean;
  /** True when a write body may carry the column (silently stripped otherwise). */
  writable(column: string): boolean;
  /** True when an untrusted write body must not set the column (400 privileged_field). */
  privileged(column: string): boolean;
}

/**
 * Builds the field policy of a model under an optional resource configuration: `password_hash`
 * is never readable or writable; hidden columns (model flag or `hide`) are neither; `noform`
 * columns are not writable; privileged columns (model flag, `is_staff`, `is_superuser`, or the
 * resource's list) are refused from untrusted bodies.
 */
export function fieldPolicy(model: ModelDef, config?: FieldConfig): FieldPolicy {
  const hidden = new Set([...(config?.hide ?? (config ? [] : (DEFAULT_HIDDEN[model.table] ?? []))), ...model.columns.filter((c) => c.hidden).map((c) => c.name)]);
  const noform = new Set([...(config?.noform ?? []), ...model.columns.filter((c) => c.noform).map((c) => c.name)]);
  const privileged = new Set([...ALWAYS_PRIVILEGED, ...(config?.privileged ?? []), ...model.columns.filter((c) => c.privileged).map((c) => c.name)]);
  const readable = (column: string) => column !== PASSWORD_HASH && !hidden.has(column);
  return {
    readable,
    writable: (column) => readable(column) && !noform.has(column),
    privileged: (column) => privileged.has(column),
  };
}

/**
 * The row as a caller may see it: unreadable columns removed, transforms applied, computed fields
 * added. With `asJson` (the row is about to be written as JSON), timestamps come out as the ISO
 * 8601 text JSON would write for them: the same bytes, formatted here for less than
 * `Date.prototype.toJSON` costs.
 */
export function presentRow(model: ModelDef, row: Row, policy: FieldPolicy, config?: FieldConfig, asJson = false): Record<string, Value> {
  const plan = presentationOf(model, policy, config);
  const present = asJson ? (plan.asJson ??= presenter(plan, true)) : (plan.asValues ??= presenter(plan, false));
  return present(row);
}

type Present = (row: Row) => Record<string, Value>;
type Transform = NonNullable<FieldConfig['transform']>[string];
type Computed = NonNullable<FieldConfig['computed']>[string];

/** A timestamp as JSON writes it; anything else as it is. */
const asJsonValue = (v: Value): Value => (v instanceof Date ? jsonTimestamp(v) : v);

/**
 * Presents rows as `plan` says: a compiled object literal of the readable columns and computed
 * fields (`objectBuilder`'s way: its loads and stores see rows of one table only), or one key at a
 * time where none can be compiled.
 */
function presenter(plan: Presentation, asJson: boolean): Present {
  const transforms = plan.columns.map(([, transform]) => transform);
  const computed = plan.computed.map(([, fn]) => fn);
  const entries: [string, string][] = plan.columns.map(([name, transform, timestamp], i) => {
    const read = `(r[${key(name)}] ?? null)`;
    return [name, transform ? `(0, t[${i}])(${read}, r)` : asJson && timestamp ? `ts(${read})` : read];
  });
  plan.computed.forEach(([name], i) => entries.push([name, `(0, c[${i}])(r)`]));
  const compiled = compiledLiteral<(r: Row, t: typeof transforms, c: typeof computed, ts: typeof asJsonValue) => Record<string, Value>>(['r', 't', 'c', 'ts'], entries);
  if (compiled) return (row) => compiled(row, transforms, computed, asJsonValue);
  return (row) => {
    const out: Record<string, Value> = {};
    for (const [name, transform, timestamp] of plan.columns) {
      const v = row[name] ?? null;
      storeKey(out, name, transform ? transform(v, row) : asJson && timestamp ? asJsonValue(v) : v);
    }
    for (const [name, fn] of plan.computed) storeKey(out, name, fn(row));
    return out;
  };
}

/** What presenting a row of one model under one policy and configuration does, worked out once. */
interface Presentation {
  readonly model: ModelDef;
  readonly config: FieldConfig | undefined;
  readonly columns: readonly (readonly [string, Transform | undefined, boolean])[];
  readonly computed: readonly (readonly [string, Computed])[];
  /** Made on first use, for rows written as JSON and for rows handed to code. */
  asJson?: Present;
  asValues?: Present;
}

const presentations = new WeakMap<FieldPolicy, Presentation>();

/** The readable columns (with their transforms) and computed fields, cached by policy (a policy belongs to one model and configuration). */
function presentationOf(model: ModelDef, policy: FieldPolicy, config: FieldConfig | undefined): Presentation {
  const cached = presentations.get(policy);
  if (cached && cached.model === model && cached.config === config) return cached;
  const plan: Presentation = {
    model,
    config,
    columns: model.columns.filter((col) => policy.readable(col.name)).map((col) => [col.name, config?.transform?.[col.name], col.type === 'timestamp'] as const),
    computed: Object.entries(config?.computed ?? {}).filter(([name]) => name !== PASSWORD_HASH),
  };
  presentations.set(policy, plan);
  return plan;
}
