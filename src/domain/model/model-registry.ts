import { c } from './column.js';
import type { ModelDecl } from './define-model.js';
import { mergeRowPolicies, type RowPolicyDecl } from './row-policy.js';
import type { ColumnDef, ManyToManyDef, ModelDef } from './types.js';

/** Thrown at boot when a model declaration is inconsistent (a programming error, not a request error). */
export class ModelDefinitionError extends Error {
  override readonly name = 'ModelDefinitionError';
}

const NAME = /^[a-z_][a-z0-9_]*$/;

/** A reverse edge: rows of `table` point at this model through `column`. */
export interface ReverseRelation {
  readonly table: string;
  readonly column: string;
}

/**
 * The model registry: every model by table name, with foreign keys resolved against their
 * targets. Built once at boot; immutable afterwards.
 *
 * @example
 * const registry = ModelRegistry.build([author, post]);
 * registry.require('post').primaryKey; // 'id'
 */
export class ModelRegistry {
  private readonly byTable: ReadonlyMap<string, ModelDef>;

  private constructor(models: readonly ModelDef[]) {
    this.byTable = new Map(models.map((m) => [m.table, m]));
  }

  /** Resolves and validates declarations; junction tables of many-to-many relations are added. */
  static build(decls: readonly ModelDecl[], policies: readonly RowPolicyDecl[] = []): ModelRegistry {
    const seen = new Set<string>();
    for (const d of decls) {
      if (!NAME.test(d.table)) throw new ModelDefinitionError(`invalid table name "${d.table}"`);
      if (seen.has(d.table)) throw new ModelDefinitionError(`table "${d.table}" is declared twice`);
      seen.add(d.table);
    }
    for (const p of policies) {
      if (!seen.has(p.table)) throw new ModelDefinitionError(`${p.by} declares a row policy for unknown table "${p.table}"`);
    }
    const all = [...decls, ...junctionDecls(decls, seen)].map((d) => withPolicies(d, policies));
    const declByTable = new Map(all.map((d) => [d.table, d]));
    return new ModelRegistry(all.map((d) => resolve(d, declByTable)));
  }

  /** The model of `table`, or undefined. */
  get(table: string): ModelDef | undefined {
    return this.byTable.get(table);
  }

  /** The model of `table`; throws a ModelDefinitionError when absent. */
  require(table: string): ModelDef {
    const model = this.byTable.get(table);
    if (!model) throw new ModelDefinitionError(`unknown table "${table}"`);
    return model;
  }

  has(table: string): boolean {
    return this.byTable.has(table);
  }

  /** Every model, in declaration order (junction tables last). */
  all(): ModelDef[] {
    return [...this.byTable.values()];
  }

  /** Models that reference `table` through a foreign key. */
  reverseRelations(table: string): ReverseRelation[] {
    const out: ReverseRelation[] = [];
    for (const m of this.byTable.values()) {
      for (const col of m.columns) {
        if (col.references?.table === table) out.push({ table: m.table, column: col.name });
      }
    }
    return out;
  }
}

/** Finds a column by name. */
export function columnOf(model: ModelDef, name: string): ColumnDef | undefined {
  return model.columns.find((col) => col.name === name);
}

function junctionDecls(decls: readonly ModelDecl[], taken: Set<string>): ModelDecl[] {
  const out: ModelDecl[] = [];
  for (const d of decls) {
    for (const [name, rel] of Object.entries(d.manyToMany)) {
      if (taken.has(rel.through)) continue;
      taken.add(rel.through);
      const [source, target] = junctionColumns(d.table, rel.target);
      out.push({
        table: rel.through,
        columns: { id: c.id(), [source]: c.fk(d.table), [target]: c.fk(rel.target) },
        manyToMany: {},
        uniqueTogether: [[source, target]],
      });
      if (!NAME.test(name)) throw new ModelDefinitionError(`invalid relation name "${d.table}.${name}"`);
    }
  }
  return out;
}

function junctionColumns(source: string, target: string): [string, string] {
  return source === target ? [`from_${source}_id`, `to_${target}_id`] : [`${source}_id`, `${target}_id`];
}

function resolve(d: ModelDecl, declByTable: ReadonlyMap<string, ModelDecl>): ModelDef {
  const columns: ColumnDef[] = [];
  for (const [name, builder] of Object.entries(d.columns)) {
    if (!NAME.test(name)) throw new ModelDefinitionError(`invalid column name "${d.table}.${name}"`);
    const spec = builder.spec;
    let col: ColumnDef = {
      name,
      type: spec.type,
      primary: spec.primary,
      nullable: spec.nullable,
      unique: spec.unique,
      uniqueIgnoreCase: spec.uniqueIgnoreCase,
      hidden: spec.hidden,
      private: spec.private,
      privileged: spec.privileged,
      noform: spec.noform,
      ...(spec.pkKind ? { pkKind: spec.pkKind } : {}),
      ...(spec.default ? { default: spec.default } : {}),
      ...(spec.file ? { file: spec.file } : {}),
    };
    if (spec.referencesTable) {
      const target = declByTable.get(spec.referencesTable);
      if (!target) throw new ModelDefinitionError(`${d.table}.${name} references unknown table "${spec.referencesTable}"`);
      if (!name.endsWith('_id')) throw new ModelDefinitionError(`foreign key ${d.table}.${name} must end in _id`);
      const targetPk = Object.entries(target.columns).find(([, b]) => b.spec.primary);
      if (!targetPk) throw new ModelDefinitionError(`table "${target.table}" has no primary key`);
      col = {
        ...col,
        type: targetPk[1].spec.type,
        references: { relation: name.slice(0, -3), table: target.table, column: targetPk[0] },
      };
    }
    columns.push(col);
  }
  const pks = columns.filter((col) => col.primary);
  if (pks.length !== 1) throw new ModelDefinitionError(`table "${d.table}" needs exactly one primary key`);
  const pk = pks[0] as ColumnDef;
  const names = new Set(columns.map((col) => col.name));
  for (const set of d.uniqueTogether) {
    for (const name of set) {
      if (!names.has(name)) throw new ModelDefinitionError(`uniqueTogether names unknown column ${d.table}.${name}`);
    }
  }
  for (const name of Object.keys(d.setOnCreate ?? {})) {
    if (!names.has(name)) throw new ModelDefinitionError(`setOnCreate names unknown column ${d.table}.${name}`);
  }
  const owner = d.rowPolicy?.ownedBy;
  if (owner !== undefined && !names.has(owner)) throw new ModelDefinitionError(`ownedBy names unknown column ${d.table}.${owner}`);
  const manyToMany: ManyToManyDef[] = Object.entries(d.manyToMany).map(([name, rel]) => {
    if (!declByTable.has(rel.target)) throw new ModelDefinitionError(`${d.table}.${name} targets unknown table "${rel.target}"`);
    const [sourceColumn, targetColumn] = junctionColumns(d.table, rel.target);
    return { name, target: rel.target, through: rel.through, sourceColumn, targetColumn };
  });
  return {
    table: d.table,
    columns,
    primaryKey: pk.name,
    pkKind: pk.pkKind ?? 'string',
    softDelete: names.has('deleted_at'),
    manyToMany,
    uniqueTogether: d.uniqueTogether,
    setOnCreate: d.setOnCreate ?? {},
    ...(d.rowPolicy ? { rowPolicy: d.rowPolicy } : {}),
  };
}

/** The declaration with its one row policy: the model's own and every surface's for it, merged. */
function withPolicies(d: ModelDecl, policies: readonly RowPolicyDecl[]): ModelDecl {
  const mine = policies.filter((p) => p.table === d.table);
  if (mine.length === 0) return d;
  try {
    const rowPolicy = mergeRowPolicies(d.table, [...(d.rowPolicy ? [{ table: d.table, policy: d.rowPolicy, by: `defineModel('${d.table}')` }] : []), ...mine]);
    return rowPolicy ? { ...d, rowPolicy } : d;
  } catch (error) {
    throw new ModelDefinitionError((error as Error).message);
  }
}
