import type { HttpResponse, RouteDef } from '../http-route.js';
import { adminHandler, redirect, type AdminCall, type AdminDeps } from './admin-context.js';
import { keyPath } from './cells.js';
import { confirmDelete, deleteSelected } from './delete-page.js';
import { loadRow, renderForm, saveForm } from './form-page.js';
import { historyPage } from './history-page.js';
import { indexPage } from './index-page.js';
import { isJobsPage, jobsPage, retryJob } from './jobs-page.js';
import { listPage } from './list-page.js';
import { adminLoginRoutes } from './login-page.js';
import { passwordPage, setPassword } from './password-page.js';
import { lookupRows, pickerScriptRoute } from './fk-picker.js';

async function editPage(call: AdminCall, post: boolean) {
  const entry = call.entry(post ? 'change' : 'view');
  const target = await loadRow(call, entry);
  return post ? saveForm(call, entry, target) : renderForm(call, entry, target);
}

async function restoreOne(call: AdminCall): Promise<HttpResponse> {
  const entry = call.entry('change');
  const { id } = await loadRow(call, entry);
  await call.deps.restore.execute(entry.model, call.identity, id);
  await call.req.session?.flash({ level: 'success', body: `${entry.label} ${String(id)} was restored.` });
  return redirect(`${call.deps.prefix}/${entry.model.table}/${keyPath(id)}`);
}

async function deleteOne(call: AdminCall) {
  const entry = call.entry('delete');
  const { id } = await loadRow(call, entry);
  return confirmDelete(call, entry, [String(id)]);
}

/**
 * The admin's routes under `prefix`: login and logout, index, list, add, change, delete (one row
 * or a selection, with a confirmation page), history and a user's password; with the tasks
 * battery, the jobs page (`<prefix>/jobs`, served by the table route when it is the jobs page) and
 * its Retry. Every POST is a form carrying the CSRF field (checked by the security plugin's
 * middleware before the handler runs).
 */
export function adminRoutes(deps: AdminDeps): RouteDef[] {
  const p = deps.prefix;
  const get = (path: string, h: (call: AdminCall) => Promise<HttpResponse>): RouteDef => ({ method: 'GET', path, handler: adminHandler(deps, h) });
  const post = (path: string, h: (call: AdminCall) => Promise<HttpResponse>): RouteDef => ({ method: 'POST', path, body: 'form', handler: adminHandler(deps, h) });
  // The add and change forms of a model with file columns post multipart/form-data (saveForm reads it).
  const upload = (path: string, h: (call: AdminCall) => Promise<HttpResponse>): RouteDef => ({ ...post(path, h), uploads: true });
  return [
    ...adminLoginRoutes(deps),
    get(p === '' ? '/' : p, indexPage),
    pickerScriptRoute(p),
    post(`${p}/jobs/:id/retry`, retryJob),
    get(`${p}/:table`, (call) => (isJobsPage(call) ? jobsPage(call) : listPage(call))),
    get(`${p}/:table/lookup`, lookupRows),
    get(`${p}/:table/add`, (call) => renderForm(call, call.entry('add'), undefined)),
    upload(`${p}/:table/add`, (call) => saveForm(call, call.entry('add'), undefined)),
    post(`${p}/:table/delete-selected`, (call) => deleteSelected(call, call.entry('delete'))),
    get(`${p}/:table/:id`, (call) => editPage(call, false)),
    upload(`${p}/:table/:id`, (call) => editPage(call, true)),
    get(`${p}/:table/:id/delete`, deleteOne),
    post(`${p}/:table/:id/restore`, restoreOne),
    get(`${p}/:table/:id/history`, historyPage),
    get(`${p}/:table/:id/password`, (call) => passwordPage(call)),
    post(`${p}/:table/:id/password`, setPassword),
  ];
}
