import { adminGroup } from '../../../domain/admin/admin-config.js';
import type { HttpResponse } from '../http-route.js';
import { tableLabel, type AdminCall } from './admin-context.js';
import { html } from './html.js';

/**
 * The admin index: the tables the caller may view, grouped (authentication, application), with the
 * counts of the rows they reach; with the tasks battery, a link to the jobs page with the job and
 * failure counts.
 */
export async function indexPage(call: AdminCall): Promise<HttpResponse> {
  const { deps, rights } = call;
  const visible = [...deps.models.values()].filter(({ model }) => rights.can(model.table, 'view'));
  const counts = await Promise.all(visible.map(({ model }) => deps.rows.count(model, call.identity)));
  const rows = visible.map(({ model }, i) => ({ table: model.table, count: counts[i] ?? 0 }));
  const groups = new Map<string, typeof rows>();
  for (const row of rows) groups.set(adminGroup(row.table), [...(groups.get(adminGroup(row.table)) ?? []), row]);
  const sections = [...groups].sort(([a], [b]) => (a === 'Authentication' ? -1 : b === 'Authentication' ? 1 : 0)).map(
    ([group, items]) => html`<section class="group"><h2>${group}</h2><table><thead><tr><th scope="col">Model</th><th scope="col">Rows</th><th scope="col"><span class="help">Actions</span></th></tr></thead><tbody>${items.map(
      (r) =>
        html`<tr><td><a href="${deps.prefix}/${r.table}">${tableLabel(deps, r.table)}</a></td><td>${r.count}</td><td>${rights.can(r.table, 'add') ? html`<a href="${deps.prefix}/${r.table}/add">Add</a>` : ''}</td></tr>`,
    )}</tbody></table></section>`,
  );
  const jobs = deps.jobs();
  const totals = jobs ? await jobs.totals() : undefined;
  const tasks = totals
    ? html`<section class="group"><h2>Background tasks</h2><table><thead><tr><th scope="col">Page</th><th scope="col">Jobs</th><th scope="col">Failures</th></tr></thead><tbody><tr><td><a href="${deps.prefix}/jobs">Jobs</a></td><td>${totals.jobs}</td><td>${totals.failures}</td></tr></tbody></table></section>`
    : '';
  const body = html`${sections.length > 0 ? sections : html`<p>You may not view any model.</p>`}${tasks}`;
  return call.page('Site administration', [['Home', null]], body);
}
