import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '../../src/index.js';
import { hostPassword, startAdminHost, type AdminHost } from '../support/admin-host.js';
import { seedJob, startJobsReference } from '../support/admin-jobs.js';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import type { RunningReference } from '../support/reference-server.js';

/*
 * The admin's jobs page (docs/admin.md "Jobs"): the task queue's jobs, newest first, for staff,
 * with Retry for dead jobs, on the reference app (which mounts tasks()) on SQLite and PostgreSQL;
 * and a host app without tasks(), where the page does not exist.
 */

const pg = await postgresAvailable();
const XSS = '<script>alert("x")</script>';
const LONG_ERROR = `Error: the report server said ${'no '.repeat(100)}and hung up`;

/** The text of a row's cells (tags stripped, entities kept), or undefined when the page has no row for the job. */
function cells(page: string, id: number): string[] | undefined {
  const row = new RegExp(`<tr id="job-${id}">(.*?)</tr>`, 's').exec(page)?.[1];
  if (row === undefined) return undefined;
  return [...row.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((m) => (m[1] ?? '').replace(/<[^>]+>/g, '').trim());
}
/** The job ids of the page's rows, in order. */
const rowIds = (page: string): number[] => [...page.matchAll(/<tr id="job-(\d+)">/g)].map((m) => Number(m[1]));

function jobsSuite(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  const clients: Record<string, HttpClient> = {};
  const jobs: Record<'dead' | 'failed' | 'running' | 'succeeded' | 'queued' | 'long', number> = { dead: 0, failed: 0, running: 0, succeeded: 0, queued: 0, long: 0 };
  const nextRun = new Date('2031-05-06T07:08:09.000Z');

  beforeAll(async () => {
    ref = await startJobsReference(backend);
    jobs.queued = await seedJob(ref.app, { state: 'queued' });
    jobs.succeeded = await seedJob(ref.app, { state: 'succeeded', attempts: 1 });
    jobs.running = await seedJob(ref.app, { state: 'running', attempts: 1, progress: 40 });
    jobs.failed = await seedJob(ref.app, { state: 'failed', attempts: 1, lastError: 'Error: SMTP 451 try again later', runAt: nextRun });
    jobs.long = await seedJob(ref.app, { state: 'dead', attempts: 3, lastError: LONG_ERROR });
    jobs.dead = await seedJob(ref.app, { state: 'dead', attempts: 3, lastError: `Error: ${XSS} in the template` });
    for (const name of ['alice', 'staff']) {
      const c = new HttpClient(ref.url);
      expect((await c.form('/auth/login', { username: name, password: `${name}-password-1` })).status).toBe(303);
      clients[name] = c;
    }
  });
  afterAll(async () => ref?.close());

  const as = (who: string) => clients[who] as HttpClient;
  const get = async (who: string, path: string) => {
    const res = await as(who).request(path);
    return { status: res.status, text: await res.text(), res };
  };
  /** Posts Retry for `id` with the token of the jobs page (or none). */
  const retry = async (who: string, id: number | string, options: { csrf?: boolean; fields?: Record<string, string> } = {}) => {
    const token = options.csrf === false ? null : await as(who).csrf('/admin/jobs');
    return as(who).form(`/admin/jobs/${id}/retry`, options.fields ?? {}, { csrf: token });
  };
  const stateOf = async (id: number) => (await ref.app.tasks.get(id))?.state;

  it('staff (without any per-model right) sees the jobs newest first: task, queue, state, attempts, last error, next run, progress', async () => {
    const { status, text } = await get('staff', '/admin/jobs');
    expect(status).toBe(200);
    expect(text).toContain('<h1>Jobs</h1>');
    const ids = rowIds(text);
    expect(ids.slice(0, 6)).toEqual([jobs.dead, jobs.long, jobs.failed, jobs.running, jobs.succeeded, jobs.queued]);
    expect(text).toContain('<th scope="col">Next run (UTC)</th>');
    // id, task, queue, state, attempts, last error, next run, progress, action
    expect(cells(text, jobs.failed)).toEqual([String(jobs.failed), 'report', 'reports', 'failed', '1/3', 'Error: SMTP 451 try again later', '2031-05-06 07:08:09', '—', '']);
    expect(cells(text, jobs.running)?.slice(3)).toEqual(['running', '1/3', '—', '—', '40%', '']);
    expect(cells(text, jobs.succeeded)?.slice(3, 5)).toEqual(['succeeded', '1/3']);
    expect(cells(text, jobs.dead)?.slice(3, 5)).toEqual(['dead', '3/3']);
    const queued = cells(text, jobs.queued);
    expect(queued?.[3]).toBe('queued');
    expect(queued?.[6]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('a last error is HTML-escaped, and a long one is shortened with the full text kept in a details element', async () => {
    const { text } = await get('staff', '/admin/jobs');
    expect(text).not.toContain(XSS);
    expect(text).not.toContain('<script>alert');
    expect(cells(text, jobs.dead)?.[5]).toBe('Error: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; in the template');
    const row = new RegExp(`<tr id="job-${jobs.long}">(.*?)</tr>`, 's').exec(text)?.[1] ?? '';
    const details = /<details><summary>(.*?)<\/summary>(.*?)<\/details>/s.exec(row);
    expect(details?.[1]).toMatch(/^Error: the report server said (no ){10,}.*…$/);
    expect((details?.[1] ?? '').length).toBeLessThan(120);
    expect(details?.[2]).toContain(LONG_ERROR);
  });

  it('Retry is offered for dead jobs only, as a form carrying the CSRF token', async () => {
    const { text } = await get('staff', '/admin/jobs');
    const action = (id: number) => `<form method="post" action="/admin/jobs/${id}/retry">`;
    expect(text).toContain(action(jobs.dead));
    expect(text).toContain(action(jobs.long));
    for (const id of [jobs.failed, jobs.running, jobs.succeeded, jobs.queued]) expect(text).not.toContain(action(id));
    expect(text).toMatch(new RegExp(`action="/admin/jobs/${jobs.dead}/retry"><input type="hidden" name="csrf_token" value="[^"]+">`));
  });

  it('the index links to the jobs page', async () => {
    const { status, text } = await get('staff', '/admin/');
    expect(status).toBe(200);
    expect(text).toContain('href="/admin/jobs"');
  });

  it('a signed-in user who is not staff gets 403 and cannot retry; an anonymous caller is sent to the login page', async () => {
    const page = await get('alice', '/admin/jobs');
    expect(page.status).toBe(403);
    expect(page.text).toContain('Only staff users');
    expect((await retry('alice', jobs.dead)).status).toBe(403);
    expect(await stateOf(jobs.dead)).toBe('dead');
    const anonymous = await new HttpClient(ref.url).request('/admin/jobs?state=dead');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/login?redirect=%2Fadmin%2Fjobs');
    const c = new HttpClient(ref.url);
    const posted = await c.form(`/admin/jobs/${jobs.dead}/retry`, {}, { csrf: await c.csrf('/login') });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toMatch(/^\/login\?redirect=/);
    expect(await stateOf(jobs.dead)).toBe('dead');
  });

  it('the state filter lists one state; an unknown state answers 400 naming the states, never a 500', async () => {
    const failed = await get('staff', '/admin/jobs?state=failed');
    expect(failed.status).toBe(200);
    expect(rowIds(failed.text)).toEqual([jobs.failed]);
    expect(failed.text).toContain('<a href="/admin/jobs?state=failed" aria-current="true">failed</a>');
    const dead = await get('staff', '/admin/jobs?state=dead');
    expect(rowIds(dead.text)).toEqual([jobs.dead, jobs.long]);
    const bad = await get('staff', '/admin/jobs?state=bogus');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('no job state &quot;bogus&quot; (states: queued, running, failed, succeeded, dead)');
    expect((await get('staff', '/admin/jobs?state=%3Cb%3E')).text).not.toContain('<b>');
  });

  it('Retry without the CSRF token is refused and leaves the job dead', async () => {
    const res = await retry('staff', jobs.dead, { csrf: false });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'csrf_failed' });
    expect(await ref.app.tasks.get(jobs.dead)).toMatchObject({ state: 'dead', attempts: 3 });
  });

  it('an unknown job answers 404; a job that cannot be retried a 400 that says why, and it is left as it was', async () => {
    for (const id of ['999999', 'abc', '0', '1.5']) {
      const res = await retry('staff', id);
      expect(res.status, id).toBe(404);
    }
    for (const id of [jobs.failed, jobs.running, jobs.succeeded, jobs.queued]) {
      const before = await ref.app.tasks.get(id);
      const res = await retry('staff', id);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(`job ${id} is ${String(before?.state)}: only a dead job can be retried`);
      expect(await ref.app.tasks.get(id)).toEqual(before);
    }
  });

  it('Retry with the token queues the dead job again with fresh attempts and goes back to the list with a flash', async () => {
    const res = await retry('staff', jobs.dead, { fields: { state: 'dead', p: '1' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/jobs?state=dead&p=1');
    expect(await ref.app.tasks.get(jobs.dead)).toMatchObject({ state: 'queued', attempts: 0 });
    const next = await get('staff', '/admin/jobs');
    expect(next.text).toContain(`Job ${jobs.dead} (report) was queued again.`);
    expect(cells(next.text, jobs.dead)?.[3]).toBe('queued');
    expect(next.text).not.toContain(`action="/admin/jobs/${jobs.dead}/retry"`);
    // A second Retry: it is no longer dead.
    expect((await retry('staff', jobs.dead)).status).toBe(400);
    // The way back keeps only a real state and page.
    const other = await retry('staff', jobs.long, { fields: { state: 'x"><b>', p: '-1' } });
    expect(other.headers.get('location')).toBe('/admin/jobs');
  });

  it('pages hold 50 jobs, newest first, with the total and links that keep the state', async () => {
    await ref.app.tasks.enqueueMany('report', Array.from({ length: 55 }, (_, i) => ({ i })));
    const stats = await ref.app.tasks.stats();
    const queued = Object.values(stats.queues).reduce((n, q) => n + (q.queued ?? 0), 0);
    expect(queued).toBeGreaterThan(55);
    const pages = Math.ceil(queued / 50);
    const first = await get('staff', '/admin/jobs?state=queued');
    const ids = rowIds(first.text);
    expect(ids).toHaveLength(50);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(first.text).toContain(`Page 1 of ${pages} · ${queued} jobs`);
    expect(first.text).toContain('<a href="/admin/jobs?state=queued&amp;p=2" rel="next">');
    const second = await get('staff', '/admin/jobs?state=queued&p=2');
    const more = rowIds(second.text);
    expect(more).toHaveLength(Math.min(50, queued - 50));
    expect(more[0]).toBeLessThan(ids[49] as number);
    expect(second.text).toContain('<a href="/admin/jobs?state=queued&amp;p=1" rel="prev">');
    const total = Object.values(stats.queues).reduce((n, q) => n + Object.values(q).reduce((m, k) => m + (k ?? 0), 0), 0);
    const all = await get('staff', '/admin/jobs?p=2');
    expect(rowIds(all.text)).toHaveLength(Math.min(50, total - 50));
    expect(all.text).toContain(`Page 2 of ${Math.ceil(total / 50)} · ${total} jobs`);
    expect(rowIds((await get('staff', '/admin/jobs?p=99')).text)).toEqual([]);
  });
}

describe('the admin jobs page on the reference app: SQLite', () => jobsSuite('sqlite'));
describe.skipIf(!pg)('the admin jobs page on the reference app: PostgreSQL', () => jobsSuite('postgresql'));

describe('the admin jobs page and the tasks battery', () => {
  const signIn = async (host: AdminHost): Promise<HttpClient> => {
    const c = new HttpClient(host.url);
    const res = await c.form('/admin/login/', { username: 'staff', password: hostPassword('staff') }, { csrf: await c.csrf('/admin/login/') });
    expect(res.status).toBe(303);
    return c;
  };

  it('without tasks() the page and its Retry are 404 and the index has no link', async () => {
    const host = await startAdminHost();
    try {
      const c = await signIn(host);
      const page = await c.request('/admin/jobs');
      expect(page.status).toBe(404);
      expect((await c.request('/admin/jobs?state=dead')).status).toBe(404);
      expect((await c.form('/admin/jobs/1/retry', {}, { csrf: await c.csrf('/admin/') })).status).toBe(404);
      const index = await (await c.request('/admin/')).text();
      expect(index).toContain('href="/admin/note"');
      expect(index).not.toContain('/admin/jobs');
    } finally {
      await host.close();
    }
  });

  it('with tasks() mounted after the admin the page is there', async () => {
    const host = await startAdminHost({ after: [tasks({ worker: false })] });
    try {
      const c = await signIn(host);
      const page = await c.request('/admin/jobs');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('No jobs.');
      expect(await (await c.request('/admin/')).text()).toContain('href="/admin/jobs"');
    } finally {
      await host.close();
    }
  });
});
