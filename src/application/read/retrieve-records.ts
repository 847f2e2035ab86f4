import type { Identity } from '../../domain/auth/identity.js';
import { columnOf, type ModelRegistry } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { Row, Value } from '../../domain/model/types.js';
import { keyOf } from '../../domain/model/value-key.js';
import { normalizeValue } from '../../domain/model/values.js';
import type { RecordStore } from '../../ports/record-store.js';

/**
 * A batch of keys of one table: the live rows with those primary keys that the caller reaches
 * (the model's row policy for the identity), whole, by `keyOf` of their key, in one statement. A
 * row out of reach is as absent as a missing one; so is a key that cannot be one of the table.
 */
export class RetrieveRecords {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  async execute(identity: Identity, table: string, keys: readonly Value[]): Promise<Map<string, Row>> {
    const model = this.registry.require(table);
    const pk = model.primaryKey;
    const scope = rowScope(model.rowPolicy, identity);
    let rows: Row[];
    if (!scope) rows = await this.store.getManyByIds(table, [...keys]);
    else {
      // The keys in canonical form (a key that cannot be one names no row, as `getManyByIds` has it).
      const column = columnOf(model, pk);
      const valid: Value[] = [];
      for (const k of keys) {
        const key = column ? normalizeValue(column, k) : undefined;
        if (key?.ok && key.value !== null) valid.push(key.value);
      }
      rows = valid.length === 0 ? [] : await this.store.find(table, { where: { all: [{ column: pk, op: 'in', value: valid }, scope] } });
    }
    return new Map(rows.map((r) => [keyOf(r[pk]), r]));
  }
}
