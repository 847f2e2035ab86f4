import type { Identity } from '../../domain/auth/identity.js';
import { labelColumn, searchColumns, type AdminModelOptions } from '../../domain/admin/admin-config.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { FieldPolicy } from '../../domain/rest/field-policy.js';
import { fieldPolicy } from '../../domain/rest/field-policy.js';
import { parseListQuery } from '../../domain/rest/list-query.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keyText } from '../rest/m2m-links.js';
import { AdminRows, adminScope } from './admin-rows.js';

/** Rows per admin list page. */
export const ADMIN_PAGE_SIZE = 50;

/** A list page request: REST-style filters (`published=true`, `created_at__gte=…`), `q`, `o`, `p`. */
export interface AdminListRequest {
  readonly filters: Readonly<Record<string, string>>;
  readonly search: string;
  readonly ordering: string;
  readonly page: number;
  /** `live` (default), `deleted` (only soft-deleted rows) on a soft-delete model. */
  readonly deleted: boolean;
}

export interface AdminListPage {
  readonly count: number;
  readonly rows: Row[];
  /** Display names of the rows foreign keys point at, by column then key text. */
  readonly labels: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/**
 * The admin list: the REST list semantics (filters, lookups, ordering; an unknown or hidden
 * column is `invalid_query`), `q` searching the search fields, one page of rows, and the
 * labels of the foreign keys shown: a count, a page query and one query per foreign key shown,
 * whatever the table size. For a caller who is not a superuser, the model's row policy is ANDed
 * to everything (rows, count, pages), and a foreign key pointing at a row of a scoped model the
 * caller does not reach shows its key only.
 */
export class ListAdminRows {
  private readonly reads: AdminRows;

  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {
    this.reads = new AdminRows(store, registry);
  }

  async execute(model: ModelDef, identity: Identity, options: AdminModelOptions, policy: FieldPolicy, request: AdminListRequest, shown: readonly string[]): Promise<AdminListPage> {
    const params = { ...request.filters, ...(request.ordering ? { ordering: request.ordering } : {}) };
    const query = parseListQuery(params, { registry: this.registry, model, visible: (table, column) => (table === model.table ? policy.readable(column) : true) });
    const scope = adminScope(model, identity);
    const conditions: Condition[] = [...(scope ? [scope] : []), ...(query.where ? [query.where] : [])];
    const fields = searchColumns(model, options, policy);
    if (request.search !== '' && fields.length > 0) conditions.push({ any: fields.map((column) => ({ column, op: 'icontains' as const, value: request.search })) });
    if (request.deleted && model.softDelete) conditions.push({ column: 'deleted_at', op: 'isnull', value: false });
    const where: Condition | undefined = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { all: conditions };
    const withDeleted = request.deleted && model.softDelete;
    const [count, rows] = await Promise.all([
      this.store.count(model.table, where, { withDeleted }),
      this.store.find(model.table, { ...(where ? { where } : {}), orderBy: query.orderBy, limit: ADMIN_PAGE_SIZE, offset: (Math.max(1, request.page) - 1) * ADMIN_PAGE_SIZE, withDeleted }),
    ]);
    return { count, rows, labels: await this.labels(model, identity, rows, shown) };
  }

  /** Display names of the targets of the foreign keys in `shown` that `identity` reaches, one `IN (…)` query per key. */
  async labels(model: ModelDef, identity: Identity, rows: readonly Row[], shown: readonly string[]): Promise<Map<string, Map<string, string>>> {
    const out = new Map<string, Map<string, string>>();
    for (const col of model.columns.filter((c) => c.references && shown.includes(c.name))) {
      const target = this.registry.require(col.references?.table as string);
      const ids = [...new Set(rows.map((r) => r[col.name]).filter((v): v is Value => v !== null && v !== undefined))];
      const found = await this.reads.labelled(target, identity, ids);
      out.set(col.name, new Map(found.map((r) => [keyText(r[target.primaryKey]), rowLabel(target, r)])));
    }
    return out;
  }
}

/** A row's display name: its label column (`name`, `title`, `username`, …) and key. */
export function rowLabel(model: ModelDef, row: Row): string {
  const column = labelColumn(model, fieldPolicy(model, { table: model.table }));
  const key = keyText(row[model.primaryKey]);
  const text = column ? row[column] : null;
  return text === null || text === undefined || text === '' ? `${model.table} #${key}` : `${String(text)} (#${key})`;
}
