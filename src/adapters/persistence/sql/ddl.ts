import type { Dialect } from '../../../domain/model/migration.js';
import type { ColumnDef, ModelDef, Value } from '../../../domain/model/types.js';
import { quote } from './condition-sql.js';

const SQLITE_TYPES: Record<ColumnDef['type'], string> = {
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

const PG_TYPES: Record<ColumnDef['type'], string> = {
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

function literal(value: Value, col: ColumnDef, dialect: Dialect): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return dialect === 'sqlite' ? (value ? '1' : '0') : value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (col.type === 'json') return `'${JSON.stringify(value).replace(/'/g, "''")}'`;
  return undefined;
}

function columnSql(col: ColumnDef, dialect: Dialect): string {
  if (col.primary && col.pkKind === 'int-auto') {
    return dialect === 'sqlite' ? `${quote(col.name)} integer not null primary key autoincrement` : `${quote(col.name)} serial primary key`;
  }
  const parts = [quote(col.name), (dialect === 'sqlite' ? SQLITE_TYPES : PG_TYPES)[col.type]];
  parts.push(col.nullable ? 'null' : 'not null');
  if (col.primary) parts.push('primary key');
  if (col.unique && !col.uniqueIgnoreCase) parts.push('unique');
  if (col.default?.kind === 'value') {
    const lit = literal(col.default.value, col, dialect);
    if (lit !== undefined) parts.push(`default ${lit}`);
  }
  if (col.references) parts.push(`references ${quote(col.references.table)} (${quote(col.references.column)})`);
  return parts.join(' ');
}

/**
 * The statements that create one model's table in `dialect`: the table with its column
 * constraints and foreign keys (restrict on delete), then its unique indexes.
 * Defaults for `now` and `uuid` are applied by the store, not the database, so every
 * adapter returns the same values.
 */
export function createTableSql(model: ModelDef, dialect: Dialect): string[] {
  const body = model.columns.map((col) => columnSql(col, dialect));
  const out = [`create table ${quote(model.table)} (\n  ${body.join(',\n  ')}\n)`];
  for (const col of model.columns) {
    if (col.uniqueIgnoreCase) {
      out.push(`create unique index ${quote(`${model.table}_${col.name}_ci_unique`)} on ${quote(model.table)} (lower(${quote(col.name)}))`);
    }
  }
  for (const set of model.uniqueTogether) {
    out.push(`create unique index ${quote(`${model.table}_${set.join('_')}_unique`)} on ${quote(model.table)} (${set.map(quote).join(', ')})`);
  }
  for (const col of model.columns) {
    if (col.references) out.push(`create index ${quote(`${model.table}_${col.name}_index`)} on ${quote(model.table)} (${quote(col.name)})`);
  }
  return out;
}

/** Orders models so that every table comes after the tables its foreign keys reference (self-references allowed). */
export function orderByDependencies(models: readonly ModelDef[]): ModelDef[] {
  const byTable = new Map(models.map((m) => [m.table, m]));
  const done = new Set<string>();
  const out: ModelDef[] = [];
  const visit = (m: ModelDef, path: Set<string>): void => {
    if (done.has(m.table) || path.has(m.table)) return;
    path.add(m.table);
    for (const col of m.columns) {
      const target = col.references ? byTable.get(col.references.table) : undefined;
      if (target && target.table !== m.table) visit(target, path);
    }
    done.add(m.table);
    out.push(m);
  };
  for (const m of models) visit(m, new Set());
  return out;
}
