import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { DeleteRecord } from '../write/delete-record.js';
import { writeAudit } from './admin-audit.js';

/** Rows of another table that keep a row from being deleted (a restricting foreign key). */
export interface Blocker {
  readonly table: string;
  readonly column: string;
  readonly count: number;
  /** A few of the referencing rows. */
  readonly sample: readonly Row[];
}

const SAMPLE = 5;

/**
 * The admin's delete: first the rows that reference the ones to delete (the registry's reverse
 * relations; links of many-to-many junctions do not block: the store removes them with the row), then,
 * when nothing blocks, every delete through the shared `DeleteRecord` path with its history row,
 * in one transaction. A soft-delete model only stamps `deleted_at`, so nothing blocks it.
 */
export class DeleteAdminRecords {
  private readonly deleter = new DeleteRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  private junctions(): Set<string> {
    return new Set(this.registry.all().flatMap((m) => m.manyToMany.map((r) => r.through)));
  }

  /** What keeps `ids` of `model` from being deleted; empty when they may go. Two statements per reverse relation. */
  async blockers(model: ModelDef, ids: readonly Value[], store: RecordStore = this.store): Promise<Blocker[]> {
    if (model.softDelete || ids.length === 0) return [];
    const junctions = this.junctions();
    const out: Blocker[] = [];
    for (const rel of this.registry.reverseRelations(model.table)) {
      if (junctions.has(rel.table)) continue;
      const where = { column: rel.column, op: 'in' as const, value: [...ids] };
      const count = await store.count(rel.table, where, { withDeleted: true });
      if (count === 0) continue;
      const sample = await store.find(rel.table, { where, limit: SAMPLE, withDeleted: true });
      out.push({ table: rel.table, column: rel.column, count, sample });
    }
    return out;
  }

  /** Deletes `ids` (refusing with `still_referenced` when something blocks) and writes a history row for each. */
  async execute(model: ModelDef, identity: Identity, ids: readonly Value[]): Promise<void> {
    await this.store.transaction(async (tx) => {
      for (const id of ids) {
        await this.deleter.execute(tx, model, id, async (inner) => {
          if ((await this.blockers(model, [id], inner)).length > 0) throw new DomainError('still_referenced', `${model.table} ${String(id)} is still referenced`);
        }, identity);
        await writeAudit(tx, identity, 'delete', model.table, id, []);
      }
    });
  }
}
