import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf, type ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import { presentRow } from '../../domain/rest/field-policy.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keyText, loadLinks } from './m2m-links.js';
import type { RestResource } from './rest-resource.js';

/** A presented row: columns plus hydrated relations. */
export type Presented = Record<string, unknown>;

/**
 * Presents rows and hydrates `?include` paths (DESIGN §3 "include"): one `IN (…)` query per
 * relation per hop; the target table's field policy applies at every hop (its REST
 * configuration when served, else its defaults: `password_hash` and hidden columns stripped,
 * `auth_user` contact data hidden). A missing or soft-deleted target hydrates as null. A
 * many-to-many relation (the last hop of a path) hydrates as the array of linked target ids, in
 * the order the links were made, with one query on the junction table per page.
 */
export class HydrateIncludes {
  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
    private readonly resourceOf: (table: string) => RestResource,
  ) {}

  async execute(resource: RestResource, rows: readonly Row[], include: readonly (readonly string[])[]): Promise<Presented[]> {
    const out: Presented[] = rows.map((row) => presentRow(resource.model, row, resource.policy, resource.config, true));
    if (include.length > 0) await this.hydrate(resource.model, rows, out, include);
    return out;
  }

  private async hydrate(model: ModelDef, rows: readonly Row[], out: Presented[], paths: readonly (readonly string[])[]): Promise<void> {
    const byRelation = new Map<string, (readonly string[])[]>();
    for (const path of paths) {
      const [head, ...rest] = path;
      if (!head) continue;
      const list = byRelation.get(head) ?? [];
      if (rest.length > 0) list.push(rest);
      byRelation.set(head, list);
    }
    for (const [relation, subPaths] of byRelation) {
      const policy = this.resourceOf(model.table).policy;
      const m2m = model.manyToMany.find((rel) => rel.name === relation);
      if (m2m && subPaths.length === 0 && policy.readable(m2m.name)) {
        const linked = await loadLinks(this.store, this.registry, model, m2m, rows);
        linked.forEach((ids, i) => ((out[i] as Presented)[relation] = ids));
        continue;
      }
      const fk = model.columns.find((c) => c.references?.relation === relation);
      // A relation whose key column the caller cannot see cannot be followed either.
      if (!fk?.references || !policy.readable(fk.name)) {
        throw new DomainError('invalid_query', 'invalid query parameter "include"');
      }
      const target = this.registry.require(fk.references.table);
      const ids = [...new Set(rows.map((r) => r[fk.name]).filter((v): v is Value => v !== null && v !== undefined))];
      const found = ids.length === 0 ? [] : await this.store.getManyByIds(target.table, ids);
      const byId = new Map(found.map((r) => [keyText(r[target.primaryKey]), r]));
      const targetResource = this.resourceOf(target.table);
      const targetRows: Row[] = [];
      const targetOut: Presented[] = [];
      rows.forEach((row, i) => {
        const hit = row[fk.name] === null || row[fk.name] === undefined ? undefined : byId.get(keyText(row[fk.name]));
        const presented = hit ? presentRow(target, hit, targetResource.policy, targetResource.config, true) : null;
        (out[i] as Presented)[relation] = presented;
        if (hit && presented) {
          targetRows.push(hit);
          targetOut.push(presented);
        }
      });
      if (subPaths.length > 0 && columnOf(target, target.primaryKey)) await this.hydrate(target, targetRows, targetOut, subPaths);
    }
  }
}
