import { rowLabel } from '../../../application/admin/list-admin-rows.js';
import { keyText } from '../../../application/rest/m2m-links.js';
import type { AdminPolicy } from '../../../domain/admin/admin-config.js';
import { formShown, type FormFields } from '../../../domain/admin/form-values.js';
import type { FieldError } from '../../../domain/errors/domain-error.js';
import type { ColumnDef, ManyToManyDef, ModelDef, Row, Value } from '../../../domain/model/types.js';
import type { AdminCall } from './admin-context.js';
import { cellText } from './cells.js';
import { html } from './html.js';
import type { SafeHtml } from '../safe-html.js';

/** Most choices a select or checkbox list offers; past it the key is typed (with a datalist of the first ones). */
export const MAX_CHOICES = 100;

/** What one form renders from: the stored row (edit), the posted fields (after an error), the errors. */
export interface FormState {
  readonly row?: Row;
  readonly fields?: FormFields;
  readonly errors: readonly FieldError[];
  /** Stored many-to-many links of the row being edited, by relation. */
  readonly links: ReadonlyMap<string, readonly Value[]>;
}

function errorsOf(state: FormState, name: string): SafeHtml {
  const mine = state.errors.filter((e) => e.field === name || e.field.startsWith(`${name}[`));
  return mine.length === 0 ? html`` : html`<ul class="errorlist" id="err-${name}">${mine.map((e) => html`<li>${e.message}</li>`)}</ul>`;
}

function input(col: ColumnDef, value: string, describedBy: string | undefined): SafeHtml {
  const common = html`id="f-${col.name}" name="${col.name}"${col.nullable || col.default ? '' : html` required`}${describedBy ? html` aria-describedby="${describedBy}"` : ''}`;
  switch (col.type) {
    case 'int':
      return html`<input type="number" ${common} step="1" min="-2147483648" max="2147483647" value="${value}">`;
    case 'bigint':
      return html`<input type="number" ${common} step="1" min="-9223372036854775808" max="9223372036854775807" value="${value}">`;
    case 'float':
    case 'decimal':
      return html`<input type="number" ${common} step="any" value="${value}">`;
    case 'date':
      return html`<input type="date" ${common} value="${value}">`;
    case 'timestamp':
      return html`<input type="datetime-local" ${common} step="1" value="${value.slice(0, 19)}">`;
    case 'json':
      return html`<textarea ${common} spellcheck="false">${value}</textarea>`;
    case 'text':
      return value.length > 80 || value.includes('\n') || /body|bio|description|note/.test(col.name) ? html`<textarea ${common}>${value}</textarea>` : html`<input type="text" ${common} value="${value}">`;
    default:
      return html`<input type="text" ${common} value="${value}">`;
  }
}

/**
 * The choices of a foreign key: the target's rows the caller reaches (the row policy of the target
 * model); the owner column of a model under the row policy offers the caller only, chosen on an add form.
 */
async function fkWidget(call: AdminCall, model: ModelDef, col: ColumnDef, state: FormState, describedBy: string | undefined): Promise<SafeHtml> {
  const { deps } = call;
  const target = deps.registry.require(col.references?.table as string);
  const rows = await deps.rows.columnChoices(model, col, call.identity, MAX_CHOICES + 1);
  const shown = formShown(state.row, state.fields, col.name);
  const value = shown === '' && !state.row && !state.fields && model.rowPolicy?.ownedBy === col.name && call.identity.id !== null ? keyText(call.identity.id) : shown;
  const aria = describedBy ? html` aria-describedby="${describedBy}"` : '';
  if (rows.length > MAX_CHOICES) {
    // Past 100 rows: a typed key; the picker script (fk-picker.ts) turns the datalist into a search as you type.
    return html`<input type="text" id="f-${col.name}" name="${col.name}" value="${value}" list="dl-${col.name}" data-lookup="${deps.prefix}/${target.table}/lookup" autocomplete="off"${aria}><datalist id="dl-${col.name}">${rows.map((r) => html`<option value="${keyText(r[target.primaryKey])}">${rowLabel(target, r)}</option>`)}</datalist><span class="help">Type to search ${target.table}, or its key.</span>`;
  }
  const options = rows.map((r) => {
    const key = keyText(r[target.primaryKey]);
    return html`<option value="${key}"${key === value ? html` selected` : ''}>${rowLabel(target, r)}</option>`;
  });
  // A stored value the caller is not offered (another owner's row, set by a superuser) stays selected, shown by its key only.
  if (value !== '' && !rows.some((r) => keyText(r[target.primaryKey]) === value)) options.push(html`<option value="${value}" selected>${target.table} #${value}</option>`);
  return html`<select id="f-${col.name}" name="${col.name}"${col.nullable ? '' : html` required`}${aria}><option value="">—</option>${options}</select>`;
}

/** The stored file of a file column: a signed link to it (opened in a new tab), its size and type. */
function fileLink(call: AdminCall, value: Value | undefined): SafeHtml {
  const shown = call.deps.files()?.present(value);
  if (!shown) return html`—`;
  return html`<a href="${shown.url}" target="_blank" rel="noopener noreferrer" class="file-link">${shown.name}</a> <span class="help">${shown.content_type}, ${String(shown.size)} bytes</span>`;
}

/** A file column: the stored file's link, and (editable) a file input: a file chosen replaces it, none keeps it. */
function fileField(call: AdminCall, col: ColumnDef, policy: AdminPolicy, state: FormState, err: string | undefined): SafeHtml {
  const current = state.row ? fileLink(call, state.row[col.name]) : '';
  if (!policy.editable(col.name)) return state.row ? html`<div class="field"><span class="label">${col.name}</span><div class="readonly" id="ro-${col.name}">${current}</div></div>` : html``;
  const rule = col.file as NonNullable<ColumnDef['file']>;
  const required = !state.row && !col.nullable ? html` required` : '';
  const keep = state.row ? html`<div class="help">Now: ${current}. Choose a file to replace it.</div>` : '';
  return html`<div class="field${err ? ' has-error' : ''}"><label for="f-${col.name}">${col.name}</label>${keep}<input type="file" id="f-${col.name}" name="${col.name}" accept="${rule.accept.join(',')}"${required}${err ? html` aria-describedby="${err}"` : ''}><span class="help">At most ${String(rule.maxBytes)} bytes: ${rule.accept.join(', ')}</span>${errorsOf(state, col.name)}</div>`;
}

/** One column of the form: a labelled widget (editable), or its value as text (read-only). */
export async function columnField(call: AdminCall, model: ModelDef, col: ColumnDef, policy: AdminPolicy, state: FormState): Promise<SafeHtml> {
  const err = state.errors.some((e) => e.field === col.name) ? `err-${col.name}` : undefined;
  if (col.file) return fileField(call, col, policy, state, err);
  if (!policy.editable(col.name)) {
    if (!state.row) return html``;
    const why = policy.privileged(col.name) ? html` <span class="help">(only a superuser may change this)</span>` : '';
    return html`<div class="field"><span class="label">${col.name}</span><div class="readonly" id="ro-${col.name}">${cellText(col, state.row[col.name])}${why}</div>${errorsOf(state, col.name)}</div>`;
  }
  const value = formShown(state.row, state.fields, col.name);
  if (col.type === 'bool') {
    const checked = state.fields ? value !== '' : state.row ? state.row[col.name] === true : col.default?.kind === 'value' && col.default.value === true;
    return html`<div class="field${err ? ' has-error' : ''}"><label for="f-${col.name}"><input type="checkbox" id="f-${col.name}" name="${col.name}"${checked ? html` checked` : ''}> ${col.name}</label>${errorsOf(state, col.name)}</div>`;
  }
  const widget = col.references ? await fkWidget(call, model, col, state, err) : input(col, value, err);
  const hint = col.type === 'json' ? html`<span class="help">JSON</span>` : col.type === 'timestamp' ? html`<span class="help">UTC</span>` : '';
  return html`<div class="field${err ? ' has-error' : ''}"><label for="f-${col.name}">${col.name}</label>${widget}${hint}${errorsOf(state, col.name)}</div>`;
}

/** A many-to-many relation as a list of checkboxes (the multi-select that needs no script) of the target's rows the caller reaches. */
export async function linksField(call: AdminCall, rel: ManyToManyDef, state: FormState): Promise<SafeHtml> {
  const target = call.deps.registry.require(rel.target);
  const rows = await call.deps.rows.choices(target, call.identity, MAX_CHOICES);
  const chosen = new Set(
    state.fields
      ? Object.entries(state.fields).filter(([k]) => k.startsWith(`${rel.name}.`) && k !== `${rel.name}.present`).map(([, v]) => v ?? '')
      : (state.links.get(rel.name) ?? []).map(keyText),
  );
  const boxes = rows.map((r, i) => {
    const key = keyText(r[target.primaryKey]);
    return html`<label for="m-${rel.name}-${i}"><input type="checkbox" id="m-${rel.name}-${i}" name="${rel.name}.${i}" value="${key}"${chosen.has(key) ? html` checked` : ''}> ${rowLabel(target, r)}</label>`;
  });
  // Links to targets past the first page of choices stay checked, so saving keeps them.
  const offered = new Set(rows.map((r) => keyText(r[target.primaryKey])));
  const extra = [...chosen].filter((k) => !offered.has(k)).map((key, i) => html`<label for="m-${rel.name}-x${i}"><input type="checkbox" id="m-${rel.name}-x${i}" name="${rel.name}.x${i}" value="${key}" checked> ${target.table} #${key}</label>`);
  return html`<div class="field"><fieldset class="checks"><legend class="label">${rel.name}</legend><input type="hidden" name="${rel.name}.present" value="1">${boxes}${extra}</fieldset>${errorsOf(state, rel.name)}</div>`;
}
