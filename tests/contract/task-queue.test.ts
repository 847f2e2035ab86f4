import { describe, expect, it } from 'vitest';
import { SqlTaskQueue } from '../../src/adapters/persistence/sql/sql-task-queue.js';
import { defineTask, type TaskDefinition, type TaskHandler, type TaskOptions } from '../../src/application/tasks/task-definition.js';
import { TaskWorker } from '../../src/application/tasks/task-worker.js';
import { Tasks, TASKS_TOPIC } from '../../src/application/tasks/tasks.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Job, TaskQueue } from '../../src/ports/task-queue.js';
import { StoreTaskQueue } from '../../src/adapters/tasks/store-task-queue.js';
import { openTestDatabase, type TestDatabase } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';

const pg = await postgresAvailable();
const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

interface Fixture {
  readonly t: TestDatabase;
  readonly queue: TaskQueue;
  readonly definitions: Map<string, TaskDefinition>;
  readonly tasks: Tasks;
  define(name: string, handler: TaskHandler, options?: TaskOptions): void;
  worker(options?: { concurrency?: number; leaseMs?: number; owner?: string; batchSize?: number }): TaskWorker;
  job(id: number): Promise<Job>;
}

type Backend = 'memory' | 'sqlite' | 'postgresql';

async function open(backend: Backend): Promise<Fixture> {
  const t = await openTestDatabase(backend);
  const sql = t.db.sql;
  const queue: TaskQueue = sql ? new SqlTaskQueue(sql.knex, sql.dialect) : new StoreTaskQueue(t.db.store);
  const definitions = new Map<string, TaskDefinition>();
  const queues = new Set<string>();
  const tasks = new Tasks({ queue, clock: t.clock, events: t.events, definitions, queues, origin: 'test' });
  return {
    t,
    queue,
    definitions,
    tasks,
    define: (name, handler, options) => {
      const def = defineTask(name, handler, options);
      definitions.set(name, def);
      queues.add(def.queue);
    },
    worker: (options = {}) =>
      new TaskWorker({
        queue,
        clock: t.clock,
        logger: silent,
        definitions,
        concurrency: new Map([['default', options.concurrency ?? 4]]),
        ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
        owner: options.owner ?? 'worker-1',
        pollMs: 20,
        leaseMs: options.leaseMs ?? 30_000,
        random01: () => 1,
        context: (job, signal) => ({ store: t.db.store, mailer: { send: async () => undefined }, templates: { render: () => ({ subject: '', text: '', html: '' }) }, events: t.events, logger: silent, attempt: job.attempts, signal, job }),
      }),
    job: async (id) => {
      const job = await queue.get(id);
      if (!job) throw new Error(`no job ${id}`);
      return job;
    },
  };
}

/** Runs a worker until `check` holds, then stops it (also when the wait times out). */
async function runWorkerUntil(f: Fixture, check: () => Promise<boolean>, what: string, options?: Parameters<Fixture['worker']>[0]): Promise<void> {
  const worker = f.worker(options);
  worker.start();
  try {
    await waitFor(check, what);
  } finally {
    await worker.stop(1000);
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function taskQueueContract(backend: Backend): void {
  const withFixture = (body: (f: Fixture) => Promise<void>) => async () => {
    const f = await open(backend);
    try {
      await body(f);
    } finally {
      await f.t.close();
    }
  };

  it('TQ-1 MUST write a job on the caller transaction: a rollback leaves no job and no wake-up, a commit leaves one', withFixture(async (f) => {
    f.define('noop', () => undefined);
    const wakes: unknown[] = [];
    f.t.events.subscribe(TASKS_TOPIC, (p) => void wakes.push(p));
    await expect(
      f.t.db.store.transaction(async (tx) => {
        await tx.insert('writer', { name: 'Ann' });
        await f.tasks.enqueueIn(tx, 'noop', { n: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await f.t.db.store.count('writer')).toBe(0);
    expect((await f.tasks.stats()).queues).toEqual({});
    expect(wakes).toHaveLength(0);
    const { id } = await f.t.db.store.transaction(async (tx) => {
      await tx.insert('writer', { name: 'Bob' });
      const enqueued = await f.tasks.enqueue('noop', { n: 2 }, { tx });
      expect(wakes).toHaveLength(0);
      return enqueued;
    });
    expect(wakes).toHaveLength(1);
    expect((await f.job(id)).payload).toEqual({ n: 2 });
    expect((await f.tasks.stats()).queues).toEqual({ default: { queued: 1 } });
  }));

  it('TQ-1b MUST refuse a job for a queue no worker serves, naming the queue, and write nothing', withFixture(async (f) => {
    f.define('noop', () => undefined);
    f.define('report', () => undefined, { queue: 'reports' });
    await expect(f.tasks.enqueue('noop', {}, { queue: 'reprots' })).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/no worker serves the queue "reprots" \(served: default, reports\)/) });
    expect((await f.tasks.stats()).queues).toEqual({});
    await f.tasks.enqueue('noop', {}, { queue: 'reports' });
    expect((await f.tasks.stats()).queues).toEqual({ reports: { queued: 1 } });
    // A worker serving only `default` names the queue holding jobs it will not run.
    expect(await f.worker().warnUnserved()).toEqual(['reports']);
  }));

  it('TQ-1c MUST tell the database time in milliseconds: this host\'s time (the database runs here), moving forward', withFixture(async (f) => {
    const before = Date.now();
    const first = (await f.queue.databaseTime()).getTime();
    await new Promise((r) => setTimeout(r, 20));
    const second = (await f.queue.databaseTime()).getTime();
    expect(Math.abs(first - before)).toBeLessThan(2000);
    expect(second).toBeGreaterThan(first);
  }));

  it('TQ-1d MUST enqueue many jobs in one statement on the caller transaction: all roll back together, or all are written in order', withFixture(async (f) => {
    f.define('noop', () => undefined);
    const n = backend === 'memory' ? 500 : 10_000;
    const payloads = Array.from({ length: n }, (_, i) => ({ i }));
    const knex = f.t.db.sql?.knex;
    let statements = 0;
    const count = () => void statements++;
    knex?.on('query', count);
    await expect(
      f.t.db.store.transaction(async (tx) => {
        expect(await f.tasks.enqueueMany('noop', payloads, { tx })).toHaveLength(n);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    knex?.off('query', count);
    if (knex) expect(statements).toBe(3); // BEGIN, the insert, ROLLBACK
    expect((await f.tasks.stats()).queues).toEqual({});
    const ids = await f.t.db.store.transaction((tx) => f.tasks.enqueueMany('noop', payloads, { tx, priority: 3 }));
    expect(ids).toHaveLength(n);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect((await f.tasks.stats()).queues).toEqual({ default: { queued: n } });
    expect(await f.job(ids[0] as number)).toMatchObject({ name: 'noop', payload: { i: 0 }, priority: 3, state: 'queued' });
    expect((await f.job(ids[n - 1] as number)).payload).toEqual({ i: n - 1 });
    await expect(f.tasks.enqueueMany('noop', [{}], { queue: 'nowhere' })).rejects.toMatchObject({ code: 'invalid_input' });
  }));

  it('TQ-1e MUST list jobs newest first by state and queue, a page at an offset, and cancel only a job that has not started', withFixture(async (f) => {
    f.define('noop', () => undefined);
    f.define('report', () => undefined, { queue: 'reports' });
    const { id: first } = await f.tasks.enqueue('noop', { n: 1 });
    const { id: second } = await f.tasks.enqueue('report', { n: 2 });
    const { id: third } = await f.tasks.enqueue('noop', { n: 3 });
    expect((await f.tasks.list()).map((j) => j.id)).toEqual([third, second, first]);
    expect((await f.tasks.list({ queue: 'reports' })).map((j) => j.id)).toEqual([second]);
    expect((await f.tasks.list({ limit: 1 })).map((j) => j.id)).toEqual([third]);
    expect((await f.tasks.list({ limit: 1, offset: 1 })).map((j) => j.id)).toEqual([second]);
    expect((await f.tasks.list({ offset: 2 })).map((j) => j.id)).toEqual([first]);
    expect((await f.tasks.list({ queue: 'default', offset: 1 })).map((j) => j.id)).toEqual([first]);
    expect(await f.tasks.list({ offset: 3 })).toEqual([]);
    await expect(f.tasks.list({ state: 'lost' as never })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(f.tasks.list({ limit: 0 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(f.tasks.list({ offset: -1 })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(f.tasks.list({ offset: 0.5 })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await f.tasks.cancel(third)).toBe(true);
    expect(await f.job(third)).toMatchObject({ state: 'dead', lastError: 'cancelled' });
    expect(await f.tasks.cancel(third)).toBe(false);
    expect((await f.tasks.list({ state: 'dead' })).map((j) => j.id)).toEqual([third]);
    const claimed = await f.queue.claim('default', 1, 'w', f.t.clock.now(), new Date(f.t.clock.now().getTime() + 30_000));
    expect(claimed.map((j) => j.id)).toEqual([first]);
    expect(await f.tasks.cancel(first)).toBe(false); // running: it finishes, or its lease expires
    expect(await f.job(first)).toMatchObject({ state: 'running' });
    expect(await f.tasks.retry(third)).toBe(true);
    expect(await f.job(third)).toMatchObject({ state: 'queued', attempts: 0 });
  }));

  it('TQ-1f MUST store a running job\'s progress as its handler reports it, refuse one outside 0-100, and clear it at the next claim', withFixture(async (f) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const refused: unknown[] = [];
    let runs = 0;
    f.define('long', async (_payload, ctx) => {
      // The first attempt reports and fails; the second reports nothing.
      if (++runs > 1) return;
      await ctx.progress(40);
      await ctx.progress(150).catch((error: unknown) => void refused.push(error));
      await held;
      throw new Error('fail once');
    }, { retries: 1, backoff: { baseMs: 1 } });
    const { id } = await f.tasks.enqueue('long', {});
    expect(await f.job(id)).toMatchObject({ progress: null });
    const worker = f.worker();
    worker.start();
    try {
      await waitFor(async () => (await f.job(id)).progress === 40, 'the progress');
      expect(await f.job(id)).toMatchObject({ state: 'running', progress: 40 });
      expect(refused).toEqual([expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/from 0 to 100, got 150/) })]);
      release();
      await waitFor(async () => (await f.job(id)).state === 'failed', 'the failed attempt');
      f.t.clock.advance(60_000);
      worker.wake();
      await waitFor(async () => (await f.job(id)).state === 'succeeded', 'the second attempt');
      expect(await f.job(id)).toMatchObject({ attempts: 2, progress: null });
    } finally {
      release();
      await worker.stop(1000);
    }
  }));

  it('TQ-2 MUST not claim a delayed job before its time, and MUST claim higher priorities first', withFixture(async (f) => {
    f.define('noop', () => undefined);
    const later = await f.tasks.enqueue('noop', {}, { delay: 60_000 });
    const low = await f.tasks.enqueue('noop', {}, { priority: 1 });
    const high = await f.tasks.enqueue('noop', {}, { priority: 5 });
    const mid = await f.tasks.enqueue('noop', {}, { runAt: new Date(f.t.clock.now().getTime() - 1000), priority: 1 });
    const now = f.t.clock.now();
    const claimed = await f.queue.claim('default', 10, 'w', now, new Date(now.getTime() + 30_000));
    expect(claimed.map((j) => j.id)).toEqual([high.id, mid.id, low.id]);
    expect(claimed.every((j) => j.state === 'running' && j.attempts === 1)).toBe(true);
    f.t.clock.advance(60_000);
    const next = f.t.clock.now();
    expect((await f.queue.claim('default', 10, 'w', next, new Date(next.getTime() + 30_000))).map((j) => j.id)).toEqual([later.id]);
  }));

  it('TQ-3 MUST keep a unique key unique among unfinished jobs only', withFixture(async (f) => {
    f.define('noop', () => undefined);
    const first = await f.tasks.enqueue('noop', { a: 1 }, { uniqueKey: 'k' });
    const again = await f.tasks.enqueue('noop', { a: 2 }, { uniqueKey: 'k' });
    expect(again).toEqual({ id: first.id, created: false });
    const other = await f.tasks.enqueue('noop', {}, { uniqueKey: 'other' });
    expect(other.created).toBe(true);
    const now = f.t.clock.now();
    await f.queue.claim('default', 10, 'w', now, new Date(now.getTime() + 30_000));
    expect(await f.queue.complete([first.id], 'w', now)).toEqual([first.id]);
    // Written again by its owner (a retry after a failed claim): found again, the first finish time kept.
    expect(await f.queue.complete([first.id], 'w', new Date(now.getTime() + 5000))).toEqual([first.id]);
    expect((await f.job(first.id)).finishedAt?.getTime()).toBe(now.getTime());
    expect(await f.queue.complete([first.id], 'someone-else', now)).toEqual([]);
    const after = await f.tasks.enqueue('noop', {}, { uniqueKey: 'k' });
    expect(after.created).toBe(true);
    expect(after.id).not.toBe(first.id);
    // A key unique "ever" (periodic slots) stays taken by a finished job.
    await f.queue.complete([other.id], 'w', now);
    expect((await f.tasks.enqueue('noop', {}, { uniqueKey: 'other', uniqueEver: true })).created).toBe(false);
  }));

  it('TQ-4 MUST retry a failing job with exponential backoff, then keep it dead with a secret-free error; retry() revives it', withFixture(async (f) => {
    let calls = 0;
    f.define('flaky', () => {
      calls++;
      throw new Error('connect failed smtp://mailer:hunter2@mail.example password=hunter2');
    }, { retries: 2, backoff: { baseMs: 1000, jitter: false } });
    const { id } = await f.tasks.enqueue('flaky');
    const worker = f.worker();
    worker.start();
    try {
      await waitFor(async () => (await f.job(id)).state === 'failed', 'the first failure');
      const start = f.t.clock.now().getTime();
      expect((await f.job(id)).runAt.getTime()).toBe(start + 1000);
      f.t.clock.advance(999);
      worker.wake();
      await new Promise((r) => setTimeout(r, 100));
      expect(calls).toBe(1);
      f.t.clock.advance(1);
      worker.wake();
      await waitFor(async () => (await f.job(id)).attempts === 2 && (await f.job(id)).state === 'failed', 'the second failure');
      expect((await f.job(id)).runAt.getTime()).toBe(start + 1000 + 2000);
      f.t.clock.advance(2000);
      worker.wake();
      await waitFor(async () => (await f.job(id)).state === 'dead', 'the job to die');
      const dead = await f.job(id);
      expect(dead).toMatchObject({ attempts: 3, maxAttempts: 3 });
      expect(dead.lastError).toContain('connect failed');
      expect(dead.lastError).not.toContain('hunter2');
      expect(calls).toBe(3);
      expect((await f.tasks.stats()).failures).toBe(1);
      expect(await f.tasks.retry(id)).toBe(true);
      expect(await f.tasks.retry(id)).toBe(false);
      // Claimed is not yet run: the job leaves `queued` when a worker claims it, a moment before its handler is called.
      await waitFor(() => calls === 4, 'the retried job to run');
      expect((await f.job(id)).state).not.toBe('queued');
    } finally {
      await worker.stop(1000);
    }
  }));

  it('TQ-5 MUST put a job whose lease expired back and run it again; the old holder can no longer complete it', withFixture(async (f) => {
    const runs: number[] = [];
    f.define('once', (_p, ctx) => void runs.push(ctx.attempt));
    const { id } = await f.tasks.enqueue('once');
    const now = f.t.clock.now();
    const [claimed] = await f.queue.claim('default', 1, 'crashed', now, new Date(now.getTime() + 30_000));
    expect(claimed?.id).toBe(id);
    expect(await f.queue.expireLeases(f.t.clock.now())).toBe(0);
    f.t.clock.advance(30_001);
    expect(await f.queue.expireLeases(f.t.clock.now())).toBe(1);
    expect(await f.job(id)).toMatchObject({ state: 'queued', attempts: 1 });
    await runWorkerUntil(f, async () => (await f.job(id)).state === 'succeeded', 'the rerun');
    expect(runs).toEqual([2]);
    expect(await f.queue.complete([id], 'crashed', f.t.clock.now())).toEqual([]);
    // A lease that runs out on the last attempt makes the job dead (a job that crashes its worker is not retried forever).
    f.define('last', () => undefined, { retries: 0 });
    const last = await f.tasks.enqueue('last');
    const t2 = f.t.clock.now();
    await f.queue.claim('default', 1, 'crashed', t2, new Date(t2.getTime() + 1000));
    f.t.clock.advance(1001);
    await f.queue.expireLeases(f.t.clock.now());
    expect((await f.job(last.id)).state).toBe('dead');
  }));

  it('TQ-6 MUST shut down gracefully: running jobs finish within the grace period, the rest go back to queued uncounted', withFixture(async (f) => {
    let aborted = false;
    f.define('quick', () => new Promise((r) => setTimeout(r, 50)));
    f.define('stuck', (_p, ctx) => new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => ((aborted = true), resolve()))));
    const quick = await f.tasks.enqueue('quick');
    const stuck = await f.tasks.enqueue('stuck');
    const worker = f.worker();
    worker.start();
    await waitFor(() => worker.runningIds().length === 2, 'both jobs to start');
    await worker.stop(300);
    expect((await f.job(quick.id)).state).toBe('succeeded');
    expect(await f.job(stuck.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(aborted).toBe(true);
    // Nothing is claimed after stop.
    await f.tasks.enqueue('quick');
    await new Promise((r) => setTimeout(r, 100));
    expect((await f.tasks.stats()).queues['default']).toMatchObject({ queued: 2, succeeded: 1 });
  }));

  it('TQ-7 MUST hand each job to one claimer when claims race', withFixture(async (f) => {
    f.define('noop', () => undefined);
    for (let i = 0; i < 60; i++) await f.tasks.enqueue('noop', { i });
    const now = f.t.clock.now();
    const lease = new Date(now.getTime() + 30_000);
    const claimer = async (owner: string) => {
      const ids: number[] = [];
      for (;;) {
        const jobs = await f.queue.claim('default', 4, owner, now, lease);
        if (jobs.length === 0) return ids;
        ids.push(...jobs.map((j) => j.id));
      }
    };
    const all = (await Promise.all(['a', 'b', 'c'].map(claimer))).flat();
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
  }));

  it('TQ-8 SHOULD fail an attempt that exceeds its timeout, aborting its signal', withFixture(async (f) => {
    let aborted = false;
    f.define('slow', (_p, ctx) => new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => ((aborted = true), resolve()))), { timeout: 50, retries: 0 });
    const { id } = await f.tasks.enqueue('slow');
    await runWorkerUntil(f, async () => (await f.job(id)).state === 'dead', 'the timeout');
    expect(aborted).toBe(true);
    expect((await f.job(id)).lastError).toContain('timed out after 50 ms');
  }));

  it('TQ-9 MUST record only the successes the owner still holds when completions ride on a claim, and claim in order', withFixture(async (f) => {
    f.define('noop', () => undefined);
    const a = await f.tasks.enqueue('noop', { at: '2026-01-01T00:00:00.000Z', n: [1, 2] });
    const b = await f.tasks.enqueue('noop');
    const now = f.t.clock.now();
    const lease = new Date(now.getTime() + 30_000);
    await f.queue.claim('default', 1, 'w', now, lease);
    await f.queue.claim('default', 1, 'other', now, lease);
    const c = await f.tasks.enqueue('noop', {}, { priority: 1 });
    const d = await f.tasks.enqueue('noop', { x: 'y' }, { priority: 9 });
    const claimed = await f.queue.completeAndClaim([a.id, b.id], 'default', 5, 'w', now, lease);
    expect(claimed.completed).toEqual([a.id]);
    expect(claimed.jobs.map((j) => j.id)).toEqual([d.id, c.id]);
    expect(claimed.jobs[0]).toMatchObject({ name: 'noop', queue: 'default', payload: { x: 'y' }, state: 'running', attempts: 1, priority: 9, lastError: null, finishedAt: null });
    expect(claimed.jobs[0]?.leaseUntil?.getTime()).toBe(lease.getTime());
    expect(claimed.jobs[0]?.createdAt.getTime()).toBe(now.getTime());
    expect(await f.job(a.id)).toMatchObject({ state: 'succeeded', payload: { at: '2026-01-01T00:00:00.000Z', n: [1, 2] } });
    expect((await f.job(b.id)).state).toBe('running');
    // Nothing to claim: the completions are still written.
    expect(await f.queue.completeAndClaim([c.id, d.id], 'default', 5, 'w', now, lease)).toEqual({ completed: expect.arrayContaining([c.id, d.id]), jobs: [] });
    expect((await f.tasks.stats()).queues['default']).toEqual({ succeeded: 3, running: 1 });
  }));

  // The in-memory queue runs no statements: nothing to count there.
  if (backend !== 'memory') it('TQ-10 MUST take one statement per job at concurrency 1 on PostgreSQL (completion and next claim together), two on SQLite', withFixture(async (f) => {
    const knex = f.t.db.sql!.knex;
    let writes = 0;
    let beforeLast = -1;
    f.define('noop', (payload) => void ((payload as { i: number }).i === 29 && (beforeLast = writes)));
    for (let i = 0; i < 30; i++) await f.tasks.enqueue('noop', { i });
    const count = (q: { sql: string }) => void (/^(update|with|delete)\b/.test(q.sql) && q.sql.includes('task_row') && writes++);
    knex.on('query', count);
    try {
      await runWorkerUntil(f, async () => (await f.tasks.stats()).queues['default']?.succeeded === 30, 'all jobs', { concurrency: 1 });
    } finally {
      knex.off('query', count);
    }
    // Up to the last job: its claim, the 29 before (each carrying the previous success), the first lease sweep and cleanup.
    const perJob = backend === 'postgresql' ? 1 : 2;
    expect(beforeLast).toBeGreaterThan(0);
    expect(beforeLast).toBeLessThanOrEqual(30 + 29 * (perJob - 1) + 2);
  }));

  it('TQ-11 MUST claim up to batchSize jobs per round trip, run them at the concurrency, renew the waiting ones and release them at stop', withFixture(async (f) => {
    const knex = f.t.db.sql?.knex;
    let claims = 0;
    const count = (q: { sql: string }) => void (/"state" = 'running', "attempts" = "attempts" \+ 1/.test(q.sql) && claims++);
    let running = 0;
    let most = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    f.define('job', async (payload) => {
      most = Math.max(most, ++running);
      if ((payload as { i: number }).i === 0) await gate;
      running--;
    });
    await f.tasks.enqueueMany('job', Array.from({ length: 30 }, (_, i) => ({ i })));
    knex?.on('query', count);
    const worker = f.worker({ concurrency: 2, batchSize: 10 });
    worker.start();
    try {
      // Job 0 holds a slot: the other slot works through the batch it claimed with it.
      await waitFor(async () => (await f.tasks.stats()).queues['default']?.succeeded === 29, 'all jobs but the held one');
      expect(most).toBeLessThanOrEqual(2);
      if (knex) expect(claims).toBeLessThanOrEqual(5); // 29 jobs in batches of 10, not one claim per job
      release();
      await waitFor(async () => (await f.tasks.stats()).queues['default']?.succeeded === 30, 'the held job');
    } finally {
      release();
      await worker.stop(1000);
      knex?.off('query', count);
    }
    // A batch still waiting at stop goes back uncounted.
    await f.tasks.enqueueMany('job', [{ i: 0 }, { i: 1 }, { i: 2 }]);
    let released!: () => void;
    const held = new Promise<void>((resolve) => (released = resolve));
    f.define('job', async () => held);
    const second = f.worker({ concurrency: 1, batchSize: 3 });
    second.start();
    await waitFor(async () => (await f.tasks.stats()).queues['default']?.running === 3, 'the batch claimed');
    const stopped = second.stop(50);
    released();
    await stopped;
    const states = (await f.tasks.list({ limit: 3 })).map((j) => [j.state, j.attempts]);
    expect(states.filter(([state]) => state === 'queued')).toHaveLength(2);
    expect(states.filter(([state]) => state === 'queued').every(([, attempts]) => attempts === 0)).toBe(true);
  }));
}

describe('TaskQueue contract: in-memory store (one process)', () => taskQueueContract('memory'));
describe('TaskQueue contract: SQLite', () => taskQueueContract('sqlite'));
describe.skipIf(!pg)('TaskQueue contract: PostgreSQL', () => taskQueueContract('postgresql'));
