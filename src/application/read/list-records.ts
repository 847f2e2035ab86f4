import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { Row } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';

/** A page of a list: at most `limit` rows after `offset`, with only `columns` when given. */
export interface ListPage {
  readonly limit: number;
  readonly offset: number;
  /** The columns to read (the key is read too); undefined: every column. */
  readonly columns?: readonly string[] | undefined;
}

/** The live rows of a table the caller reaches (the model's row policy for the identity), one page, in the store's order. */
export class ListRecords {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  execute(identity: Identity, table: string, { limit, offset, columns }: ListPage): Promise<Row[]> {
    const scope = rowScope(this.registry.require(table).rowPolicy, identity);
    return this.store.find(table, { ...(scope ? { where: scope } : {}), limit, offset, ...(columns ? { columns } : {}) });
  }
}
