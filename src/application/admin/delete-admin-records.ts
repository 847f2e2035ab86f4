import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { DeleteRecord } from '../write/delete-record.js';
import { writeAudit } from './admin-audit.js';
import { and } from '../rest/rest-resource.js';
import { adminScope } from './admin-rows.js';

/** Rows of another table that keep a row from being deleted (a restricting foreign key). */
export interface Blocker {
  readonly table: string;
  readonly column: string;
  readonly count: number;
  /** A few of the referencing rows (those the caller reaches, when the referencing model has a row policy). */
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

  /**
   * What keeps `ids` of `model` from being deleted; empty when they may go. Two statements per
   * reverse relation. Every referencing row counts (each one blocks), but the sample shows only
   * rows `identity` reaches under the referencing model's row policy (no sample without an identity:
   * one statement per relation).
   */
  async blockers(model: ModelDef, ids: readonly Value[], identity?: Identity, store: RecordStore = this.store): Promise<Blocker[]> {
    if (model.softDelete || ids.length === 0) return [];
    const junctions = this.junctions();
    const out: Blocker[] = [];
    for (const rel of this.registry.reverseRelations(model.table)) {
      if (junctions.has(rel.table)) continue;
      const where = { column: rel.column, op: 'in' as const, value: [...ids] };
      const count = await store.count(rel.table, where, { withDeleted: true });
      if (count === 0) continue;
      const scope = identity ? adminScope(this.registry.require(rel.table), identity) : undefined;
      const sample = identity ? await store.find(rel.table, { where: and(where, scope), limit: SAMPLE, withDeleted: true }) : [];
      out.push({ table: rel.table, column: rel.column, count, sample });
    }
    return out;
  }

  /**
   * Deletes `ids` (refusing with `still_referenced` when something blocks) and writes a history
   * row for each; for a caller who is not a superuser, one id out of the model's row policy is
   * `not_found` and nothing is deleted.
   */
  async execute(model: ModelDef, identity: Identity, ids: readonly Value[]): Promise<void> {
    await this.store.transaction(async (tx) => {
      for (const id of ids) {
        await this.deleter.execute(tx, model, id, {
          guard: async (inner) => {
            if ((await this.blockers(model, [id], undefined, inner)).length > 0) throw new DomainError('still_referenced', `${model.table} ${String(id)} is still referenced`);
          },
          caller: identity,
          everyRow: identity.isSuperuser,
        });
        await writeAudit(tx, identity, 'delete', model.table, id, []);
      }
    });
  }
}
