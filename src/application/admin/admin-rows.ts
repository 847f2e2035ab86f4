import type { Identity } from '../../domain/auth/identity.js';
import { DomainError, type FieldError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keyText, loadLinks } from '../rest/m2m-links.js';
import { and } from '../rest/rest-resource.js';
import { callerScope } from '../write/row-access.js';

/**
 * The rows of `model` the admin shows `identity`: the model's row policy (`ownedBy`, `scope`),
 * except for superusers, who see every row. Undefined: every row.
 */
export function adminScope(model: ModelDef, identity: Identity): Condition | undefined {
  return callerScope(model, identity, { everyRow: identity.isSuperuser });
}

const byKey = (model: ModelDef, id: Value): Condition => ({ column: model.primaryKey, op: 'eq', value: id });
const byKeys = (model: ModelDef, ids: readonly Value[]): Condition => ({ column: model.primaryKey, op: 'in', value: [...ids] });

/**
 * The admin's reads of rows for one caller, every one within {@link adminScope}: another owner's
 * row is as absent as a missing one. The pages never read the store themselves.
 */
export class AdminRows {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  /** How many live rows of `model` the caller reaches (the index page). */
  count(model: ModelDef, identity: Identity): Promise<number> {
    return this.store.count(model.table, adminScope(model, identity));
  }

  /** The row `id` (soft-deleted rows included, so they can be viewed and restored), or null when absent or out of reach. */
  async one(model: ModelDef, identity: Identity, id: Value): Promise<Row | null> {
    const scope = adminScope(model, identity);
    if (!scope) return this.store.getById(model.table, id, { withDeleted: true });
    return (await this.store.find(model.table, { where: { all: [byKey(model, id), scope] }, limit: 1, withDeleted: true }))[0] ?? null;
  }

  /**
   * The live rows `ids` (a selection to delete), missing ones skipped; `not_found` when none
   * exists, or when one that exists is out of the caller's reach (the whole selection is refused).
   */
  async selection(model: ModelDef, identity: Identity, ids: readonly Value[]): Promise<Row[]> {
    const rows = await this.store.getManyByIds(model.table, ids);
    if (rows.length === 0) throw new DomainError('not_found', 'none of the selected rows exists');
    const scope = adminScope(model, identity);
    if (!scope) return rows;
    const reached = await this.store.find(model.table, { where: { all: [byKeys(model, rows.map((r) => r[model.primaryKey] ?? null)), scope] }, limit: rows.length });
    if (reached.length < rows.length) throw new DomainError('not_found', 'a selected row does not exist');
    return reached;
  }

  /** The first `limit` live rows of `model` the caller reaches, by key (the choices of a select, checkboxes or a filter). */
  choices(model: ModelDef, identity: Identity, limit: number): Promise<Row[]> {
    const scope = adminScope(model, identity);
    return this.store.find(model.table, { ...(scope ? { where: scope } : {}), limit });
  }

  /**
   * The choices of foreign key `column` of `model` (a select, a list filter): the first `limit`
   * rows of the target the caller reaches. The model's `ownedBy` column offers a caller under
   * the row policy only themselves (any other owner would be refused).
   */
  columnChoices(model: ModelDef, column: ColumnDef, identity: Identity, limit: number): Promise<Row[]> {
    const target = this.registry.require(column.references?.table as string);
    if (model.rowPolicy?.ownedBy === column.name && adminScope(model, identity)) {
      if (identity.id === null) return Promise.resolve([]);
      return this.store.find(target.table, { where: and(byKey(target, identity.id), adminScope(target, identity)), limit: 1 });
    }
    return this.choices(target, identity, limit);
  }

  /** The rows `ids` of `model` the caller reaches, soft-deleted ones included (display names of foreign keys). */
  async labelled(model: ModelDef, identity: Identity, ids: readonly Value[]): Promise<Row[]> {
    if (ids.length === 0) return [];
    const scope = adminScope(model, identity);
    if (!scope) return this.store.getManyByIds(model.table, ids, { withDeleted: true });
    return this.store.find(model.table, { where: { all: [byKeys(model, ids), scope] }, withDeleted: true, limit: ids.length });
  }

  /** The stored many-to-many links of `row` (a row the caller reached), by relation. */
  async links(model: ModelDef, row: Row): Promise<Map<string, readonly Value[]>> {
    const out = new Map<string, readonly Value[]>();
    for (const rel of model.manyToMany) out.set(rel.name, (await loadLinks(this.store, this.registry, model, rel, [row]))[0] ?? []);
    return out;
  }
}

/** What a posted form links to: its foreign-key values and many-to-many ids, with what the row linked before (a change). */
export interface Choices {
  readonly columns: Readonly<Record<string, unknown>>;
  readonly links: ReadonlyMap<string, readonly Value[]>;
  readonly before?: Row;
  readonly oldLinks?: ReadonlyMap<string, readonly Value[]>;
}

/**
 * Refuses (`invalid_input`, beside the field) a form that newly points a foreign key or a
 * many-to-many link at a row of a scoped model the caller does not reach: the choices the form
 * offered are the caller's rows only, and a crafted POST gets no more. Values the row already
 * held are kept (a superuser may have set them). One statement per scoped relation written.
 */
export async function refuseForeignChoices(tx: RecordStore, registry: ModelRegistry, model: ModelDef, identity: Identity, choices: Choices): Promise<void> {
  const errors: FieldError[] = [];
  const reached = async (target: ModelDef, ids: readonly Value[], scope: Condition) =>
    new Set((await tx.find(target.table, { where: { all: [byKeys(target, ids), scope] }, columns: [target.primaryKey], limit: ids.length })).map((r) => keyText(r[target.primaryKey])));
  for (const col of model.columns) {
    const value = choices.columns[col.name] as Value | undefined;
    if (!col.references || value === undefined || value === null) continue;
    if (choices.before && keyText(choices.before[col.name]) === keyText(value)) continue;
    const target = registry.require(col.references.table);
    const scope = adminScope(target, identity);
    if (scope && !(await reached(target, [value], scope)).has(keyText(value))) errors.push({ field: col.name, message: `select a valid choice: no ${target.table} ${keyText(value)} of yours` });
  }
  for (const rel of model.manyToMany) {
    const ids = choices.links.get(rel.name);
    if (!ids) continue;
    const old = new Set((choices.oldLinks?.get(rel.name) ?? []).map(keyText));
    const added = ids.filter((v) => !old.has(keyText(v)));
    const target = registry.require(rel.target);
    const scope = adminScope(target, identity);
    if (!scope || added.length === 0) continue;
    const found = await reached(target, added, scope);
    const missing = added.filter((v) => !found.has(keyText(v)));
    if (missing.length > 0) errors.push({ field: rel.name, message: `select valid choices: no ${target.table} ${missing.map(keyText).join(', ')} of yours` });
  }
  if (errors.length > 0) throw new DomainError('invalid_input', errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
}
