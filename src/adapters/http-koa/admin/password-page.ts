import { DomainError, type FieldError } from '../../../domain/errors/domain-error.js';
import type { FormFields } from '../../../domain/admin/form-values.js';
import type { HttpResponse } from '../http-route.js';
import { redirect, type AdminCall } from './admin-context.js';
import { keyPath } from './cells.js';
import { csrfInput } from './csrf.js';
import { guardSuperuserRow, loadRow } from './form-page.js';
import { html } from './html.js';

/** The "set password" form of a user (auth_user only; needs the change right). */
export async function passwordPage(call: AdminCall, errors: readonly FieldError[] = []): Promise<HttpResponse> {
  const entry = call.entry('change');
  if (entry.model.table !== 'auth_user') throw new DomainError('not_found', 'only users have a password');
  const { id, row } = await loadRow(call, entry);
  guardSuperuserRow(call.identity, entry.model.table, row);
  const base = `${call.deps.prefix}/auth_user`;
  const err = errors.length ? html`<ul class="errorlist" id="err-password">${errors.map((e) => html`<li>${e.message}</li>`)}</ul>` : '';
  const body = html`<p>Set a new password for <strong>${String(row.username)}</strong>. It is stored as an argon2id hash; the old one stops working.</p>
<form method="post" action="${base}/${keyPath(id)}/password">${csrfInput(call.req)}
<div class="field${errors.length ? ' has-error' : ''}"><label for="f-password">New password</label><input type="password" id="f-password" name="password" autocomplete="new-password" required${errors.length ? html` aria-describedby="err-password"` : ''}>${err}</div>
<div class="field"><label for="f-password2">New password (again)</label><input type="password" id="f-password2" name="password2" autocomplete="new-password" required></div>
<div class="actions"><button type="submit">Set password</button> <a href="${base}/${keyPath(id)}">Cancel</a></div></form>`;
  return call.page(`Set password`, [['Home', `${call.deps.prefix}/`], [entry.label, base], [String(id), `${base}/${keyPath(id)}`], ['Password', null]], body, errors.length ? 400 : 200);
}

/** Sets the password (signup rules, argon2 hash, history row); refused input re-renders the form with the problems. */
export async function setPassword(call: AdminCall): Promise<HttpResponse> {
  const entry = call.entry('change');
  if (entry.model.table !== 'auth_user') throw new DomainError('not_found', 'only users have a password');
  const { id } = await loadRow(call, entry);
  const fields = (call.req.body ?? {}) as FormFields;
  try {
    await call.deps.setPassword.execute(call.identity, id, fields.password ?? '', fields.password2 ?? '', (user) => guardSuperuserRow(call.identity, 'auth_user', user));
  } catch (e) {
    if (e instanceof DomainError && e.code === 'invalid_input') return passwordPage(call, e.errors);
    throw e;
  }
  await call.req.session?.flash({ level: 'success', body: 'The password was changed.' });
  return redirect(`${call.deps.prefix}/auth_user/${keyPath(id)}`);
}
