import { keyText } from '../../../application/rest/m2m-links.js';
import type { ColumnDef, Value } from '../../../domain/model/types.js';
import { isStoredFileValue } from '../../../domain/storage/file-value.js';
import { html, type Part } from './html.js';

/** One value as list-cell text: dates in ISO form, booleans as yes/no, JSON compact, null as a dash. */
export function cellText(col: ColumnDef | undefined, v: Value | undefined): string {
  if (v === null || v === undefined) return '—';
  if (v instanceof Date) return v.toISOString().replace('T', ' ').slice(0, 19);
  if (col?.type === 'bool') return v ? 'yes' : 'no';
  if (col?.file && isStoredFileValue(v)) return `${v.name} (${v.size} bytes)`;
  if (typeof v === 'object') return JSON.stringify(v);
  const text = String(v);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/** The cell of a foreign key: the target's display name when known. */
export function fkCell(labels: ReadonlyMap<string, string> | undefined, v: Value | undefined): Part {
  if (v === null || v === undefined) return '—';
  return labels?.get(keyText(v)) ?? keyText(v);
}

/** The URL segment of a row key. */
export const keyPath = (v: Value | undefined): string => encodeURIComponent(keyText(v ?? ''));

export { html };
