import type { Identity } from '../../domain/auth/identity.js';
import type { ListQuery } from '../../domain/rest/list-query.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { HydrateIncludes, Presented } from './hydrate-includes.js';
import { and, authorize, scopeOf, type RestResource } from './rest-resource.js';

export interface ListPage {
  readonly count: number;
  readonly results: Presented[];
}

/**
 * The List action: the caller's scope AND the query's filters, counted and paged (ceiling
 * 1000), presented under the field policy, with `include` hydration.
 */
export class ListRows {
  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
  ) {}

  async execute(resource: RestResource, identity: Identity, query: ListQuery, parent?: ParentScope): Promise<ListPage> {
    authorize(resource, identity, 'read');
    const where = and(scopeOf(resource, identity, parent), query.where);
    const table = resource.model.table;
    const [count, rows] = await Promise.all([
      this.store.count(table, where),
      this.store.find(table, { orderBy: query.orderBy, limit: Math.min(query.limit, 1000), offset: query.offset, ...(where ? { where } : {}) }),
    ]);
    const results = await this.hydrate.execute(resource, rows, query.include);
    return { count, results: query.fields ? results.map((r) => project(r, query.fields as readonly string[], query.include)) : results };
  }
}

/** Keeps the requested columns (and the hydrated relations). */
export function project(row: Presented, fields: readonly string[], include: readonly (readonly string[])[]): Presented {
  const keep = new Set([...fields, ...include.map((p) => p[0] as string)]);
  return Object.fromEntries(Object.entries(row).filter(([k]) => keep.has(k)));
}
