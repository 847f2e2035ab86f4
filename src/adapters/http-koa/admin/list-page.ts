import { ADMIN_PAGE_SIZE, type AdminListRequest } from '../../../application/admin/list-admin-rows.js';
import { filterColumns, listColumns } from '../../../domain/admin/admin-config.js';
import { columnOf } from '../../../domain/model/model-registry.js';
import type { HttpResponse } from '../http-route.js';
import type { AdminCall } from './admin-context.js';
import { cellText, fkCell, keyPath } from './cells.js';
import { csrfInput } from './csrf.js';
import { html, pageParam, queryString } from './html.js';
import { filterSidebar } from './list-filters.js';

const CONTROL = new Set(['q', 'o', 'p', 'deleted']);

/** The list request of the URL: `q` search, `o` ordering, `p` page, `deleted=1`, every other parameter a REST filter. */
export function listRequest(query: Readonly<Record<string, string | string[] | undefined>>, defaultOrdering: string | undefined): AdminListRequest {
  const one = (k: string) => (typeof query[k] === 'string' ? (query[k] as string) : '');
  const filters: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (!CONTROL.has(k) && typeof v === 'string' && v !== '') filters[k] = v;
  return { filters, search: one('q'), ordering: one('o') || (defaultOrdering ?? ''), page: pageParam(one('p')), deleted: one('deleted') === '1' };
}

/** The current list parameters with some replaced (for sort, filter and page links). */
export function listParams(req: AdminListRequest, change: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...req.filters, q: req.search, o: req.ordering, deleted: req.deleted ? '1' : undefined, ...change };
}

/** The list page of one table: search, filters, sortable columns, one page with totals, bulk delete. */
export async function listPage(call: AdminCall): Promise<HttpResponse> {
  const { deps, req } = call;
  const { model, options, policy, label } = call.entry('view');
  const request = listRequest(req.query, options.ordering);
  const shown = listColumns(model, options, policy);
  const result = await deps.list.execute(model, call.identity, options, policy, request, shown);
  const base = `${deps.prefix}/${model.table}`;
  const canDelete = call.rights.can(model.table, 'delete');
  const sortLink = (col: string) => {
    const next = request.ordering === col ? `-${col}` : col;
    const mark = request.ordering === col ? ' ▲' : request.ordering === `-${col}` ? ' ▼' : '';
    return html`<a href="${base}${queryString(listParams(request, { o: next, p: undefined }))}">${col}${mark}</a>`;
  };
  const rows = result.rows.map((row) => {
    const key = keyPath(row[model.primaryKey]);
    const cells = shown.map((c, i) => {
      const col = columnOf(model, c);
      const text = col?.references ? fkCell(result.labels.get(c), row[c]) : cellText(col, row[c]);
      return i === 0 ? html`<th scope="row"><a href="${base}/${key}">${text}</a></th>` : html`<td>${text}</td>`;
    });
    const select = canDelete ? html`<td><input type="checkbox" name="_selected.${key}" value="${decodeURIComponent(key)}" aria-label="Select ${decodeURIComponent(key)}"></td>` : '';
    return html`<tr>${select}${cells}</tr>`;
  });
  const pages = Math.max(1, Math.ceil(result.count / ADMIN_PAGE_SIZE));
  const pager = html`<nav class="paginator" aria-label="Pages">${request.page > 1 ? html`<a href="${base}${queryString(listParams(request, { p: String(request.page - 1) }))}" rel="prev">‹ Previous</a> ` : ''}Page ${request.page} of ${pages} · ${result.count} ${result.count === 1 ? 'row' : 'rows'}${request.page < pages ? html` <a href="${base}${queryString(listParams(request, { p: String(request.page + 1) }))}" rel="next">Next ›</a>` : ''}</nav>`;
  const table = html`<div class="table-wrap"><table><thead><tr>${canDelete ? html`<th scope="col"><span class="help">Select</span></th>` : ''}${shown.map((c) => html`<th scope="col">${sortLink(c)}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
  const bulk = canDelete
    ? html`<form method="post" action="${base}/delete-selected">${csrfInput(req)}${table}<div class="actions"><button type="submit" class="danger" name="action" value="delete">Delete selected…</button></div></form>`
    : table;
  const search = html`<form method="get" action="${base}" class="search" role="search"><label for="q" class="help">Search</label><input type="search" id="q" name="q" value="${request.search}">${Object.entries(request.filters).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}${request.deleted ? html`<input type="hidden" name="deleted" value="1">` : ''}<button type="submit">Search</button></form>`;
  const add = call.rights.can(model.table, 'add') ? html`<div class="actions"><a class="button" href="${base}/add">Add ${label}</a></div>` : '';
  const sidebar = await filterSidebar(call, model, filterColumns(model, options, policy), request, base);
  const body = html`${add}${search}<div class="layout"><div class="results">${bulk}${pager}</div>${sidebar}</div>`;
  return call.page(label, [['Home', `${deps.prefix}/`], [label, null]], body);
}
