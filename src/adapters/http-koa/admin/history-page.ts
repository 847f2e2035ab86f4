import { AUDIT_TABLE } from '../../../application/admin/admin-audit.js';
import { keyText } from '../../../application/rest/m2m-links.js';
import type { Value } from '../../../domain/model/types.js';
import type { HttpResponse } from '../http-route.js';
import type { AdminCall } from './admin-context.js';
import { cellText, keyPath } from './cells.js';
import { html } from './html.js';
import { PASSWORD_HASH } from '../../../domain/rest/field-policy.js';
import { parseKey } from './form-page.js';
import { rowLabel } from '../../../application/admin/list-admin-rows.js';

/** The History page of one row: its audit rows, newest first (who, when, what, which columns). */
export async function historyPage(call: AdminCall): Promise<HttpResponse> {
  const { deps } = call;
  const entry = call.entry('view');
  const id = call.req.params.id ?? '';
  const rows = await deps.store.find(AUDIT_TABLE, {
    where: { all: [{ column: 'table_name', op: 'eq', value: entry.model.table }, { column: 'row_id', op: 'eq', value: id }] },
    orderBy: [{ column: 'id', direction: 'desc' }],
    limit: 200,
  });
  const key = parseKey(entry.model, id);
  const row = key === undefined ? null : await deps.store.getById(entry.model.table, key, { withDeleted: true });
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((v): v is Value => v !== null && v !== undefined))];
  const users = userIds.length ? await deps.store.getManyByIds('auth_user', userIds) : [];
  const names = new Map(users.map((u) => [keyText(u.id), String(u.username)]));
  const items = rows.map((r) => {
    const changes = r.changes as { columns?: unknown } | null;
    const columns = Array.isArray(changes?.columns) ? changes.columns.map((c) => (c === PASSWORD_HASH ? 'password' : String(c))).join(', ') : '';
    return html`<tr><td>${cellText(undefined, r.created_at)}</td><td>${r.user_id === null ? '—' : (names.get(keyText(r.user_id)) ?? keyText(r.user_id))}</td><td>${String(r.action)}</td><td>${columns || '—'}</td></tr>`;
  });
  const base = `${deps.prefix}/${entry.model.table}`;
  const body = html`<p>${row ? rowLabel(entry.model, row) : 'This row no longer exists.'}</p>${rows.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">When (UTC)</th><th scope="col">User</th><th scope="col">Action</th><th scope="col">Changed columns</th></tr></thead><tbody>${items}</tbody></table></div>`
    : html`<p>No history for this row.</p>`}`;
  return call.page(`History of ${entry.label} ${id}`, [['Home', `${deps.prefix}/`], [entry.label, base], [id, `${base}/${keyPath(id)}`], ['History', null]], body);
}
