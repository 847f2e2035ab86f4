import type { FieldError } from '../errors/domain-error.js';
import type { ColumnDef, ModelDef, Row, Value } from '../model/types.js';
import { normalizeValue } from '../model/values.js';

/** Fields of a posted HTML form (first value of each name). */
export type FormFields = Readonly<Record<string, string | undefined>>;

/** What a form becomes: the body for the write path, and the problems found converting it. */
export interface ParsedForm {
  readonly body: Record<string, unknown>;
  readonly errors: FieldError[];
}

const ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * One form value to a column value. An empty field is null on a nullable column (and no value
 * otherwise, so the default or the store's not-null check applies); a checkbox is `on` or absent;
 * numbers are parsed; JSON is parsed; a `datetime-local` value without a zone is UTC.
 */
export function formValue(col: ColumnDef, text: string | undefined): { value?: Value; error?: string } {
  if (col.type === 'bool') return { value: text !== undefined && text !== '' && text !== 'off' && text !== 'false' };
  if (text === undefined) return {};
  const trimmed = col.type === 'text' || col.type === 'string' ? text : text.trim();
  if (trimmed === '') return col.nullable ? { value: null } : col.type === 'text' || col.type === 'string' ? { value: '' } : {};
  let raw: unknown = trimmed;
  if (col.type === 'int' || col.type === 'float') {
    raw = Number(trimmed);
    if (!Number.isFinite(raw as number)) return { error: 'must be a number' };
  } else if (col.type === 'json') {
    try {
      raw = JSON.parse(trimmed);
    } catch {
      return { error: 'must be valid JSON' };
    }
  } else if (col.type === 'timestamp' && !ZONE.test(trimmed)) {
    raw = `${trimmed.length === 16 ? `${trimmed}:00` : trimmed}Z`;
  }
  const checked = normalizeValue(col, raw);
  return checked.ok ? { value: checked.value } : { error: checked.message };
}

/**
 * Converts the posted fields of `model` to a write body. Only columns of the model are taken
 * (everything posted, so a crafted privileged field reaches the write path's refusal); booleans
 * the caller may edit become false when their checkbox is absent. Many-to-many relations are
 * posted as `<relation>.<n>` checkboxes and become id lists.
 */
export function parseForm(model: ModelDef, fields: FormFields, editable: (column: string) => boolean): ParsedForm {
  const body: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const col of model.columns) {
    const posted = fields[col.name];
    if (posted === undefined && !(col.type === 'bool' && editable(col.name))) continue;
    const { value, error } = formValue(col, posted);
    if (error) errors.push({ field: col.name, message: error });
    else if (value !== undefined) body[col.name] = value;
  }
  for (const rel of model.manyToMany) {
    if (fields[`${rel.name}.present`] === undefined) continue;
    body[rel.name] = Object.entries(fields)
      .filter(([k, v]) => k.startsWith(`${rel.name}.`) && k !== `${rel.name}.present` && v !== undefined && v !== '')
      .map(([, v]) => v as string);
  }
  return { body, errors };
}

/** The values to show back on a form: what was posted (kept after an error), else the stored row. */
export function formShown(row: Row | undefined, fields: FormFields | undefined, column: string): string {
  if (fields) return fields[column] ?? '';
  const v = row?.[column];
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 19);
  if (typeof v === 'object') return JSON.stringify(v, null, 2);
  return String(v);
}
