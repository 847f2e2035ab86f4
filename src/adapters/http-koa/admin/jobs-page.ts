import { ADMIN_PAGE_SIZE } from '../../../application/admin/list-admin-rows.js';
import type { ReviewJobs } from '../../../application/tasks/tasks.js';
import type { FormFields } from '../../../domain/admin/form-values.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import { canRetry, isJobState, JOB_STATES } from '../../../domain/tasks/task-policy.js';
import type { Job } from '../../../ports/task-queue.js';
import type { HttpResponse } from '../http-route.js';
import type { SafeHtml } from '../safe-html.js';
import { redirect, type AdminCall } from './admin-context.js';
import { cellText } from './cells.js';
import { csrfInput } from './csrf.js';
import { firstParam, html, pageParam, queryString } from './html.js';

/** The page's segment under the admin prefix: `<prefix>/jobs`. */
export const JOBS_SEGMENT = 'jobs';
/** The longest last error a row shows in full; a longer one (or one of several lines) is cut, the whole text in a details element. */
const ERROR_SHOWN = 80;

/** Whether the table route's URL is the jobs page: `<prefix>/jobs` with the tasks battery mounted. */
export const isJobsPage = (call: AdminCall): boolean => call.req.params.table === JOBS_SEGMENT && call.deps.jobs() !== undefined;

/** The jobs use case; without the tasks battery the page does not exist (404, as an unknown table). */
function reviewOf(call: AdminCall): ReviewJobs {
  const review = call.deps.jobs();
  if (!review) throw new DomainError('not_found', `no admin page for "${JOBS_SEGMENT}"`);
  return review;
}

/** A last error: a dash, the text, or its first line cut short with the whole text under it. */
function errorCell(error: string | null): SafeHtml | string {
  if (error === null || error === '') return '—';
  const line = error.split('\n', 1)[0] ?? '';
  if (line.length === error.length && error.length <= ERROR_SHOWN) return error;
  const short = line.length > ERROR_SHOWN ? `${line.slice(0, ERROR_SHOWN - 1)}…` : `${line}…`;
  return html`<details><summary>${short}</summary><pre>${error}</pre></details>`;
}

/** When the job runs next: its `run_at` while it waits (queued, or failed and waiting for its retry); none once running or finished. */
const nextRun = (job: Job): string => (job.state === 'queued' || job.state === 'failed' ? cellText(undefined, job.runAt) : '—');

function jobRow(call: AdminCall, job: Job, back: { state: string | undefined; page: number }): SafeHtml {
  const base = `${call.deps.prefix}/${JOBS_SEGMENT}`;
  const retry = canRetry(job.state)
    ? html`<form method="post" action="${base}/${job.id}/retry">${csrfInput(call.req)}${back.state ? html`<input type="hidden" name="state" value="${back.state}">` : ''}<input type="hidden" name="p" value="${back.page}"><button type="submit" class="secondary" aria-label="Retry job ${job.id}">Retry</button></form>`
    : '';
  return html`<tr id="job-${job.id}"><th scope="row">${job.id}</th><td>${job.name}</td><td>${job.queue}</td><td class="state">${job.state}</td><td class="attempts">${job.attempts}/${job.maxAttempts}</td><td class="error">${errorCell(job.lastError)}</td><td class="run">${nextRun(job)}</td><td class="progress">${job.progress === null ? '—' : `${job.progress}%`}</td><td>${retry}</td></tr>`;
}

/**
 * `GET <prefix>/jobs`: the task queue's jobs, newest first, a page of 50 with the total: id, task,
 * queue, state, attempts, last error, next run, progress, and Retry for a dead job. `state`
 * filters (an unknown one is a 400 page naming the states), `p` pages. Read through ReviewJobs.
 */
export async function jobsPage(call: AdminCall): Promise<HttpResponse> {
  const { deps, req } = call;
  const review = reviewOf(call);
  const state = firstParam(req.query.state) || undefined;
  const page = pageParam(firstParam(req.query.p));
  const { jobs, count } = await review.page({ state, page, pageSize: ADMIN_PAGE_SIZE });
  const base = `${deps.prefix}/${JOBS_SEGMENT}`;
  const link = (change: Record<string, string | undefined>) => `${base}${queryString({ state, ...change })}`;
  const choice = (label: string, value: string | undefined) =>
    html`<li><a href="${base}${queryString({ state: value })}"${value === state ? html` aria-current="true"` : ''}>${label}</a></li>`;
  const sidebar = html`<aside aria-label="Filters"><h2>Filter</h2><h3>By state</h3><ul>${choice('All', undefined)}${JOB_STATES.map((s) => choice(s, s))}</ul></aside>`;
  const pages = Math.max(1, Math.ceil(count / ADMIN_PAGE_SIZE));
  const pager = html`<nav class="paginator" aria-label="Pages">${page > 1 ? html`<a href="${link({ p: String(page - 1) })}" rel="prev">‹ Previous</a> ` : ''}Page ${page} of ${pages} · ${count} ${count === 1 ? 'job' : 'jobs'}${page < pages ? html` <a href="${link({ p: String(page + 1) })}" rel="next">Next ›</a>` : ''}</nav>`;
  const head = ['ID', 'Task', 'Queue', 'State', 'Attempts', 'Last error', 'Next run (UTC)', 'Progress'].map((h) => html`<th scope="col">${h}</th>`);
  const table = jobs.length
    ? html`<div class="table-wrap"><table><thead><tr>${head}<th scope="col"><span class="help">Actions</span></th></tr></thead><tbody>${jobs.map((job) => jobRow(call, job, { state, page }))}</tbody></table></div>`
    : html`<p>No jobs${state ? ` in state ${state}` : ''}.</p>`;
  const body = html`<div class="layout"><div class="results">${table}${pager}</div>${sidebar}</div>`;
  return call.page('Jobs', [['Home', `${deps.prefix}/`], ['Jobs', null]], body);
}

/**
 * `POST <prefix>/jobs/<id>/retry` (CSRF checked by the security plugin's middleware): queues a
 * dead job again through ReviewJobs, then back to the list (its state filter and page, when they
 * are real ones) with a flash. An unknown job is a 404 page, one that cannot be retried a 400 page
 * saying why.
 */
export async function retryJob(call: AdminCall): Promise<HttpResponse> {
  const review = reviewOf(call);
  const raw = call.req.params.id ?? '';
  if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new DomainError('not_found', `no job ${JSON.stringify(raw)}`);
  const job = await review.retry(Number(raw));
  await call.req.session?.flash({ level: 'success', body: `Job ${job.id} (${job.name}) was queued again.` });
  const fields = (call.req.body ?? {}) as FormFields;
  const back = queryString({ state: isJobState(fields.state) ? fields.state : undefined, p: /^[1-9]\d{0,8}$/.test(fields.p ?? '') ? fields.p : undefined });
  return redirect(`${call.deps.prefix}/${JOBS_SEGMENT}${back}`);
}
