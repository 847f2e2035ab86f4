import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../../domain/model/types.js';
import { parseTimestampText } from '../../../domain/model/values.js';

/** Converts a canonical domain value to what the driver stores. */
export function encodeValue(col: ColumnDef, v: Value, dialect: Dialect): unknown {
  if (v === null) return null;
  switch (col.type) {
    case 'bool':
      return dialect === 'sqlite' ? (v ? 1 : 0) : v;
    case 'timestamp':
      return dialect === 'sqlite' ? (v as Date).getTime() : (v as Date).toISOString();
    case 'json':
      return JSON.stringify(v);
    case 'bigint':
      // node-sqlite3 reads integers as JS numbers: refuse what it would silently round.
      if (dialect === 'sqlite' && !Number.isSafeInteger(Number(v))) {
        throw new DomainError('invalid_input', `${col.name} is out of range for SQLite (max 2^53-1)`, [
          { field: col.name, message: 'out of range for this database' },
        ]);
      }
      return v;
    default:
      return v;
  }
}

/** Converts a driver value back to the canonical domain value of the column. */
export function decodeValue(col: ColumnDef, raw: unknown): Value {
  if (raw === null || raw === undefined) return null;
  switch (col.type) {
    case 'int':
    case 'float':
      return typeof raw === 'number' ? raw : Number(raw);
    case 'bigint':
    case 'decimal':
      return String(raw);
    case 'bool':
      return raw === true || raw === 1 || raw === '1' || raw === 't';
    case 'timestamp':
      if (raw instanceof Date) return raw;
      if (typeof raw === 'number') return new Date(raw);
      if (typeof raw === 'string' && /^\d+$/.test(raw)) return new Date(Number(raw));
      return parseTimestampText(String(raw));
    case 'date':
      return raw instanceof Date ? raw.toISOString().slice(0, 10) : String(raw).slice(0, 10);
    case 'json':
      return typeof raw === 'string' ? (JSON.parse(raw) as Value) : (raw as Value);
    default:
      return String(raw);
  }
}

/** Encodes every present column of a row. */
export function encodeRow(model: ModelDef, row: Row, dialect: Dialect): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const col of model.columns) {
    const v = row[col.name];
    if (v !== undefined) out[col.name] = encodeValue(col, v, dialect);
  }
  return out;
}

/** Decodes a driver row into a domain row with every column of the model (or the `columns` read). */
export function decodeRow(model: ModelDef, raw: Record<string, unknown>, columns: readonly ColumnDef[] = model.columns): Row {
  const out: Row = {};
  for (const col of columns) out[col.name] = decodeValue(col, raw[col.name]);
  return out;
}

/**
 * Decodes, in place, a driver row that holds exactly `columns` (a statement that named them): the
 * driver's fresh object becomes the row, without a copy per row.
 */
export function decodeRowInPlace(raw: Record<string, unknown>, columns: readonly ColumnDef[]): Row {
  for (const col of columns) raw[col.name] = decodeValue(col, raw[col.name]);
  return raw as Row;
}
