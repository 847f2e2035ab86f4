import type { ModelDef, Row, Value } from '../model/types.js';
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

/** The row as a caller may see it: unreadable columns removed, transforms applied, computed fields added. */
export function presentRow(model: ModelDef, row: Row, policy: FieldPolicy, config?: FieldConfig): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const col of model.columns) {
    if (!policy.readable(col.name)) continue;
    const v = row[col.name] ?? null;
    const transform = config?.transform?.[col.name];
    out[col.name] = transform ? transform(v, row) : v;
  }
  for (const [name, fn] of Object.entries(config?.computed ?? {})) {
    if (name !== PASSWORD_HASH) out[name] = fn(row);
  }
  return out;
}
