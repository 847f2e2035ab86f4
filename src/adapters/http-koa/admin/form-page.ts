import { fileColumnsOf, type UploadedFile } from '../../../domain/storage/file-value.js';
import { differingColumns, StaleAdminRecord, STALE_MESSAGE } from '../../../application/admin/admin-versions.js';
import { keyText } from '../../../application/rest/m2m-links.js';
import { parseForm, type FormFields } from '../../../domain/admin/form-values.js';
import { DomainError, type FieldError } from '../../../domain/errors/domain-error.js';
import { columnOf } from '../../../domain/model/model-registry.js';
import type { Identity } from '../../../domain/auth/identity.js';
import type { ModelDef, Row, Value } from '../../../domain/model/types.js';
import { parseTextValue } from '../../../domain/rest/list-query.js';
import type { HttpResponse } from '../http-route.js';
import { STATUS_BY_CODE } from '../problem-mapping.js';
import { redirect, type AdminCall } from './admin-context.js';
import { cellText, keyPath } from './cells.js';
import { csrfInput } from './csrf.js';
import { html } from './html.js';
import { columnField, linksField, type FormState } from './widgets.js';
import type { SafeHtml } from '../safe-html.js';

type Entry = ReturnType<AdminCall['entry']>;

/** The row of the URL (soft-deleted rows included, so they can be viewed and restored); 404 when absent or out of the caller's row policy. */
export async function loadRow(call: AdminCall, entry: Entry): Promise<{ id: Value; row: Row }> {
  const text = call.req.params.id ?? '';
  const id = parseKey(entry.model, text);
  const row = id === undefined ? null : await call.deps.rows.one(entry.model, call.identity, id);
  if (!row || id === undefined) throw new DomainError('not_found', `${entry.label} ${text} not found`);
  return { id: row[entry.model.primaryKey] ?? id, row };
}

/** A key of the URL or a form as the domain value of the primary key; undefined when it cannot be one. */
export function parseKey(model: ModelDef, text: string): Value | undefined {
  const pk = columnOf(model, model.primaryKey);
  return pk ? parseTextValue(pk, text) : undefined;
}

/** A staff user who is not a superuser may not change, delete or set the password of a superuser (privilege escalation). */
export function guardSuperuserRow(identity: Identity, table: string, row: Row): void {
  if (table === 'auth_user' && row.is_superuser === true && !identity.isSuperuser) {
    throw new DomainError('forbidden', 'only a superuser may change a superuser');
  }
}

async function formBody(call: AdminCall, entry: Entry, state: FormState): Promise<SafeHtml> {
  const { model, options, policy } = entry;
  const names = model.columns.map((c) => c.name).filter((c) => policy.readable(c) && (state.row || c !== model.primaryKey || policy.editable(c)));
  const configured = options.fieldsets;
  const keyFirst = configured && !configured.some((set) => set.fields.includes(model.primaryKey)) ? [{ title: '', fields: [model.primaryKey] }] : [];
  const sets = configured ? [...keyFirst, ...configured] : [{ title: '', fields: [...names, ...model.manyToMany.map((r) => r.name)] }];
  const groups: SafeHtml[] = [];
  for (const set of sets) {
    const fields: SafeHtml[] = [];
    for (const name of set.fields) {
      const col = columnOf(model, name);
      const rel = model.manyToMany.find((r) => r.name === name);
      if (col && names.includes(name)) fields.push(await columnField(call, model, col, policy, state));
      else if (rel && call.rights.can(model.table, state.row ? 'change' : 'add')) fields.push(await linksField(call, rel, state));
    }
    groups.push(html`<section class="group">${set.title ? html`<h2>${set.title}</h2>` : ''}${fields}</section>`);
  }
  return html`${groups}`;
}

/** The name of the hidden field a change form carries the version of the row it shows in. */
export const VERSION_FIELD = '_version';

/** A save refused because the row changed since its form was opened: the row as it is now, its version, and what was posted. */
export interface Conflict {
  readonly current: Row;
  readonly version: string;
  /** The posted write body (typed values; many-to-many relations as lists of keys). */
  readonly posted: Readonly<Record<string, unknown>>;
}

/** The notice of a conflict: each field whose posted value differs from the current one, with both values. */
function conflictNotice(entry: Entry, conflict: Conflict, links: ReadonlyMap<string, readonly Value[]>): SafeHtml {
  const { model, label } = entry;
  const rows: SafeHtml[] = differingColumns(model, conflict.posted, conflict.current).map((name) => {
    const col = columnOf(model, name);
    return html`<tr><th scope="row">${name}</th><td>${cellText(col, conflict.posted[name] as Value)}</td><td>${cellText(col, conflict.current[name])}</td></tr>`;
  });
  for (const rel of model.manyToMany) {
    const posted = conflict.posted[rel.name];
    if (!Array.isArray(posted)) continue;
    const mine = posted.map((v) => keyText(v as Value)).sort();
    const now = (links.get(rel.name) ?? []).map(keyText).sort();
    if (mine.join() !== now.join()) rows.push(html`<tr><th scope="row">${rel.name}</th><td>${mine.join(', ') || '—'}</td><td>${now.join(', ') || '—'}</td></tr>`);
  }
  const table = rows.length > 0 ? html`<table class="conflict"><thead><tr><th scope="col">Field</th><th scope="col">Yours</th><th scope="col">Current</th></tr></thead><tbody>${rows}</tbody></table>` : '';
  return html`<div class="flash error" role="alert" id="conflict"><p>This ${label} was ${STALE_MESSAGE}. Your input is kept below; ${rows.length > 0 ? 'where it differs from the current values, both are shown here' : 'it matches the current values'}. Save again to store yours.</p>${table}</div>`;
}

/**
 * Renders the add or change form (status 400 with the errors beside their fields after a refused
 * post; 412, REST's status of `precondition_failed`, after a save refused for a stale version,
 * with `conflict`: both values of each field that differs, the input kept, and the new version in
 * the hidden field so that saving again stores it). A change form carries the version of the row
 * it shows in {@link VERSION_FIELD}; after refused input, the version first posted.
 */
export async function renderForm(call: AdminCall, entry: Entry, target: { id: Value; row: Row } | undefined, fields?: FormFields, errors: readonly FieldError[] = [], conflict?: Conflict): Promise<HttpResponse> {
  const { deps, req } = call;
  const { model, label } = entry;
  const base = `${deps.prefix}/${model.table}`;
  const links = target ? await deps.rows.links(model, target.row) : new Map<string, readonly Value[]>();
  const version = target ? (conflict?.version ?? fields?.[VERSION_FIELD] ?? deps.versions.of(model, target.row)) : undefined;
  const state: FormState = { ...(target ? { row: target.row } : {}), ...(fields ? { fields } : {}), errors, links };
  const action = target ? `${base}/${keyPath(target.id)}` : `${base}/add`;
  const general = errors.filter((e) => !model.columns.some((c) => c.name === e.field) && !model.manyToMany.some((r) => e.field.startsWith(r.name)));
  const deleted = target !== undefined && model.softDelete && target.row.deleted_at !== null && target.row.deleted_at !== undefined;
  const mayChange = target ? call.rights.can(model.table, 'change') : true;
  // A deleted row is shown read-only until it is restored (the write path changes live rows only).
  const editable = mayChange && !deleted;
  const tools = target
    ? html`<div class="actions"><a href="${base}/${keyPath(target.id)}/history">History</a>${model.table === 'auth_user' && editable ? html` <a href="${base}/${keyPath(target.id)}/password">Set password</a>` : ''}${call.rights.can(model.table, 'delete') ? html` <a class="button danger" href="${base}/${keyPath(target.id)}/delete">Delete</a>` : ''}</div>`
    : '';
  const restore = deleted
    ? html`<div class="flash error" role="status">This row is deleted.${mayChange ? html` <form method="post" action="${base}/${keyPath(target.id)}/restore">${csrfInput(req)}<button type="submit">Restore</button></form>` : ''}</div>`
    : '';
  const summary = errors.length > 0 ? html`<div class="flash error" role="alert">Please correct the errors below.${general.length ? html`<ul class="errorlist">${general.map((e) => html`<li>${e.message}</li>`)}</ul>` : ''}</div>` : '';
  const form = editable
    ? html`<form method="post" action="${action}"${fileColumnsOf(model).size > 0 ? html` enctype="multipart/form-data"` : ''} novalidate>${csrfInput(req)}${version === undefined ? '' : html`<input type="hidden" name="${VERSION_FIELD}" value="${version}">`}${await formBody(call, entry, state)}<div class="actions"><button type="submit">Save</button> <a href="${base}">Cancel</a></div></form>`
    : await formBody(call, { ...entry, policy: { ...entry.policy, editable: () => false } }, state);
  const title = target ? `Change ${label} ${String(target.id)}` : `Add ${label}`;
  const notice = conflict ? conflictNotice(entry, conflict, links) : '';
  const status = conflict ? STATUS_BY_CODE.precondition_failed : errors.length > 0 ? 400 : 200;
  return call.page(title, [['Home', `${deps.prefix}/`], [label, base], [target ? String(target.id) : 'Add', null]], html`${restore}${notice}${summary}${deleted ? '' : tools}${form}`, status);
}

/**
 * The posted fields, and the files of a multipart form (a model with file columns), each kept in
 * storage under its column's rule as it arrives; a refused file answers its problem.
 */
async function postedForm(call: AdminCall, model: ModelDef, policy: Entry['policy']): Promise<{ fields: FormFields; files: Record<string, UploadedFile> }> {
  if (!call.req.multipart) return { fields: (call.req.body ?? {}) as FormFields, files: {} };
  const stored = call.deps.files();
  if (!stored || fileColumnsOf(model).size === 0) throw new DomainError('unsupported_media_type', `the ${model.table} form takes no files`);
  const form = await call.req.readMultipart({ fileFields: stored.fields(model, policy.editable), onFile: (part) => stored.keep(model, part), discard: (kept) => stored.discard(kept) });
  return { fields: form.fields, files: { ...form.files } };
}

const FIELD_CODES = new Set(['invalid_input', 'privileged_field', 'unique_violation', 'foreign_key_violation', 'not_null_violation', 'check_violation']);

/**
 * Handles a posted add or change form through the shared write path; refused input re-renders
 * the form with the input kept (400), and so does a change whose posted version is stale (412).
 */
export async function saveForm(call: AdminCall, entry: Entry, target: { id: Value; row: Row } | undefined): Promise<HttpResponse> {
  const { model, policy } = entry;
  let posted: Awaited<ReturnType<typeof postedForm>>;
  try {
    posted = await postedForm(call, model, policy);
  } catch (e) {
    // A refused file (its type, its size, an empty one) is shown beside its field; the form is shown again as stored.
    if (e instanceof DomainError && e.errors.length > 0 && e.code !== 'csrf_failed') return renderForm(call, entry, target, undefined, e.errors);
    throw e;
  }
  const { fields, files } = posted;
  const parsed = parseForm(model, fields, policy.editable);
  if (parsed.errors.length > 0) {
    await call.deps.files()?.discard(Object.values(files));
    return renderForm(call, entry, target, fields, parsed.errors);
  }
  const surface = { model, policy };
  const body = { ...parsed.body, ...files };
  const write = () =>
    target
      ? call.deps.save.update(surface, call.identity, target.id, body, (before) => guardSuperuserRow(call.identity, model.table, before), fields[VERSION_FIELD])
      : call.deps.save.create(surface, call.identity, body);
  try {
    const stored = call.deps.files();
    const row = stored ? await stored.writing(body, write) : await write();
    const id = row[model.primaryKey] ?? null;
    await call.req.session?.flash({ level: 'success', body: `${entry.label} ${String(id)} was ${target ? 'changed' : 'added'}.` });
    return redirect(`${call.deps.prefix}/${model.table}/${keyPath(id)}`);
  } catch (e) {
    if (e instanceof StaleAdminRecord && target) return renderForm(call, entry, { id: target.id, row: e.current }, fields, [], { current: e.current, version: e.version, posted: parsed.body });
    if (!(e instanceof DomainError) || !FIELD_CODES.has(e.code)) throw e;
    const errors = e.errors.length > 0 ? e.errors : [{ field: '', message: e.detail }];
    return renderForm(call, entry, target, fields, errors);
  }
}
