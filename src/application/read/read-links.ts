import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { Row, Value } from '../../domain/model/types.js';
import { keyOf } from '../../domain/model/value-key.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { RetrieveRecords } from './retrieve-records.js';

/**
 * A many-to-many list: the `target` rows linked to a source key through the junction `through`
 * (its `sourceColumn` is the source's key, its `targetColumn` the target's), at most `limit` per
 * source key, in the order the links were made.
 */
export interface LinkList {
  readonly target: string;
  readonly through: string;
  readonly sourceColumn: string;
  readonly targetColumn: string;
  readonly limit: number;
}

/** The target rows of these keys that the caller reaches, by `keyOf` of their key (a batch of `RetrieveRecords`, or a memory in front of it). */
export type TargetRows = (keys: readonly Value[]) => Promise<ReadonlyMap<string, Row | null>>;

/**
 * A many-to-many batch: for a batch of source keys, the linked target rows the caller reaches,
 * grouped by `keyOf` of the source key. Two reads: the junction's links of the keys, then their
 * targets (`targets`, by default `RetrieveRecords` for the caller: under the target's row
 * policy). Under a row policy of the target every link is read and each list cut after the
 * policy (a link to a row out of reach takes no place of the page); otherwise the junction read
 * keeps `limit` links per key.
 */
export class ReadLinks {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
    private readonly retrieve: RetrieveRecords,
  ) {}

  async execute(identity: Identity, { target, through, sourceColumn, targetColumn, limit }: LinkList, keys: readonly Value[], targets?: TargetRows): Promise<Map<string, Row[]>> {
    const filtered = rowScope(this.registry.require(target).rowPolicy, identity) !== undefined;
    const links = await this.store.find(through, {
      where: { column: sourceColumn, op: 'in', value: [...keys] },
      orderBy: [{ column: this.registry.require(through).primaryKey, direction: 'asc' }],
      columns: [sourceColumn, targetColumn],
      ...(filtered ? {} : { perGroup: { column: sourceColumn, limit } }),
    });
    const groups = new Map<string, Row[]>();
    if (links.length === 0) return groups;
    const linked = links.map((link) => link[targetColumn] ?? null);
    const rows = await (targets ? targets(linked) : this.retrieve.execute(identity, target, linked));
    for (const link of links) {
      const row = rows.get(keyOf(link[targetColumn]));
      if (!row) continue;
      const k = keyOf(link[sourceColumn]);
      const group = groups.get(k) ?? [];
      if (group.length >= limit) continue;
      if (group.length === 0) groups.set(k, group);
      group.push(row);
    }
    return groups;
  }
}
