import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';

/** One live row by its primary key, whole, if the caller reaches it (the model's row policy for the identity); null otherwise. */
export class RetrieveRecord {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  async execute(identity: Identity, table: string, id: Value): Promise<Row | null> {
    const model = this.registry.require(table);
    const scope = rowScope(model.rowPolicy, identity);
    if (!scope) return this.store.getById(table, id);
    const [row] = await this.store.find(table, { where: { all: [{ column: model.primaryKey, op: 'eq', value: id }, scope] }, limit: 1 });
    return row ?? null;
  }
}
