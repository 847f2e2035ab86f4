import type { Blocker } from '../../../application/admin/delete-admin-records.js';
import { rowLabel } from '../../../application/admin/list-admin-rows.js';
import { keyText } from '../../../application/rest/m2m-links.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Row, Value } from '../../../domain/model/types.js';
import type { FormFields } from '../../../domain/admin/form-values.js';
import type { HttpResponse } from '../http-route.js';
import { redirect, tableLabel, type AdminCall } from './admin-context.js';
import { keyPath } from './cells.js';
import { csrfInput } from './csrf.js';
import { guardSuperuserRow, parseKey } from './form-page.js';
import { html } from './html.js';
import type { SafeHtml } from '../safe-html.js';

type Entry = ReturnType<AdminCall['entry']>;

function blockerList(call: AdminCall, blockers: readonly Blocker[]): SafeHtml {
  const { deps } = call;
  return html`<div class="flash error" role="alert"><p>This cannot be deleted: other rows refer to it. Delete or change them first.</p><ul>${blockers.map((b) => {
    const model = deps.registry.require(b.table);
    const linked = deps.models.has(b.table) && call.rights.can(b.table, 'view');
    const sample = b.sample.map((r) => {
      const text = rowLabel(model, r);
      return html`<li>${linked ? html`<a href="${deps.prefix}/${b.table}/${keyPath(r[model.primaryKey])}">${text}</a>` : text}</li>`;
    });
    return html`<li>${tableLabel(deps, b.table)} (${b.column}): ${b.count} ${b.count === 1 ? 'row' : 'rows'}<ul>${sample}</ul></li>`;
  })}</ul></div>`;
}

/** Loads the rows named by `ids`: one out of the caller's row policy is a 404 for the whole selection; staff may not delete a superuser unless superuser themselves. */
async function targets(call: AdminCall, entry: Entry, ids: readonly string[]): Promise<Row[]> {
  if (ids.length === 0) throw new DomainError('invalid_input', 'select at least one row');
  if (ids.length > 1000) throw new DomainError('invalid_input', 'select at most 1000 rows');
  const keys = ids.map((t) => parseKey(entry.model, t));
  if (keys.some((k) => k === undefined)) throw new DomainError('invalid_input', 'the selection names a key that is not valid');
  const rows = await call.deps.rows.selection(entry.model, call.identity, keys as Value[]);
  for (const r of rows) guardSuperuserRow(call.identity, entry.model.table, r);
  return rows;
}

/** The confirmation page of a delete (one row or a selection): the rows, and what blocks them. */
export async function confirmDelete(call: AdminCall, entry: Entry, ids: readonly string[]): Promise<HttpResponse> {
  const { deps, req } = call;
  const { model, label } = entry;
  const rows = await targets(call, entry, ids);
  const keys = rows.map((r) => r[model.primaryKey] ?? null);
  const blockers = await deps.remove.blockers(model, keys, call.identity);
  const base = `${deps.prefix}/${model.table}`;
  const list = html`<ul>${rows.map((r) => html`<li>${rowLabel(model, r)}</li>`)}</ul>`;
  const form = blockers.length
    ? html`<p><a href="${base}">Back to the list</a></p>`
    : html`<form method="post" action="${base}/delete-selected">${csrfInput(req)}${keys.map((k, i) => html`<input type="hidden" name="_selected.${i}" value="${keyText(k)}">`)}<input type="hidden" name="confirm" value="yes"><div class="actions"><button type="submit" class="danger">Yes, delete</button> <a href="${base}">No, go back</a></div></form>`;
  const question = html`<p>${model.softDelete ? 'These rows will be marked deleted (they can be restored):' : 'Are you sure you want to delete these rows?'}</p>`;
  return call.page(`Delete ${label}`, [['Home', `${deps.prefix}/`], [label, base], ['Delete', null]], html`${blockers.length ? blockerList(call, blockers) : question}${list}${form}`, blockers.length ? 409 : 200);
}

/** The keys of a posted selection (`_selected.<n>` checkboxes). */
export function selectedIds(fields: FormFields): string[] {
  return Object.entries(fields).filter(([k, v]) => k.startsWith('_selected.') && v !== undefined && v !== '').map(([, v]) => v as string);
}

/** Deletes a confirmed selection through the shared delete path; shows the blockers instead when rows still refer to them. */
export async function deleteSelected(call: AdminCall, entry: Entry): Promise<HttpResponse> {
  const fields = (call.req.body ?? {}) as FormFields;
  const ids = selectedIds(fields);
  if (fields.confirm !== 'yes') return confirmDelete(call, entry, ids);
  const rows = await targets(call, entry, ids);
  const keys: Value[] = rows.map((r) => r[entry.model.primaryKey] ?? null);
  try {
    await call.deps.remove.execute(entry.model, call.identity, keys);
  } catch (e) {
    if (e instanceof DomainError && (e.code === 'still_referenced' || e.code === 'foreign_key_violation')) return confirmDelete(call, entry, ids);
    throw e;
  }
  await call.req.session?.flash({ level: 'success', body: `Deleted ${keys.length} ${entry.label} ${keys.length === 1 ? 'row' : 'rows'}.` });
  return redirect(`${call.deps.prefix}/${entry.model.table}`);
}
