import type { AdminListRequest } from '../../../application/admin/list-admin-rows.js';
import { rowLabel } from '../../../application/admin/list-admin-rows.js';
import { keyText } from '../../../application/rest/m2m-links.js';
import type { ColumnDef, ModelDef } from '../../../domain/model/types.js';
import type { AdminCall } from './admin-context.js';
import { html, queryString } from './html.js';
import { listParams } from './list-page.js';
import type { SafeHtml } from '../safe-html.js';

/** Most targets a foreign-key filter lists as links; a larger table is filtered by typing its key. */
const FK_CHOICES = 100;

function choice(base: string, req: AdminListRequest, label: string, change: Record<string, string | undefined>, current: boolean): SafeHtml {
  return html`<li><a href="${base}${queryString(listParams(req, { ...change, p: undefined }))}"${current ? html` aria-current="true"` : ''}>${label}</a></li>`;
}

async function fkFilter(call: AdminCall, model: ModelDef, col: ColumnDef, req: AdminListRequest, base: string): Promise<SafeHtml> {
  const target = call.deps.registry.require(col.references?.table as string);
  const rows = await call.deps.rows.columnChoices(model, col, call.identity, FK_CHOICES + 1);
  const current = req.filters[col.name];
  if (rows.length > FK_CHOICES) {
    return html`<form method="get" action="${base}"><label for="f-${col.name}">${col.name}</label> <input type="text" id="f-${col.name}" name="${col.name}" value="${current ?? ''}" size="8"> <button type="submit" class="secondary">Filter</button></form>`;
  }
  const items = rows.map((r) => choice(base, req, rowLabel(target, r), { [col.name]: keyText(r[target.primaryKey]) }, current === keyText(r[target.primaryKey])));
  return html`<ul>${choice(base, req, 'All', { [col.name]: undefined }, current === undefined)}${items}</ul>`;
}

function dateFilter(col: ColumnDef, req: AdminListRequest, base: string): SafeHtml {
  const from = `${col.name}__gte`;
  const to = `${col.name}__lte`;
  const keep = Object.entries(listParams(req, { [from]: undefined, [to]: undefined, p: undefined })).filter(([, v]) => v);
  return html`<form method="get" action="${base}">${keep.map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
<label for="${from}">From</label> <input type="date" id="${from}" name="${from}" value="${req.filters[from] ?? ''}">
<label for="${to}">To</label> <input type="date" id="${to}" name="${to}" value="${req.filters[to] ?? ''}">
<button type="submit" class="secondary">Filter</button></form>`;
}

/** The filter sidebar: yes/no for booleans, the targets of foreign keys, date ranges, live or deleted rows. */
export async function filterSidebar(call: AdminCall, model: ModelDef, columns: readonly ColumnDef[], req: AdminListRequest, base: string): Promise<SafeHtml> {
  const parts: SafeHtml[] = [];
  for (const col of columns) {
    let body: SafeHtml;
    if (col.type === 'bool') {
      const cur = req.filters[col.name];
      body = html`<ul>${choice(base, req, 'All', { [col.name]: undefined }, cur === undefined)}${choice(base, req, 'Yes', { [col.name]: 'true' }, cur === 'true')}${choice(base, req, 'No', { [col.name]: 'false' }, cur === 'false')}</ul>`;
    } else if (col.references) body = await fkFilter(call, model, col, req, base);
    else if (col.type === 'date' || col.type === 'timestamp') body = dateFilter(col, req, base);
    else continue;
    parts.push(html`<h3>By ${col.name}</h3>${body}`);
  }
  if (model.softDelete) {
    parts.push(html`<h3>Deleted rows</h3><ul>${choice(base, req, 'Hide deleted', { deleted: undefined }, !req.deleted)}${choice(base, req, 'Show deleted only', { deleted: '1' }, req.deleted)}</ul>`);
  }
  return parts.length === 0 ? html`` : html`<aside aria-label="Filters"><h2>Filter</h2>${parts}</aside>`;
}
