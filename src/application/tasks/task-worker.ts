import { DomainError } from '../../domain/errors/domain-error.js';
import { retryDelayMs, storableError } from '../../domain/tasks/task-policy.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Job, TaskQueue } from '../../ports/task-queue.js';
import type { TaskContext, TaskDefinition } from './task-definition.js';

export interface TaskWorkerDeps {
  readonly queue: TaskQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly definitions: ReadonlyMap<string, TaskDefinition>;
  /** The handler context of one attempt (store, mailer, events, logger); the worker adds `progress`. */
  readonly context: (job: Job, signal: AbortSignal) => Omit<TaskContext, 'progress'>;
  /** Jobs run at once, per queue; a queue not listed is not worked on. */
  readonly concurrency: ReadonlyMap<string, number>;
  /**
   * Jobs one claim may take per queue (default: the free slots). Above the concurrency, the extra
   * jobs wait leased in this worker (renewed, released at stop) and start as slots free, so a
   * drain of short jobs costs a round trip per batch, not per job.
   */
  readonly batchSize?: number;
  /** This worker's name in `locked_by` (unique per process). */
  readonly owner: string;
  /** How long a claim holds a job; renewed every third of it while the job runs (default 30 s). */
  readonly leaseMs?: number;
  /** The fallback poll when no wake-up arrives (default 1 s). */
  readonly pollMs?: number;
  /** How long succeeded jobs are kept (default 7 days). */
  readonly retentionMs?: number;
  readonly random01?: () => number;
}

interface Running {
  readonly job: Job;
  readonly abort: AbortController;
  readonly done: Promise<void>;
}

/**
 * Runs jobs of the task queue in this process (docs/tasks.md): one claim loop per queue, up
 * to its concurrency; leases renewed while jobs run; failures retried with jittered exponential
 * backoff, then `dead`; expired leases of any process put back; succeeded jobs past retention
 * deleted. `stop` stops claiming, lets running jobs finish within a grace period and releases
 * (back to `queued`, attempt not counted) what is left.
 */
export class TaskWorker {
  private readonly running = new Map<number, Running>();
  /** Claimed jobs waiting for a free slot, per queue (with `batchSize` above the concurrency). */
  private readonly waiting = new Map<string, Job[]>();
  private readonly released = new Set<number>();
  private readonly waiters = new Set<() => void>();
  private readonly recording = new Set<Promise<void>>();
  /** Jobs that succeeded, not yet recorded: the next claim carries them, or a flush after this turn of the event loop. */
  private done: number[] = [];
  private flushQueued = false;
  private readonly loops: Promise<void>[] = [];
  private wakes = 0;
  private stopping = false;
  private renewTimer?: ReturnType<typeof setInterval>;
  private nextSweep = 0;
  private nextCleanup = 0;

  constructor(private readonly deps: TaskWorkerDeps) {}

  private get leaseMs(): number {
    return this.deps.leaseMs ?? 30_000;
  }

  /** Starts the claim loops and the lease renewal. */
  start(): void {
    for (const [queue, n] of this.deps.concurrency) this.loops.push(this.loop(queue, n));
    this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.leaseMs / 3)));
    this.renewTimer.unref();
  }

  /**
   * Warns, once, about queues that hold unfinished jobs this worker does not serve (they were
   * enqueued by another version of the app, or for a queue since removed): nothing runs them here.
   */
  async warnUnserved(): Promise<string[]> {
    const stats = await this.deps.queue.stats();
    const unserved = Object.entries(stats.queues)
      .filter(([queue, states]) => !this.deps.concurrency.has(queue) && ((states.queued ?? 0) > 0 || (states.failed ?? 0) > 0 || (states.running ?? 0) > 0))
      .map(([queue]) => queue)
      .sort();
    if (unserved.length > 0) this.deps.logger.warn({ queues: unserved, served: [...this.deps.concurrency.keys()].sort() }, 'tasks: these queues hold jobs no worker of this process serves');
    return unserved;
  }

  /** Looks for due jobs now (an enqueue committed here or in another process). */
  wake(): void {
    this.wakes++;
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * Looks for due jobs at `at` too (a retry or a delayed job due before the next poll), so a delay
   * under the poll interval is kept, not rounded up to it. Real time from the clock's reading.
   */
  wakeAt(at: Date): void {
    const ms = at.getTime() - this.deps.clock.now().getTime();
    if (this.stopping || ms >= (this.deps.pollMs ?? 1000)) return;
    const timer = setTimeout(() => this.wake(), Math.max(0, ms) + 1);
    timer.unref();
  }

  /** Ids of the jobs running in this worker. */
  runningIds(): number[] {
    return [...this.running.keys()];
  }

  /** Stops claiming, waits up to `graceMs` for running jobs, then aborts and releases the rest. */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.wake();
    await Promise.all(this.loops);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all([...this.running.values()].map((r) => r.done)), grace]);
    clearTimeout(timer);
    this.flush();
    await Promise.all([...this.recording]);
    if (this.done.length > 0) this.deps.logger.error({ jobs: this.done }, 'tasks: could not record finished jobs at shutdown; their leases will expire and they will run again');
    clearInterval(this.renewTimer);
    await this.releaseWaiting();
    const left = [...this.running.values()];
    if (left.length === 0) return;
    for (const r of left) {
      this.released.add(r.job.id);
      r.abort.abort(new Error('the worker is shutting down'));
    }
    try {
      const n = await this.deps.queue.release(left.map((r) => r.job.id), this.deps.owner);
      this.deps.logger.warn({ jobs: left.map((r) => r.job.id), released: n }, 'tasks: released jobs still running at shutdown');
    } catch (err) {
      this.deps.logger.error({ err }, 'tasks: could not release running jobs; their leases will expire');
    }
  }

  /** Puts back the claimed jobs that never started (their attempt uncounted). */
  private async releaseWaiting(): Promise<void> {
    const ids = [...this.waiting.values()].flat().map((job) => job.id);
    this.waiting.clear();
    if (ids.length === 0) return;
    try {
      await this.deps.queue.release(ids, this.deps.owner);
    } catch (err) {
      this.deps.logger.error({ err, jobs: ids }, 'tasks: could not release claimed jobs at shutdown; their leases will expire');
    }
  }

  private async loop(queue: string, concurrency: number): Promise<void> {
    while (!this.stopping) {
      const seen = this.wakes;
      try {
        await this.housekeeping();
        let free = concurrency - [...this.running.values()].filter((r) => r.job.queue === queue).length;
        const waiting = this.waiting.get(queue) ?? [];
        for (; free > 0 && waiting.length > 0; free--) this.launch(waiting.shift() as Job);
        if (free > 0) {
          const limit = Math.max(free, this.deps.batchSize ?? 0);
          const jobs = await this.claim(queue, limit);
          for (const job of jobs.slice(0, free)) this.launch(job);
          if (jobs.length > free) this.waiting.set(queue, jobs.slice(free));
          if (jobs.length > 0 && jobs.length === limit) continue;
        }
      } catch (err) {
        this.deps.logger.error({ err, queue }, 'tasks: claiming failed; retrying');
      }
      if (this.wakes === seen) await this.idle();
    }
  }

  /** Claims up to `limit` jobs of `queue`, recording the successes waiting to be recorded in the same statement. */
  private async claim(queue: string, limit: number): Promise<Job[]> {
    const now = this.deps.clock.now();
    const done = this.takeDone();
    try {
      const claimed = await this.deps.queue.completeAndClaim(done, queue, limit, this.deps.owner, now, new Date(now.getTime() + this.leaseMs));
      this.warnLost(done, claimed.completed);
      return claimed.jobs;
    } catch (error) {
      this.done.push(...done); // nothing was written: the next claim or flush records them
      throw error;
    }
  }

  private takeDone(): number[] {
    const done = this.done;
    this.done = [];
    return done;
  }

  /** Records the successes no claim has carried away, after this turn of the event loop (a claim sent in it carries them). */
  private queueFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private flush(): void {
    const done = this.takeDone();
    if (done.length === 0) return;
    const written = this.deps.queue.complete(done, this.deps.owner, this.deps.clock.now()).then(
      (completed) => this.warnLost(done, completed),
      (error: unknown) => {
        this.done.push(...done);
        throw error;
      },
    );
    this.record(written, done);
  }

  private warnLost(done: readonly number[], completed: readonly number[]): void {
    if (completed.length === done.length) return;
    const held = new Set(completed);
    for (const id of done) if (!held.has(id)) this.deps.logger.warn({ job: id }, 'tasks: a job finished after its lease was lost');
  }

  /** Waits for a wake-up, a finished job or the poll interval. */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.deps.pollMs ?? 1000);
      this.waiters.add(done);
    });
  }

  private launch(job: Job): void {
    const abort = new AbortController();
    const done = this.execute(job, abort)
      .catch((err: unknown) => this.deps.logger.error({ err, job: job.id }, 'tasks: recording an outcome failed; the lease will expire'))
      .finally(() => {
        this.running.delete(job.id);
        this.released.delete(job.id);
        this.wake();
      });
    this.running.set(job.id, { job, abort, done });
  }

  private async execute(job: Job, abort: AbortController): Promise<void> {
    const { queue, owner, clock, logger } = this.deps;
    const def = this.deps.definitions.get(job.name);
    try {
      if (!def) throw new Error(`no task named ${job.name} is defined in this process`);
      const context: TaskContext = { ...this.deps.context(job, abort.signal), progress: (percent) => this.progress(job, percent) };
      await withTimeout(() => def.handler(job.payload, context), def.timeoutMs, abort);
      if (this.released.has(job.id)) return;
      // Recorded without holding the slot, by the claim this finish triggers (one statement for
      // both on PostgreSQL) or by a flush; `stop` records what is left before releasing anything.
      this.done.push(job.id);
      this.queueFlush();
      return;
    } catch (error) {
      if (this.released.has(job.id)) return;
      const now = clock.now();
      const last = job.attempts >= job.maxAttempts;
      const retryAt = last ? null : new Date(now.getTime() + retryDelayMs(job.attempts, def?.backoff ?? {}, this.deps.random01 ?? Math.random));
      const message = storableError(error);
      await queue.fail(job.id, owner, message, retryAt, now);
      if (retryAt) this.wakeAt(retryAt);
      logger[last ? 'error' : 'warn']({ job: job.id, task: job.name, attempt: job.attempts, error: message, ...(retryAt ? { retryAt } : {}) }, last ? 'tasks: job is dead' : 'tasks: attempt failed');
    }
  }

  /** Stores a running job's progress; a job whose lease was lost is told nothing back (the write is refused, and logged). */
  private async progress(job: Job, percent: number): Promise<void> {
    if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
      throw new DomainError('invalid_input', `tasks: progress takes an integer from 0 to 100, got ${String(percent)}`, [{ field: 'progress', message: 'an integer from 0 to 100' }]);
    }
    if (!(await this.deps.queue.progress(job.id, this.deps.owner, percent))) this.deps.logger.warn({ job: job.id }, 'tasks: progress of a job whose lease was lost');
  }

  /** Tracks outcomes being written, so that `stop` can wait for them; a failure is logged (the next claim tries again; the lease may expire first). */
  private record(outcome: Promise<void>, jobs: readonly number[]): void {
    const tracked = outcome
      .catch((err: unknown) => this.deps.logger.error({ err, jobs }, 'tasks: recording an outcome failed; the lease will expire'))
      .finally(() => this.recording.delete(tracked));
    this.recording.add(tracked);
  }

  private async renew(): Promise<void> {
    const ids = [...[...this.running.keys()].filter((id) => !this.released.has(id)), ...[...this.waiting.values()].flat().map((job) => job.id)];
    if (ids.length === 0) return;
    try {
      const held = new Set(await this.deps.queue.renew(ids, this.deps.owner, new Date(this.deps.clock.now().getTime() + this.leaseMs)));
      for (const id of ids) {
        if (held.has(id)) continue;
        this.released.add(id);
        this.running.get(id)?.abort.abort(new Error('the lease of this job was lost'));
      }
      // A claimed job that lost its lease before it started is another worker's now.
      for (const [queue, jobs] of this.waiting) this.waiting.set(queue, jobs.filter((job) => held.has(job.id)));
    } catch (err) {
      this.deps.logger.warn({ err }, 'tasks: renewing leases failed');
    }
  }

  /** Expired leases every half lease; succeeded jobs past retention every hour. Real time, not the clock: these are intervals. */
  private async housekeeping(): Promise<void> {
    const wall = Date.now();
    if (wall >= this.nextSweep) {
      this.nextSweep = wall + Math.max(50, this.leaseMs / 2);
      const n = await this.deps.queue.expireLeases(this.deps.clock.now());
      if (n > 0) this.deps.logger.warn({ jobs: n }, 'tasks: put back jobs whose lease expired');
    }
    if (wall >= this.nextCleanup) {
      this.nextCleanup = wall + 3_600_000;
      await this.deps.queue.deleteFinished(new Date(this.deps.clock.now().getTime() - (this.deps.retentionMs ?? 7 * 86_400_000)));
    }
  }
}

/** Runs `work`; after `ms` aborts `abort` and rejects. An abort from elsewhere (lease lost, shutdown) rejects too. */
async function withTimeout(work: () => unknown, ms: number, abort: AbortController): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`timed out after ${ms} ms`);
      abort.abort(error);
      reject(error);
    }, ms);
    abort.signal.addEventListener('abort', () => reject(abort.signal.reason instanceof Error ? abort.signal.reason : new Error('aborted')), { once: true });
  });
  cut.catch(() => undefined);
  try {
    await Promise.race([Promise.resolve().then(work), cut]);
  } finally {
    clearTimeout(timer);
  }
}
