import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf, type ModelRegistry } from '../../domain/model/model-registry.js';
import type { ManyToManyDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import { normalizeValue } from '../../domain/model/values.js';
import type { RecordStore } from '../../ports/record-store.js';

/*
 * The links of a many-to-many relation, read and written through the owning row
 * (docs/decisions.md "Many-to-many links are written through the owning row"): a document
 * names them as an array of target ids under the relation's name (`tags: ['orm', 'rest']`);
 * the junction table itself is no resource.
 */

/** Most ids one relation of one row may name in a write (the nested writer's cap, DESIGN §4). */
export const MAX_LINKS = 1000;

const invalid = (field: string, message: string) => new DomainError('invalid_input', `${field}: ${message}`, [{ field, message }]);

/** The map key of a value (keys of any type compare by their text). */
export const keyText = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

/**
 * Checks the ids a document names under relation `rel` (at document path `at`): an array of at
 * most {@link MAX_LINKS} distinct, non-null values of the target key's type, in canonical form.
 * Anything else is a 400 `invalid_input` naming the field (or the offending item).
 */
export function linkIds(registry: ModelRegistry, rel: ManyToManyDef, value: unknown, at: string): Value[] {
  if (!Array.isArray(value)) throw invalid(at, `must be an array of ${rel.target} ids`);
  if (value.length > MAX_LINKS) throw invalid(at, `names at most ${MAX_LINKS} ${rel.target} ids`);
  const column = columnOf(registry.require(rel.through), rel.targetColumn);
  const seen = new Set<string>();
  return value.map((item: unknown, i) => {
    const checked = column && item !== null ? normalizeValue(column, item) : undefined;
    if (!checked?.ok || checked.value === null) throw invalid(`${at}[${i}]`, `must be a ${rel.target} id${checked && !checked.ok ? ` (${checked.message})` : ''}`);
    const key = keyText(checked.value);
    if (seen.has(key)) throw invalid(`${at}[${i}]`, `repeats ${rel.target} ${key}: each id may appear once`);
    seen.add(key);
    return checked.value;
  });
}

/**
 * Replaces the links of `row` under `rel` with `ids` on the caller's transaction and answers the
 * target ids as stored. A missing target is a 400 `foreign_key_violation` naming the item
 * (`<at>[i]`); the caller's transaction rolls everything back.
 */
export async function replaceLinks(tx: RecordStore, model: ModelDef, row: Row, rel: ManyToManyDef, ids: readonly Value[], at: string): Promise<Value[]> {
  const source = row[model.primaryKey] ?? null;
  const current = await tx.find(rel.through, { where: { column: rel.sourceColumn, op: 'eq', value: source } });
  for (const link of current) await tx.delete(rel.through, link.id ?? null);
  const written: Value[] = [];
  for (const [i, id] of ids.entries()) {
    const link = await tx.insert(rel.through, { [rel.sourceColumn]: source, [rel.targetColumn]: id }).catch((e: unknown) => {
      if (!(e instanceof DomainError)) throw e;
      const message = e.code === 'foreign_key_violation' ? `no ${rel.target} ${keyText(id)}` : e.errors[0]?.message ?? e.detail;
      throw new DomainError(e.code, `${at}[${i}]: ${message}`, [{ field: `${at}[${i}]`, message }]);
    });
    written.push(link[rel.targetColumn] ?? id);
  }
  return written;
}

/**
 * The target ids linked to each of `rows` (rows of `model`) under `rel`, in the order the links
 * were made (the junction's key): one statement for the whole page, none for an empty one.
 */
export async function loadLinks(store: RecordStore, registry: ModelRegistry, model: ModelDef, rel: ManyToManyDef, rows: readonly Row[]): Promise<Value[][]> {
  const keys = rows.map((r) => r[model.primaryKey]).filter((v): v is Value => v !== null && v !== undefined);
  const sources = [...new Map(keys.map((v) => [keyText(v), v])).values()];
  const junction = registry.require(rel.through);
  const links =
    sources.length === 0
      ? []
      : await store.find(rel.through, { where: { column: rel.sourceColumn, op: 'in', value: sources }, orderBy: [{ column: junction.primaryKey, direction: 'asc' }] });
  const bySource = new Map<string, Value[]>();
  for (const link of links) {
    const key = keyText(link[rel.sourceColumn]);
    const ids = bySource.get(key) ?? [];
    ids.push(link[rel.targetColumn] ?? null);
    bySource.set(key, ids);
  }
  return rows.map((r) => bySource.get(keyText(r[model.primaryKey])) ?? []);
}
