import { isExposed } from '../rest/exposure.js';
import { fieldPolicy, type FieldPolicy } from '../rest/field-policy.js';
import type { ModelRegistry } from '../model/model-registry.js';
import type { ColumnDef, ModelDef } from '../model/types.js';

/** How the admin shows one table (Django's `ModelAdmin`, the options that matter here). */
export interface AdminModelOptions {
  /** Columns of the list page (default: the first four visible columns). */
  readonly listDisplay?: readonly string[];
  /** Text columns `?q=` searches (default: every visible text column, as REST `?search=`). */
  readonly searchFields?: readonly string[];
  /** Columns offered as list filters (default: booleans, foreign keys, dates and timestamps). */
  readonly listFilter?: readonly string[];
  /** Columns shown but never editable. */
  readonly readonlyFields?: readonly string[];
  /** Groups of the edit form: `[{ title, fields }]` (default: one group of every column). */
  readonly fieldsets?: readonly { readonly title: string; readonly fields: readonly string[] }[];
  /** Default order of the list, REST `ordering` syntax (`-created_at`). */
  readonly ordering?: string;
  /** Human name of the table (default: the table name). */
  readonly label?: string;
  /** Columns the admin never shows (besides `password_hash` and hidden columns). */
  readonly hidden?: readonly string[];
}

/** The built-in tables the admin manages; every other default-blocked table stays out. */
export const ADMIN_BUILTIN_TABLES: ReadonlySet<string> = new Set(['auth_user']);

/**
 * The tables the admin manages: those the REST exposure rules serve by default (so the
 * block-list, Portico's own tables and many-to-many junctions stay out) plus `auth_user`.
 */
export function adminTables(registry: ModelRegistry, excluded: ReadonlySet<string> = new Set()): ModelDef[] {
  const models = registry.all();
  const junctions = new Set(models.flatMap((m) => m.manyToMany.map((rel) => rel.through)));
  const exposure = { expose: new Set<string>(), exclude: new Set(excluded), junctions };
  return models.filter((m) => !excluded.has(m.table) && (ADMIN_BUILTIN_TABLES.has(m.table) || isExposed(m.table, exposure)));
}

/** The admin's field policy of a table for one caller (a write surface for the shared write path). */
export interface AdminPolicy extends FieldPolicy {
  /** True when the caller may see and set the column on a form (readable, writable, not privileged for them). */
  editable(column: string): boolean;
}

/**
 * The admin's field policy: the model's own (hidden, noform, privileged, `password_hash`) plus
 * the admin's `hidden` and `readonlyFields`; keys, server-set columns and `deleted_at` are never
 * editable (a string key only on the add form). Privileged columns (`is_staff`, `is_superuser`, …) are refused from anyone but a
 * superuser, through the same `privileged_field` error as REST.
 */
export function adminPolicy(model: ModelDef, options: AdminModelOptions, superuser: boolean, creating = false): AdminPolicy {
  const base = fieldPolicy(model, { table: model.table });
  const hidden = new Set(options.hidden ?? []);
  const readonly = new Set([...(options.readonlyFields ?? []), ...Object.keys(model.setOnCreate)]);
  // A caller-chosen key (a string id) is typed on the add form; generated keys and existing keys never change.
  if (!creating || model.pkKind !== 'string') readonly.add(model.primaryKey);
  if (model.softDelete) readonly.add('deleted_at');
  const readable = (c: string) => base.readable(c) && !hidden.has(c);
  const writable = (c: string) => readable(c) && base.writable(c) && !readonly.has(c);
  const privileged = (c: string) => !superuser && base.privileged(c);
  return { readable, writable, privileged, editable: (c) => writable(c) && !privileged(c) };
}

/** The visible columns of `model` under `policy`. */
export function visibleColumns(model: ModelDef, policy: FieldPolicy): ColumnDef[] {
  return model.columns.filter((c) => policy.readable(c.name));
}

/** The list page's columns: the configured ones that are visible, else the first four visible. */
export function listColumns(model: ModelDef, options: AdminModelOptions, policy: FieldPolicy): string[] {
  const visible = visibleColumns(model, policy).map((c) => c.name);
  const wanted = options.listDisplay?.filter((c) => visible.includes(c));
  return wanted && wanted.length > 0 ? wanted : visible.slice(0, 4);
}

/** The columns offered as list filters: configured, else booleans, foreign keys, dates and timestamps. */
export function filterColumns(model: ModelDef, options: AdminModelOptions, policy: FieldPolicy): ColumnDef[] {
  const visible = visibleColumns(model, policy);
  if (options.listFilter) return visible.filter((c) => options.listFilter?.includes(c.name));
  return visible.filter((c) => c.type === 'bool' || c.references || c.type === 'date' || c.type === 'timestamp').filter((c) => c.name !== 'deleted_at');
}

/** The text columns searched by `?q=`: configured and visible, else every visible text column. */
export function searchColumns(model: ModelDef, options: AdminModelOptions, policy: FieldPolicy): string[] {
  const text = visibleColumns(model, policy).filter((c) => c.type === 'text' || c.type === 'string').map((c) => c.name);
  return options.searchFields ? options.searchFields.filter((c) => text.includes(c)) : text;
}

/** Built-in tables first (authentication), then the app's. */
export function adminGroup(table: string): 'Authentication' | 'Application' {
  return ADMIN_BUILTIN_TABLES.has(table) ? 'Authentication' : 'Application';
}

/** A row's display name: its first visible text column that is not a key, else `table #key`. */
export function labelColumn(model: ModelDef, policy: FieldPolicy): string | undefined {
  const preferred = ['name', 'title', 'username', 'label'];
  const text = visibleColumns(model, policy).filter((c) => (c.type === 'text' || c.type === 'string') && !c.primary);
  return (preferred.map((p) => text.find((c) => c.name === p)).find((c) => c) ?? text[0])?.name;
}
