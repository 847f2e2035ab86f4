import type { ColumnState, Dialect, MigrationOperation, MigrationStep, TableState } from '../../../domain/model/migration.js';
import { applyOperation, MigrationError, tableStateOf, type SchemaState } from '../../../domain/model/schema-state.js';
import type { ColumnType, JsonValue, ModelDef } from '../../../domain/model/types.js';
import { quote } from './condition-sql.js';

const SQLITE_TYPES: Record<ColumnType, string> = {
  int: 'integer',
  bigint: 'integer',
  text: 'text',
  string: 'varchar(255)',
  bool: 'integer',
  float: 'real',
  decimal: 'numeric',
  date: 'date',
  // Stored as epoch milliseconds, the representation MikroORM uses on SQLite.
  timestamp: 'datetime',
  json: 'json',
  uuid: 'uuid',
};

const PG_TYPES: Record<ColumnType, string> = {
  int: 'integer',
  bigint: 'bigint',
  text: 'text',
  string: 'varchar(255)',
  bool: 'boolean',
  float: 'double precision',
  decimal: 'numeric',
  date: 'date',
  timestamp: 'timestamptz',
  json: 'jsonb',
  uuid: 'uuid',
};

const typeOf = (col: ColumnState, dialect: Dialect): string => (dialect === 'sqlite' ? SQLITE_TYPES : PG_TYPES)[col.type];

function literal(value: JsonValue, col: ColumnState, dialect: Dialect): string {
  if (value === null) return 'null';
  if (col.type === 'json') return `'${JSON.stringify(value).replace(/'/g, "''")}'`;
  if (typeof value === 'boolean') return dialect === 'sqlite' ? (value ? '1' : '0') : value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  throw new MigrationError(`column ${col.name}: a default of this kind has no SQL literal`);
}

function columnSql(col: ColumnState, dialect: Dialect): string {
  if (col.primary && col.pkKind === 'int-auto') {
    return dialect === 'sqlite' ? `${quote(col.name)} integer not null primary key autoincrement` : `${quote(col.name)} serial primary key`;
  }
  const parts = [quote(col.name), typeOf(col, dialect)];
  parts.push(col.nullable ? 'null' : 'not null');
  if (col.primary) parts.push('primary key');
  if (col.unique) parts.push('unique');
  if (col.default !== undefined) parts.push(`default ${literal(col.default, col, dialect)}`);
  if (col.references) parts.push(`references ${quote(col.references.table)} (${quote(col.references.column)})`);
  return parts.join(' ');
}

/** The names of the indexes Portico derives for a column: its foreign-key index, its case-insensitive unique index. */
const fkIndex = (table: string, column: string) => `${table}_${column}_index`;
const ciIndex = (table: string, column: string) => `${table}_${column}_ci_unique`;
const togetherIndex = (table: string, set: readonly string[]) => `${table}_${set.join('_')}_unique`;

const ciSql = (table: string, column: string) => `create unique index ${quote(ciIndex(table, column))} on ${quote(table)} (lower(${quote(column)}))`;
const fkSql = (table: string, column: string) => `create index ${quote(fkIndex(table, column))} on ${quote(table)} (${quote(column)})`;

function columnIndexSql(table: string, col: ColumnState): string[] {
  return [...(col.uniqueIgnoreCase ? [ciSql(table, col.name)] : []), ...(col.references ? [fkSql(table, col.name)] : [])];
}

const togetherSql = (table: string, set: readonly string[]) => `create unique index ${quote(togetherIndex(table, set))} on ${quote(table)} (${set.map(quote).join(', ')})`;

/** Every derived index of a table: case-insensitive uniques, unique-together sets, foreign keys. */
function indexSql(table: TableState): string[] {
  return [
    ...table.columns.filter((c) => c.uniqueIgnoreCase).map((c) => ciSql(table.table, c.name)),
    ...(table.uniqueTogether ?? []).map((set) => togetherSql(table.table, set)),
    ...table.columns.filter((c) => c.references).map((c) => fkSql(table.table, c.name)),
  ];
}

function derivedIndexNames(table: TableState): string[] {
  return [
    ...table.columns.filter((c) => c.uniqueIgnoreCase).map((c) => ciIndex(table.table, c.name)),
    ...(table.uniqueTogether ?? []).map((set) => togetherIndex(table.table, set)),
    ...table.columns.filter((c) => c.references).map((c) => fkIndex(table.table, c.name)),
  ];
}

function createTableStatement(table: TableState, dialect: Dialect, name = table.table): string {
  return `create table ${quote(name)} (\n  ${table.columns.map((col) => columnSql(col, dialect)).join(',\n  ')}\n)`;
}

/**
 * The statements that create a table in `dialect`: the table with its column constraints and
 * foreign keys (restrict on delete), then its unique and foreign-key indexes. Defaults for `now`
 * and `uuid` are applied by the store, not the database, so every adapter returns the same values.
 */
export function createTableSql(table: TableState | ModelDef, dialect: Dialect): string[] {
  const state = 'primaryKey' in table ? tableStateOf(table) : table;
  return [createTableStatement(state, dialect), ...indexSql(state)];
}

/**
 * SQLite's table rebuild (sqlite.org/lang_altertable.html, "other kinds of table schema
 * changes"): a new table of the new shape, the rows copied, the old table dropped, the new one
 * renamed, its indexes made again. `sources` maps each new column to the old column it is
 * copied from. Runs in the migration's transaction, with foreign keys checked before commit.
 */
function rebuildSql(after: TableState, sources: ReadonlyMap<string, string>): string[] {
  const temp = `portico_new_${after.table}`;
  const copied = after.columns.filter((c) => sources.has(c.name));
  return [
    createTableStatement(after, 'sqlite', temp),
    `insert into ${quote(temp)} (${copied.map((c) => quote(c.name)).join(', ')}) select ${copied.map((c) => quote(sources.get(c.name) ?? c.name)).join(', ')} from ${quote(after.table)}`,
    `drop table ${quote(after.table)}`,
    `alter table ${quote(temp)} rename to ${quote(after.table)}`,
    ...indexSql(after),
  ];
}

const identity = (table: TableState, except?: string) => new Map(table.columns.filter((c) => c.name !== except).map((c) => [c.name, c.name]));

function sqliteSql(op: Exclude<MigrationOperation, { op: 'sql' | 'run' | 'createTable' | 'dropTable' }>, before: TableState, after: TableState): string[] {
  switch (op.op) {
    case 'addColumn': {
      const col = op.column;
      // ALTER TABLE ADD COLUMN cannot add a key, a unique column, or a NOT NULL one without a default.
      const simple = !col.primary && !col.unique && (col.nullable || col.default !== undefined) && !(col.references && col.default !== undefined && col.default !== null);
      return simple ? [`alter table ${quote(op.table)} add column ${columnSql(col, 'sqlite')}`, ...columnIndexSql(op.table, col)] : rebuildSql(after, identity(before));
    }
    case 'dropColumn':
      return rebuildSql(after, identity(after));
    case 'renameColumn':
      return [
        ...derivedIndexNames(before).map((name) => `drop index if exists ${quote(name)}`),
        `alter table ${quote(op.table)} rename column ${quote(op.from)} to ${quote(op.to)}`,
        ...indexSql(after),
      ];
    case 'alterColumn':
      if (op.from.primary !== op.to.primary || op.from.pkKind !== op.to.pkKind) throw new MigrationError(`alterColumn ${op.table}.${op.to.name}: changing a primary key is not supported`);
      return rebuildSql(after, identity(after));
    case 'alterUniqueTogether':
      return [...(op.from ?? []).map((set) => `drop index if exists ${quote(togetherIndex(op.table, set))}`), ...op.to.map((set) => togetherSql(op.table, set))];
  }
}

function pgAlterColumn(table: string, from: ColumnState, to: ColumnState): string[] {
  if (from.primary !== to.primary || from.pkKind !== to.pkKind) throw new MigrationError(`alterColumn ${table}.${to.name}: changing a primary key is not supported`);
  const t = quote(table);
  const c = quote(to.name);
  const out: string[] = [];
  if (from.references && JSON.stringify(from.references) !== JSON.stringify(to.references)) {
    out.push(`alter table ${t} drop constraint ${quote(`${table}_${to.name}_fkey`)}`, `drop index if exists ${quote(fkIndex(table, to.name))}`);
  }
  if (from.unique && !to.unique) out.push(`alter table ${t} drop constraint ${quote(`${table}_${to.name}_key`)}`);
  if (from.uniqueIgnoreCase && !to.uniqueIgnoreCase) out.push(`drop index if exists ${quote(ciIndex(table, to.name))}`);
  if (from.type !== to.type) out.push(`alter table ${t} alter column ${c} type ${typeOf(to, 'postgresql')} using ${c}::${typeOf(to, 'postgresql')}`);
  if (from.nullable !== to.nullable) out.push(`alter table ${t} alter column ${c} ${to.nullable ? 'drop not null' : 'set not null'}`);
  if (JSON.stringify(from.default) !== JSON.stringify(to.default) || from.type !== to.type) {
    out.push(to.default === undefined ? `alter table ${t} alter column ${c} drop default` : `alter table ${t} alter column ${c} set default ${literal(to.default, to, 'postgresql')}`);
  }
  if (to.unique && !from.unique) out.push(`alter table ${t} add constraint ${quote(`${table}_${to.name}_key`)} unique (${c})`);
  if (to.uniqueIgnoreCase && !from.uniqueIgnoreCase) out.push(ciSql(table, to.name));
  if (to.references && JSON.stringify(from.references) !== JSON.stringify(to.references)) {
    out.push(`alter table ${t} add constraint ${quote(`${table}_${to.name}_fkey`)} foreign key (${c}) references ${quote(to.references.table)} (${quote(to.references.column)})`);
    out.push(fkSql(table, to.name));
  }
  return out;
}

function pgSql(op: Exclude<MigrationOperation, { op: 'sql' | 'run' | 'createTable' | 'dropTable' }>, before: TableState): string[] {
  const t = quote(op.table);
  switch (op.op) {
    case 'addColumn':
      return [`alter table ${t} add column ${columnSql(op.column, 'postgresql')}`, ...columnIndexSql(op.table, op.column)];
    case 'dropColumn':
      // PostgreSQL drops the column's indexes and constraints with it.
      return [`alter table ${t} drop column ${quote(op.column.name)}`];
    case 'renameColumn': {
      const col = before.columns.find((c) => c.name === op.from);
      const out = [`alter table ${t} rename column ${quote(op.from)} to ${quote(op.to)}`];
      // The constraint and index names follow the column, so a later migration finds them.
      if (col?.references) out.push(`alter table ${t} rename constraint ${quote(`${op.table}_${op.from}_fkey`)} to ${quote(`${op.table}_${op.to}_fkey`)}`, `alter index if exists ${quote(fkIndex(op.table, op.from))} rename to ${quote(fkIndex(op.table, op.to))}`);
      if (col?.unique) out.push(`alter table ${t} rename constraint ${quote(`${op.table}_${op.from}_key`)} to ${quote(`${op.table}_${op.to}_key`)}`);
      if (col?.uniqueIgnoreCase) out.push(`alter index if exists ${quote(ciIndex(op.table, op.from))} rename to ${quote(ciIndex(op.table, op.to))}`);
      for (const set of (before.uniqueTogether ?? []).filter((s) => s.includes(op.from))) {
        out.push(`alter index if exists ${quote(togetherIndex(op.table, set))} rename to ${quote(togetherIndex(op.table, set.map((n) => (n === op.from ? op.to : n))))}`);
      }
      return out;
    }
    case 'alterColumn':
      return pgAlterColumn(op.table, op.from, op.to);
    case 'alterUniqueTogether':
      return [...op.from.map((set) => `drop index if exists ${quote(togetherIndex(op.table, set))}`), ...op.to.map((set) => togetherSql(op.table, set))];
  }
}

/** A statement of a migration plan: SQL, or a data step run in the transaction. */
export type PlanStep = string | MigrationStep;

/** The steps of one operation in `dialect`, given the state before it. */
export function operationSql(op: MigrationOperation, before: SchemaState, dialect: Dialect): PlanStep[] {
  switch (op.op) {
    case 'createTable':
      return createTableSql(op.table, dialect);
    case 'dropTable':
      return [`drop table ${quote(op.table.table)}`];
    case 'sql':
      return [...(op.up[dialect] ?? [])];
    case 'run':
      return [op.up];
    default: {
      const table = before.get(op.table);
      if (!table) throw new MigrationError(`${op.op}: table "${op.table}" does not exist at this point of the migrations`);
      if (dialect === 'postgresql') return pgSql(op, table);
      const after = applyOperation(before, op).get(op.table) as TableState;
      return sqliteSql(op, table, after);
    }
  }
}
