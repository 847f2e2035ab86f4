import { DomainError } from '../../domain/errors/domain-error.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Enqueued, Job, JobFilter, NewJob, QueueStats, TaskQueue } from '../../ports/task-queue.js';
import { canRetry, isJobState, JOB_STATES, type JobState } from '../../domain/tasks/task-policy.js';
import type { TaskArgs, TaskDefinition } from './task-definition.js';

/** The topic an enqueue publishes on (after the commit, inside a transaction) so workers look at once. */
export const TASKS_TOPIC = 'portico.tasks.enqueued';

/** When and how a job runs (each has a default from its task's definition). */
export interface EnqueueOptions {
  /** Not before this time (default now). */
  readonly runAt?: Date;
  /** Not before this many milliseconds from now (ignored with `runAt`). */
  readonly delay?: number;
  /** Overrides the task's priority (higher runs first). */
  readonly priority?: number;
  /** Overrides the task's queue. */
  readonly queue?: string;
  /** At most one unfinished job (queued, running or waiting for a retry) holds this key; a second enqueue returns the first job's id. */
  readonly uniqueKey?: string;
  /** With `uniqueKey`: unique among every stored job, finished ones too (until retention deletes them). */
  readonly uniqueEver?: boolean;
  /** Write the job on this transaction (`store.transaction(tx => …)`): it exists iff the transaction commits. */
  readonly tx?: RecordStore;
}

/** What `app.tasks` offers: enqueue, inspect, retry. */
export interface TaskClient {
  /** Enqueues a job of a defined task; resolves with its id (`created` false when the unique key was taken). */
  enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<Enqueued>;
  /**
   * The same by the task's definition (`defineTask`), its payload checked against the handler's
   * type; it may be left out (and is then `{}`) only when `{}` is such a payload. The job is the
   * app's task of `task.name`, as if the name were given.
   */
  enqueue<P>(task: TaskDefinition<P>, ...args: TaskArgs<NoInfer<P>, EnqueueOptions>): Promise<Enqueued>;
  /**
   * Enqueues one job of task `name` per payload, in one statement (on `options.tx` when given:
   * all or none); resolves with their ids in order. No unique keys: use `enqueue` for those.
   */
  enqueueMany(name: string, payloads: readonly unknown[], options?: Omit<EnqueueOptions, 'uniqueKey' | 'uniqueEver'>): Promise<number[]>;
  /** The same by the task's definition, each payload checked against the handler's type. */
  enqueueMany<P>(task: TaskDefinition<P>, payloads: readonly NoInfer<P>[], options?: Omit<EnqueueOptions, 'uniqueKey' | 'uniqueEver'>): Promise<number[]>;
  /** `enqueue` on a transaction: the job is written iff `tx` commits. */
  enqueueIn(tx: RecordStore, name: string, payload?: unknown, options?: Omit<EnqueueOptions, 'tx'>): Promise<Enqueued>;
  /** The same by the task's definition, its payload checked against the handler's type. */
  enqueueIn<P>(tx: RecordStore, task: TaskDefinition<P>, ...args: TaskArgs<NoInfer<P>, Omit<EnqueueOptions, 'tx'>>): Promise<Enqueued>;
  /** The newest jobs first, of a state and queue when given (default limit 50, at most 1000), after skipping `offset` of them (default 0). */
  list(filter?: Partial<JobFilter>): Promise<Job[]>;
  /** Ends a job that has not started (queued, or waiting for a retry) as `dead`, error `cancelled`; false for any other. */
  cancel(id: number): Promise<boolean>;
  /** Job counts per queue and state, and the number of failures (waiting for a retry or dead). */
  stats(): Promise<QueueStats>;
  /** Queues a dead job again with fresh attempts; false when it is not dead. */
  retry(id: number): Promise<boolean>;
  /** One job, or null. */
  get(id: number): Promise<Job | null>;
}

/**
 * Enqueues jobs of defined tasks (docs/tasks.md). The row is written on the caller's
 * transaction when one is given; the wake-up for workers is published on the event bus, which
 * holds it until the surrounding transaction commits (nothing is announced for a rollback).
 */
export class Tasks implements TaskClient {
  constructor(
    private readonly deps: {
      readonly queue: TaskQueue;
      readonly clock: Clock;
      readonly events: EventBus;
      readonly definitions: ReadonlyMap<string, TaskDefinition>;
      /** The queues workers serve (the defined tasks' and those given a concurrency): a job for another would never run. */
      readonly queues: ReadonlySet<string>;
      /** Identifies this process in wake-up messages. */
      readonly origin: string;
    },
  ) {}

  enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<Enqueued>;
  enqueue<P>(task: TaskDefinition<P>, ...args: TaskArgs<NoInfer<P>, EnqueueOptions>): Promise<Enqueued>;
  enqueue(task: string | TaskDefinition, payload: unknown = {}, options: EnqueueOptions = {}): Promise<Enqueued> {
    return this.add(task, payload, options);
  }

  private async add(task: string | TaskDefinition, payload: unknown, options: EnqueueOptions): Promise<Enqueued> {
    const job = this.job(task, payload, options);
    const done = await this.deps.queue.enqueue(job, options.tx);
    if (done.created) await this.deps.events.publish(TASKS_TOPIC, { queue: job.queue, runAt: job.runAt.getTime(), origin: this.deps.origin });
    return done;
  }

  enqueueMany(name: string, payloads: readonly unknown[], options?: Omit<EnqueueOptions, 'uniqueKey' | 'uniqueEver'>): Promise<number[]>;
  enqueueMany<P>(task: TaskDefinition<P>, payloads: readonly NoInfer<P>[], options?: Omit<EnqueueOptions, 'uniqueKey' | 'uniqueEver'>): Promise<number[]>;
  async enqueueMany(task: string | TaskDefinition, payloads: readonly unknown[], options: Omit<EnqueueOptions, 'uniqueKey' | 'uniqueEver'> = {}): Promise<number[]> {
    if ('uniqueKey' in options) throw new DomainError('invalid_input', 'tasks: enqueueMany takes no uniqueKey (enqueue each job that needs one)', [{ field: 'uniqueKey', message: 'not taken by enqueueMany' }]);
    const jobs = payloads.map((payload) => this.job(task, payload, options));
    const ids = await this.deps.queue.enqueueMany(jobs, options.tx);
    if (ids.length > 0) await this.deps.events.publish(TASKS_TOPIC, { queue: jobs[0]?.queue, runAt: jobs[0]?.runAt.getTime(), origin: this.deps.origin });
    return ids;
  }

  /**
   * The job to write for `task`, checked: a defined task, on a queue some worker serves. A
   * definition counts by its name alone, so one the app did not register is an unknown name.
   */
  private job(task: string | TaskDefinition, payload: unknown, options: EnqueueOptions): NewJob {
    const name = typeof task === 'object' && task !== null ? task.name : task;
    const def = this.deps.definitions.get(name);
    if (!def) throw new Error(`tasks: no task named ${JSON.stringify(name)} is defined (tasks().define(name, handler))`);
    const now = this.deps.clock.now();
    const runAt = options.runAt ?? new Date(now.getTime() + Math.max(0, options.delay ?? 0));
    const queue = options.queue ?? def.queue;
    if (!this.deps.queues.has(queue)) {
      const served = [...this.deps.queues].sort().join(', ');
      throw new DomainError('invalid_input', `tasks: no worker serves the queue "${queue}" (served: ${served}); declare it with define(name, handler, { queue }) or tasks({ concurrency: { ${JSON.stringify(queue)}: n } })`, [{ field: 'queue', message: 'no worker serves it' }]);
    }
    return {
      name,
      queue,
      payload,
      priority: options.priority ?? def.priority,
      maxAttempts: def.retries + 1,
      runAt,
      createdAt: now,
      ...(options.uniqueKey !== undefined ? { uniqueKey: options.uniqueKey, uniqueEver: options.uniqueEver === true } : {}),
    };
  }

  enqueueIn(tx: RecordStore, name: string, payload?: unknown, options?: Omit<EnqueueOptions, 'tx'>): Promise<Enqueued>;
  enqueueIn<P>(tx: RecordStore, task: TaskDefinition<P>, ...args: TaskArgs<NoInfer<P>, Omit<EnqueueOptions, 'tx'>>): Promise<Enqueued>;
  enqueueIn(tx: RecordStore, task: string | TaskDefinition, payload: unknown = {}, options: Omit<EnqueueOptions, 'tx'> = {}): Promise<Enqueued> {
    return this.add(task, payload, { ...options, tx });
  }

  stats(): Promise<QueueStats> {
    return this.deps.queue.stats();
  }

  async retry(id: number): Promise<boolean> {
    const done = await this.deps.queue.retry(id, this.deps.clock.now());
    if (done) await this.deps.events.publish(TASKS_TOPIC, { origin: this.deps.origin });
    return done;
  }

  get(id: number): Promise<Job | null> {
    return this.deps.queue.get(id);
  }

  async list(filter: Partial<JobFilter> = {}): Promise<Job[]> {
    const limit = filter.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new DomainError('invalid_input', 'tasks: list takes a limit from 1 to 1000', [{ field: 'limit', message: 'from 1 to 1000' }]);
    if (filter.state !== undefined && !JOB_STATES.includes(filter.state)) {
      throw new DomainError('invalid_input', `tasks: no job state "${String(filter.state)}" (states: ${JOB_STATES.join(', ')})`, [{ field: 'state', message: 'not a job state' }]);
    }
    const offset = filter.offset ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0) throw new DomainError('invalid_input', 'tasks: list takes an offset of 0 or more', [{ field: 'offset', message: 'a whole number, 0 or more' }]);
    return this.deps.queue.list({ limit, offset, ...(filter.state !== undefined ? { state: filter.state } : {}), ...(filter.queue !== undefined ? { queue: filter.queue } : {}) });
  }

  cancel(id: number): Promise<boolean> {
    return this.deps.queue.cancel(id, this.deps.clock.now());
  }
}

/** One page of the job list: its jobs, newest first, and how many jobs the filter matches in all. */
export interface JobsPage {
  readonly jobs: readonly Job[];
  readonly count: number;
}

/** Which page of jobs to read: `state` as the caller wrote it (checked), `page` from 1. */
export interface JobsPageQuery {
  readonly state?: string | undefined;
  readonly page: number;
  readonly pageSize: number;
}

/**
 * The queue as the admin's jobs page sees it (docs/admin.md "Jobs"): pages of jobs by state with
 * their count, and a retry that says why it did nothing. Everything goes through the task
 * client (`app.tasks`), never the store. Who may call it is the caller's business (the admin:
 * staff).
 */
export class ReviewJobs {
  constructor(private readonly tasks: TaskClient) {}

  /** One page of the jobs of `state` (every job when undefined); the count comes from `stats()`, the queue's own counts. */
  async page(query: JobsPageQuery): Promise<JobsPage> {
    const { state, page, pageSize } = query;
    if (state !== undefined && !isJobState(state)) {
      throw new DomainError('invalid_input', `no job state ${JSON.stringify(state)} (states: ${JOB_STATES.join(', ')})`, [{ field: 'state', message: 'not a job state' }]);
    }
    if (!Number.isSafeInteger(page) || page < 1) throw new DomainError('invalid_input', 'the page is a whole number from 1', [{ field: 'page', message: 'a whole number from 1' }]);
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new DomainError('invalid_input', 'a page holds from 1 to 1000 jobs', [{ field: 'pageSize', message: 'from 1 to 1000' }]);
    const [stats, jobs] = await Promise.all([
      this.tasks.stats(),
      this.tasks.list({ ...(state !== undefined ? { state } : {}), limit: pageSize, offset: (page - 1) * pageSize }),
    ]);
    return { jobs, count: countOf(stats, state) };
  }

  /** How many jobs the queue holds, and how many of them failed (waiting for a retry, or dead). */
  async totals(): Promise<{ readonly jobs: number; readonly failures: number }> {
    const stats = await this.tasks.stats();
    return { jobs: countOf(stats, undefined), failures: stats.failures };
  }

  /**
   * Queues the dead job `id` again with fresh attempts and returns it as it is now. Refuses an
   * unknown job (`not_found`) and one that cannot be retried (`invalid_input`, saying why: its
   * state, or a unique key an unfinished job holds).
   */
  async retry(id: number): Promise<Job> {
    // Tasks.retry holds the rule (a dead job whose unique key no unfinished job holds); the job is
    // read afterwards only to answer it, or to say why nothing was done.
    const retried = await this.tasks.retry(id);
    const job = await this.tasks.get(id);
    if (!job) throw new DomainError('not_found', `no job ${id}`);
    if (retried) return job;
    if (!canRetry(job.state)) throw notRetryable(job);
    throw new DomainError('invalid_input', `job ${id} cannot be retried while another unfinished job holds its unique key ${JSON.stringify(job.uniqueKey ?? '')}`);
  }

}

const notRetryable = (job: Job): DomainError => new DomainError('invalid_input', `job ${job.id} is ${job.state}: only a dead job can be retried`);

/** The jobs of `state` (every state when undefined) over every queue. */
function countOf(stats: QueueStats, state: JobState | undefined): number {
  let n = 0;
  for (const counts of Object.values(stats.queues)) {
    for (const [s, count] of Object.entries(counts)) if (state === undefined || s === state) n += count ?? 0;
  }
  return n;
}
