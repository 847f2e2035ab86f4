import type { ColumnState, MigrationDef, MigrationOperation, TableState } from './migration.js';
import type { ModelRegistry } from './model-registry.js';
import type { ColumnDef, JsonValue, ModelDef } from './types.js';

/** The tables a sequence of migrations leaves, by name. */
export type SchemaState = ReadonlyMap<string, TableState>;

/** Thrown for a migration that cannot be generated, replayed or reversed. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

function literalDefault(col: ColumnDef): JsonValue | undefined {
  if (col.default?.kind !== 'value') return undefined;
  const value = col.default.value;
  return value instanceof Date ? undefined : value;
}

/** A column of a model as the database holds it (only the facts DDL carries). */
export function columnStateOf(col: ColumnDef): ColumnState {
  const fallback = literalDefault(col);
  return {
    name: col.name,
    type: col.type,
    nullable: col.nullable,
    ...(col.primary ? { primary: true, ...(col.pkKind ? { pkKind: col.pkKind } : {}) } : {}),
    ...(col.unique && !col.uniqueIgnoreCase ? { unique: true } : {}),
    ...(col.uniqueIgnoreCase ? { uniqueIgnoreCase: true } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(col.references ? { references: { table: col.references.table, column: col.references.column } } : {}),
  };
}

/** A model's table as the database holds it. */
export function tableStateOf(model: ModelDef): TableState {
  return {
    table: model.table,
    columns: model.columns.map(columnStateOf),
    ...(model.uniqueTogether.length > 0 ? { uniqueTogether: model.uniqueTogether.map((set) => [...set]) } : {}),
  };
}

/** Every table of the registry as the database should hold it. */
export function registryState(registry: ModelRegistry, tables?: ReadonlySet<string>): SchemaState {
  return new Map(registry.all().filter((m) => !tables || tables.has(m.table)).map((m) => [m.table, tableStateOf(m)]));
}

function requireTable(state: SchemaState, table: string, what: string): TableState {
  const found = state.get(table);
  if (!found) throw new MigrationError(`${what}: table "${table}" does not exist at this point of the migrations`);
  return found;
}

function requireColumn(table: TableState, column: string, what: string): ColumnState {
  const found = table.columns.find((c) => c.name === column);
  if (!found) throw new MigrationError(`${what}: column "${table.table}.${column}" does not exist at this point of the migrations`);
  return found;
}

function withTable(state: SchemaState, table: TableState): Map<string, TableState> {
  return new Map([...state, [table.table, table]]);
}

/** The state after one operation (pure; `sql` and `run` change no declared state). */
export function applyOperation(state: SchemaState, op: MigrationOperation): SchemaState {
  switch (op.op) {
    case 'createTable':
      if (state.has(op.table.table)) throw new MigrationError(`createTable: table "${op.table.table}" exists already`);
      return withTable(state, op.table);
    case 'dropTable': {
      requireTable(state, op.table.table, 'dropTable');
      const next = new Map(state);
      next.delete(op.table.table);
      return next;
    }
    case 'addColumn': {
      const table = requireTable(state, op.table, 'addColumn');
      if (table.columns.some((c) => c.name === op.column.name)) throw new MigrationError(`addColumn: column "${op.table}.${op.column.name}" exists already`);
      return withTable(state, { ...table, columns: [...table.columns, op.column] });
    }
    case 'dropColumn': {
      const table = requireTable(state, op.table, 'dropColumn');
      requireColumn(table, op.column.name, 'dropColumn');
      return withTable(state, { ...table, columns: table.columns.filter((c) => c.name !== op.column.name) });
    }
    case 'renameColumn': {
      const table = requireTable(state, op.table, 'renameColumn');
      requireColumn(table, op.from, 'renameColumn');
      if (table.columns.some((c) => c.name === op.to)) throw new MigrationError(`renameColumn: column "${op.table}.${op.to}" exists already`);
      const rename = (name: string) => (name === op.from ? op.to : name);
      return withTable(state, {
        ...table,
        columns: table.columns.map((c) => (c.name === op.from ? { ...c, name: op.to } : c)),
        ...(table.uniqueTogether ? { uniqueTogether: table.uniqueTogether.map((set) => set.map(rename)) } : {}),
      });
    }
    case 'alterColumn': {
      const table = requireTable(state, op.table, 'alterColumn');
      requireColumn(table, op.from.name, 'alterColumn');
      return withTable(state, { ...table, columns: table.columns.map((c) => (c.name === op.from.name ? op.to : c)) });
    }
    case 'alterUniqueTogether': {
      const table = requireTable(state, op.table, 'alterUniqueTogether');
      const { uniqueTogether: _previous, ...rest } = table;
      return withTable(state, op.to.length > 0 ? { ...rest, uniqueTogether: op.to } : rest);
    }
    case 'sql':
    case 'run':
      return state;
  }
}

/** The operations of one migration, whatever its form (`createTables` reads the registry). */
export function operationsOf(def: MigrationDef, registry: ModelRegistry): MigrationOperation[] {
  const created = orderByReferences((def.createTables ?? []).map((table) => tableStateOf(registry.require(table))));
  return [
    ...created.map((table): MigrationOperation => ({ op: 'createTable', table })),
    ...(def.sql ? [{ op: 'sql', up: def.sql } as const] : []),
    ...(def.operations ?? []),
  ];
}

/** The tables a sequence of migrations leaves (Django's way: the state is replayed, not stored). */
export function stateOf(defs: readonly MigrationDef[], registry: ModelRegistry): SchemaState {
  let state: SchemaState = new Map();
  for (const def of defs) {
    try {
      for (const op of operationsOf(def, registry)) state = applyOperation(state, op);
    } catch (error) {
      if (error instanceof MigrationError) throw new MigrationError(`migration ${def.name}: ${error.message}`);
      throw error;
    }
  }
  return state;
}

/** The operation that undoes `op`; throws for a `sql` or `run` step without its `down`. */
export function reverseOperation(op: MigrationOperation): MigrationOperation {
  switch (op.op) {
    case 'createTable':
      return { op: 'dropTable', table: op.table };
    case 'dropTable':
      return { op: 'createTable', table: op.table };
    case 'addColumn':
      return { op: 'dropColumn', table: op.table, column: op.column };
    case 'dropColumn':
      return { op: 'addColumn', table: op.table, column: op.column };
    case 'renameColumn':
      return { op: 'renameColumn', table: op.table, from: op.to, to: op.from };
    case 'alterColumn':
      return { op: 'alterColumn', table: op.table, from: op.to, to: op.from };
    case 'alterUniqueTogether':
      return { op: 'alterUniqueTogether', table: op.table, from: op.to, to: op.from };
    case 'sql':
      if (!op.down) throw new MigrationError('a sql step without its down cannot be reversed');
      return { op: 'sql', up: op.down, down: op.up };
    case 'run':
      if (!op.down) throw new MigrationError('a data step without its down cannot be reversed');
      return { op: 'run', up: op.down, down: op.up };
  }
}

/** Orders tables so that each comes after the tables its foreign keys reference (self-references allowed). */
export function orderByReferences(tables: readonly TableState[]): TableState[] {
  const byName = new Map(tables.map((t) => [t.table, t]));
  const done = new Set<string>();
  const out: TableState[] = [];
  const visit = (t: TableState, path: Set<string>): void => {
    if (done.has(t.table) || path.has(t.table)) return;
    path.add(t.table);
    for (const col of t.columns) {
      const target = col.references ? byName.get(col.references.table) : undefined;
      if (target && target.table !== t.table) visit(target, path);
    }
    done.add(t.table);
    out.push(t);
  };
  for (const t of tables) visit(t, new Set());
  return out;
}

/** A column rename the developer declared or confirmed: `table.from` is now `table.to`. */
export interface ColumnRename {
  readonly table: string;
  readonly from: string;
  readonly to: string;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
/** A column's definition with its name left out (to compare a rename's two sides). */
const shape = ({ name: _name, ...rest }: ColumnState) => rest;
const sortedSets = (sets: readonly (readonly string[])[] | undefined) => (sets ?? []).map((s) => [...s].sort().join(',')).sort();

/**
 * Dropped and added columns of one table with the same definition: the renames `makemigrations`
 * asks about (a rename it is not told about is a drop and an add, which loses the data).
 */
export function renameCandidates(from: SchemaState, to: SchemaState): ColumnRename[] {
  const out: ColumnRename[] = [];
  for (const [name, target] of to) {
    const source = from.get(name);
    if (!source) continue;
    const dropped = source.columns.filter((c) => !target.columns.some((t) => t.name === c.name));
    const added = target.columns.filter((c) => !source.columns.some((s) => s.name === c.name));
    for (const d of dropped) {
      for (const a of added) if (same(shape(d), shape(a))) out.push({ table: name, from: d.name, to: a.name });
    }
  }
  return out;
}

function tableChanges(source: TableState, target: TableState, renames: readonly ColumnRename[]): MigrationOperation[] {
  const ops: MigrationOperation[] = [];
  let current = source;
  for (const r of renames.filter((r) => r.table === source.table)) {
    requireColumn(current, r.from, `rename ${r.table}.${r.from}`);
    if (!target.columns.some((c) => c.name === r.to)) throw new MigrationError(`rename ${r.table}.${r.from}: the model has no column "${r.to}"`);
    const op: MigrationOperation = { op: 'renameColumn', table: source.table, from: r.from, to: r.to };
    ops.push(op);
    current = requireTable(applyOperation(new Map([[current.table, current]]), op), current.table, 'rename');
  }
  for (const col of target.columns) {
    const before = current.columns.find((c) => c.name === col.name);
    if (!before) {
      if (!col.nullable && col.default === undefined && !col.primary) {
        throw new MigrationError(`${target.table}.${col.name} is added NOT NULL without a default: existing rows would have no value; give it a default (c.….default(v)) or make it nullable`);
      }
      ops.push({ op: 'addColumn', table: target.table, column: col });
    } else if (!same(before, col)) {
      ops.push({ op: 'alterColumn', table: target.table, from: before, to: col });
    }
  }
  for (const col of current.columns) {
    if (!target.columns.some((c) => c.name === col.name)) ops.push({ op: 'dropColumn', table: target.table, column: col });
  }
  if (!same(sortedSets(current.uniqueTogether), sortedSets(target.uniqueTogether))) {
    ops.push({ op: 'alterUniqueTogether', table: target.table, from: current.uniqueTogether ?? [], to: target.uniqueTogether ?? [] });
  }
  return ops;
}

/**
 * The operations that take the schema from `from` to `to`: new tables first (in reference order),
 * then each kept table's renames, added, altered and dropped columns, then dropped tables (those
 * referencing others first). Empty when nothing changed.
 */
export function diffSchemas(from: SchemaState, to: SchemaState, renames: readonly ColumnRename[] = []): MigrationOperation[] {
  for (const r of renames) {
    if (!from.has(r.table) || !to.has(r.table)) throw new MigrationError(`rename ${r.table}.${r.from}: table "${r.table}" must exist before and after`);
  }
  const created = orderByReferences([...to.values()].filter((t) => !from.has(t.table)));
  const dropped = orderByReferences([...from.values()].filter((t) => !to.has(t.table))).reverse();
  return [
    ...created.map((table): MigrationOperation => ({ op: 'createTable', table })),
    ...[...to.values()].filter((t) => from.has(t.table)).flatMap((t) => tableChanges(requireTable(from, t.table, 'diff'), t, renames)),
    ...dropped.map((table): MigrationOperation => ({ op: 'dropTable', table })),
  ];
}

/** What the database holds of one table: its columns and whether each is nullable. */
export interface ActualTable {
  readonly columns: ReadonlyMap<string, { readonly nullable: boolean }>;
}

/**
 * The differences between the schema the registry expects and the database's, one line each
 * ("table post: column pages is missing"): missing tables, missing or extra columns and changed
 * nullability. Tables the registry does not name are not compared.
 */
export function schemaDrift(expected: SchemaState, actual: ReadonlyMap<string, ActualTable>): string[] {
  const out: string[] = [];
  for (const [name, table] of expected) {
    const found = actual.get(name);
    if (!found) {
      out.push(`table ${name} is missing`);
      continue;
    }
    for (const col of table.columns) {
      const have = found.columns.get(col.name);
      if (!have) out.push(`table ${name}: column ${col.name} is missing`);
      else if (!col.primary && have.nullable !== col.nullable) out.push(`table ${name}: column ${col.name} is ${have.nullable ? 'nullable' : 'NOT NULL'} in the database, ${col.nullable ? 'nullable' : 'NOT NULL'} in the model`);
    }
    for (const column of found.columns.keys()) {
      if (!table.columns.some((c) => c.name === column)) out.push(`table ${name}: column ${column} is in the database, not in the model`);
    }
  }
  return out;
}

/**
 * The app's tables as a database built before its first generated migration holds them: the
 * models' tables and columns that the database has (with the database's nullability; other
 * attributes are not read), plus the columns only the database has (typed `text`). `makemigrations` writes it as the first migration,
 * already applied there, so the next one carries exactly what the database lacks.
 */
export function baselineFromDatabase(expected: SchemaState, actual: ReadonlyMap<string, ActualTable>): SchemaState {
  const out = new Map<string, TableState>();
  for (const [name, table] of expected) {
    const found = actual.get(name);
    if (!found) continue;
    // A kept column is taken as the model declares it, but with the nullability the database has.
    const kept = table.columns.filter((c) => found.columns.has(c.name)).map((c) => (c.primary ? c : { ...c, nullable: found.columns.get(c.name)?.nullable ?? c.nullable }));
    const extra = [...found.columns].filter(([column]) => !table.columns.some((c) => c.name === column)).map(([column, info]): ColumnState => ({ name: column, type: 'text', nullable: info.nullable }));
    const names = new Set(kept.map((c) => c.name));
    const sets = (table.uniqueTogether ?? []).filter((set) => set.every((n) => names.has(n)));
    out.set(name, { table: name, columns: [...kept, ...extra], ...(sets.length > 0 ? { uniqueTogether: sets } : {}) });
  }
  return out;
}
