import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../../domain/model/types.js';
import { compiled, key, storeKey } from '../../../domain/model/object-builders.js';
import { parseTimestampText } from '../../../domain/model/values.js';
import { cappedMemo } from './capped-memo.js';

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
 * Decodes, in place, rows that hold exactly `columns` (a statement that named them): the driver's
 * fresh objects become the rows, without a copy per row. A value the decoding leaves as it is (most
 * of them on PostgreSQL: text, integers, dates the driver parsed) is not stored again.
 *
 * The work is compiled per list of columns (`compiled`: a load, a decode and at most a store per
 * column, each by its name), so each load and store sees rows of one shape; a loop over the columns
 * by name is one site for every table, where V8 takes its slowest path (docs/performance.md,
 * "Objects built by their shape"). The loop remains where code may not be compiled from strings.
 * `kept`: `columns` is an array kept unchanged for the life of the process (a model's own
 * `columns`), so its decoder is found by the array's identity rather than by a key made of it.
 */
export function decodeRowsInPlace(rows: readonly Record<string, unknown>[], columns: readonly ColumnDef[], kept = false): Row[] {
  if (rows.length > 0) {
    const decode = decoderOf(columns, kept);
    for (let i = 0; i < rows.length; i++) decode(rows[i] as Record<string, unknown>, columns, decodeValue);
  }
  return rows as Row[];
}

type RowDecoder = (row: Record<string, unknown>, columns: readonly ColumnDef[], decode: typeof decodeValue) => void;

/** Compiled decoders by their columns' names and types (bounded: past the limit, the rest are compiled each time). */
const decoders = new Map<string, RowDecoder>();
const MAX_DECODERS = 2_000;

/** The decoders of column lists kept for the life of the process (a model's own `columns`), by identity. */
const keptDecoders = new WeakMap<readonly ColumnDef[], RowDecoder>();

function decoderOf(columns: readonly ColumnDef[], kept: boolean): RowDecoder {
  let decoder = kept ? keptDecoders.get(columns) : undefined;
  if (decoder === undefined) {
    let id = '';
    for (const col of columns) id += `${col.name}\u0000${col.type}\u0000`;
    decoder = cappedMemo(decoders, MAX_DECODERS, id, columns, compiledDecoder);
    if (kept) keptDecoders.set(columns, decoder);
  }
  return decoder;
}

function compiledDecoder(columns: readonly ColumnDef[]): RowDecoder {
  const body = columns.map((col, i) => `v = r[${key(col.name)}]; x = d(c[${i}], v); if (x !== v) r[${key(col.name)}] = x;`).join('\n');
  return (columns.some((col) => col.name === '__proto__') ? undefined : compiled<RowDecoder>(['r', 'c', 'd'], `let v, x;\n${body}`)) ?? decodeEachColumn;
}

function decodeEachColumn(row: Record<string, unknown>, columns: readonly ColumnDef[], decode: typeof decodeValue): void {
  for (const col of columns) {
    const value = row[col.name];
    const decoded = decode(col, value);
    if (decoded !== value) storeKey(row, col.name, decoded);
  }
}
