import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { Row, Value } from '../../domain/model/types.js';
import { keyOf } from '../../domain/model/value-key.js';
import type { RecordStore } from '../../ports/record-store.js';

/**
 * Trusted code's include (`app.loadRelated`): rows of a table with the rows their foreign keys
 * name, each under the relation's name (`author_id` → `author`): the target row as the store
 * reads it, or null for a null key or no live row. One `IN (…)` read per relation, on the store
 * given (a transaction's, say). No row policy: like `app.store`, it sees every row. An unknown
 * relation is `invalid_query` naming the ones there are.
 */
export class LoadRelated {
  constructor(private readonly registry: ModelRegistry) {}

  async execute(store: RecordStore, table: string, rows: readonly Row[], relations: readonly string[]): Promise<Record<string, unknown>[]> {
    const model = this.registry.require(table);
    const out: Record<string, unknown>[] = rows.map((row) => ({ ...row }));
    for (const name of new Set(relations)) {
      const fk = model.columns.find((c) => c.references?.relation === name);
      if (!fk?.references) {
        const known = model.columns.flatMap((c) => (c.references ? [c.references.relation] : []));
        throw new DomainError('invalid_query', `${JSON.stringify(name)} is not a relation of ${table}; loadRelated follows its foreign keys (${known.join(', ') || 'it has none'})`);
      }
      const target = this.registry.require(fk.references.table);
      const keys = [...new Map(rows.flatMap((r) => (r[fk.name] === null || r[fk.name] === undefined ? [] : [[keyOf(r[fk.name]), r[fk.name] as Value] as const]))).values()];
      const found = keys.length === 0 ? [] : await store.getManyByIds(target.table, keys);
      const byKey = new Map(found.map((r) => [keyOf(r[target.primaryKey]), r]));
      rows.forEach((row, i) => {
        const key = row[fk.name];
        (out[i] as Record<string, unknown>)[name] = key === null || key === undefined ? null : (byKey.get(keyOf(key)) ?? null);
      });
    }
    return out;
  }
}
