import { keyText } from '../../../application/rest/m2m-links.js';
import type { HttpResponse } from '../http-route.js';
import type { AdminCall } from './admin-context.js';
import { cellText, keyPath } from './cells.js';
import { html } from './html.js';
import { PASSWORD_HASH } from '../../../domain/rest/field-policy.js';
import { parseKey } from './form-page.js';
import { rowLabel } from '../../../application/admin/list-admin-rows.js';

/** The History page of one row: its audit rows, newest first (who, when, what, which columns); 404 for a row out of the caller's row policy. */
export async function historyPage(call: AdminCall): Promise<HttpResponse> {
  const { deps } = call;
  const entry = call.entry('view');
  const id = call.req.params.id ?? '';
  const { row, entries, usernames } = await deps.history.execute(entry.model, call.identity, id, parseKey(entry.model, id));
  const items = entries.map((r) => {
    const changes = r.changes as { columns?: unknown } | null;
    const columns = Array.isArray(changes?.columns) ? changes.columns.map((c) => (c === PASSWORD_HASH ? 'password' : String(c))).join(', ') : '';
    return html`<tr><td>${cellText(undefined, r.created_at)}</td><td>${r.user_id === null ? '—' : (usernames.get(keyText(r.user_id)) ?? keyText(r.user_id))}</td><td>${String(r.action)}</td><td>${columns || '—'}</td></tr>`;
  });
  const base = `${deps.prefix}/${entry.model.table}`;
  const body = html`<p>${row ? rowLabel(entry.model, row) : 'This row no longer exists.'}</p>${entries.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">When (UTC)</th><th scope="col">User</th><th scope="col">Action</th><th scope="col">Changed columns</th></tr></thead><tbody>${items}</tbody></table></div>`
    : html`<p>No history for this row.</p>`}`;
  return call.page(`History of ${entry.label} ${id}`, [['Home', `${deps.prefix}/`], [entry.label, base], [id, `${base}/${keyPath(id)}`], ['History', null]], body);
}
