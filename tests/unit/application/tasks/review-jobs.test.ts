import { describe, expect, it } from 'vitest';
import { ReviewJobs, type TaskClient } from '../../../../src/application/tasks/tasks.js';
import type { JobState } from '../../../../src/domain/tasks/task-policy.js';
import type { Job, JobFilter, QueueStats } from '../../../../src/ports/task-queue.js';

/** A task client over an array of jobs, with the queue's semantics for list, stats, get and retry (dead only; a unique key held by an unfinished job blocks it). */
function fakeClient(seed: readonly Partial<Job>[]) {
  const jobs: Job[] = seed.map((j, i) => ({
    id: i + 1,
    name: 'report',
    queue: 'default',
    payload: {},
    state: 'queued',
    priority: 0,
    attempts: 0,
    maxAttempts: 3,
    runAt: new Date(0),
    leaseUntil: null,
    uniqueKey: null,
    lastError: null,
    createdAt: new Date(0),
    finishedAt: null,
    progress: null,
    ...j,
  }));
  const calls: { list: Partial<JobFilter>[]; retry: number[] } = { list: [], retry: [] };
  const unsupported = () => Promise.reject(new Error('not used'));
  const client: TaskClient = {
    enqueue: unsupported,
    enqueueMany: unsupported,
    enqueueIn: unsupported,
    cancel: unsupported,
    async list(filter = {}) {
      calls.list.push(filter);
      const matching = jobs.filter((j) => (filter.state === undefined || j.state === filter.state) && (filter.queue === undefined || j.queue === filter.queue)).sort((a, b) => b.id - a.id);
      const offset = filter.offset ?? 0;
      return matching.slice(offset, offset + (filter.limit ?? 50));
    },
    async stats(): Promise<QueueStats> {
      const queues: Record<string, Partial<Record<JobState, number>>> = {};
      for (const j of jobs) (queues[j.queue] ??= {})[j.state] = ((queues[j.queue] ?? {})[j.state] ?? 0) + 1;
      return { queues, failures: jobs.filter((j) => j.state === 'failed' || j.state === 'dead').length };
    },
    async get(id) {
      return jobs.find((j) => j.id === id) ?? null;
    },
    async retry(id) {
      calls.retry.push(id);
      const i = jobs.findIndex((j) => j.id === id);
      const job = jobs[i];
      if (!job || job.state !== 'dead') return false;
      if (job.uniqueKey !== null && jobs.some((o) => o.uniqueKey === job.uniqueKey && ['queued', 'running', 'failed'].includes(o.state))) return false;
      jobs[i] = { ...job, state: 'queued', attempts: 0, finishedAt: null };
      return true;
    },
  };
  return { client, calls, jobs };
}

describe('ReviewJobs: the admin jobs page through the task client', () => {
  const states: JobState[] = ['queued', 'dead', 'failed', 'dead', 'succeeded', 'running', 'queued'];

  it('pages every job newest first with the count of all of them', async () => {
    const { client, calls } = fakeClient(states.map((state, i) => ({ state, queue: i % 2 ? 'mail' : 'default' })));
    const review = new ReviewJobs(client);
    const first = await review.page({ page: 1, pageSize: 3 });
    expect(first.jobs.map((j) => j.id)).toEqual([7, 6, 5]);
    expect(first.count).toBe(7);
    const third = await review.page({ page: 3, pageSize: 3 });
    expect(third.jobs.map((j) => j.id)).toEqual([1]);
    expect(calls.list.at(-1)).toEqual({ limit: 3, offset: 6 });
    expect((await review.page({ page: 4, pageSize: 3 })).jobs).toEqual([]);
  });

  it('filters by state, counting that state over every queue', async () => {
    const { client, calls } = fakeClient(states.map((state, i) => ({ state, queue: i % 2 ? 'mail' : 'default' })));
    const dead = await new ReviewJobs(client).page({ state: 'dead', page: 1, pageSize: 50 });
    expect(dead.jobs.map((j) => j.id)).toEqual([4, 2]);
    expect(dead.count).toBe(2);
    expect(calls.list.at(-1)).toEqual({ state: 'dead', limit: 50, offset: 0 });
  });

  it('refuses an unknown state naming the states, and a page or size that is not a positive whole number, before reading anything', async () => {
    const { client, calls } = fakeClient([{ state: 'dead' }]);
    const review = new ReviewJobs(client);
    await expect(review.page({ state: 'bogus', page: 1, pageSize: 50 })).rejects.toMatchObject({
      code: 'invalid_input',
      detail: 'no job state "bogus" (states: queued, running, failed, succeeded, dead)',
      errors: [{ field: 'state', message: 'not a job state' }],
    });
    await expect(review.page({ page: 0, pageSize: 50 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(review.page({ page: 1.5, pageSize: 50 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(review.page({ page: 1, pageSize: 1001 })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(calls.list).toEqual([]);
  });

  it('totals: every job and the failures', async () => {
    const { client } = fakeClient(states.map((state) => ({ state })));
    expect(await new ReviewJobs(client).totals()).toEqual({ jobs: 7, failures: 3 });
  });

  it('retry queues a dead job again and returns it as it is now', async () => {
    const { client } = fakeClient([{ state: 'dead', attempts: 3, lastError: 'boom' }]);
    expect(await new ReviewJobs(client).retry(1)).toMatchObject({ id: 1, state: 'queued', attempts: 0 });
  });

  it('retry of an unknown job is not_found; of a job that is not dead an invalid_input naming its state, the job unchanged', async () => {
    const { client, calls, jobs } = fakeClient([{ state: 'failed' }, { state: 'succeeded' }]);
    const review = new ReviewJobs(client);
    await expect(review.retry(9)).rejects.toMatchObject({ code: 'not_found', detail: 'no job 9' });
    await expect(review.retry(1)).rejects.toMatchObject({ code: 'invalid_input', detail: 'job 1 is failed: only a dead job can be retried' });
    await expect(review.retry(2)).rejects.toMatchObject({ code: 'invalid_input', detail: 'job 2 is succeeded: only a dead job can be retried' });
    // The queue's retry holds the rule: it is asked, and refuses each.
    expect(calls.retry).toEqual([9, 1, 2]);
    expect(jobs.map((job) => job.state)).toEqual(['failed', 'succeeded']);
  });

  it('retry of a dead job whose unique key an unfinished job holds says so', async () => {
    const { client, jobs } = fakeClient([{ state: 'dead', uniqueKey: 'nightly' }, { state: 'queued', uniqueKey: 'nightly' }]);
    await expect(new ReviewJobs(client).retry(1)).rejects.toMatchObject({ code: 'invalid_input', detail: 'job 1 cannot be retried while another unfinished job holds its unique key "nightly"' });
    expect(jobs[0]?.state).toBe('dead');
  });
});
