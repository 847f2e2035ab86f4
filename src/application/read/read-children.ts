import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { Row, Value } from '../../domain/model/types.js';
import { keyOf } from '../../domain/model/value-key.js';
import type { Condition } from '../../domain/query/condition.js';
import type { RecordStore } from '../../ports/record-store.js';

/** A relation's child list: the rows of `table` whose `column` points at a parent, at most `limit` per parent. */
export interface ChildList {
  readonly table: string;
  readonly column: string;
  readonly limit: number;
  /**
   * Every column to read, `column` among them (the child's own key only when listed); undefined:
   * whole rows.
   */
  readonly columns?: readonly string[] | undefined;
}

/**
 * A relation batch: the children of a batch of parent keys that the caller reaches (the child
 * model's row policy for the identity), at most `limit` per parent, in one statement (a
 * `row_number()` window on SQL), grouped by `keyOf` of the key they point with. A parent without
 * children has no entry.
 */
export class ReadChildren {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  async execute(identity: Identity, { table, column, limit, columns }: ChildList, parentKeys: readonly Value[]): Promise<Map<string, Row[]>> {
    const scope = rowScope(this.registry.require(table).rowPolicy, identity);
    const among: Condition = { column, op: 'in', value: [...parentKeys] };
    const rows = await this.store.find(table, { where: scope ? { all: [among, scope] } : among, perGroup: { column, limit }, ...(columns ? { columns, withoutKey: true } : {}) });
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const k = keyOf(row[column]);
      const group = groups.get(k);
      if (group) group.push(row);
      else groups.set(k, [row]);
    }
    return groups;
  }
}
