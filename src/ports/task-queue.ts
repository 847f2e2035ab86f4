import type { JobState } from '../domain/tasks/task-policy.js';
import type { RecordStore } from './record-store.js';

/** A job as stored in `task_row`. Times are Dates; `payload` is the JSON given at enqueue. */
export interface Job {
  readonly id: number;
  readonly name: string;
  readonly queue: string;
  readonly payload: unknown;
  readonly state: JobState;
  readonly priority: number;
  /** Attempts started so far (a claim counts one). */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: Date;
  readonly leaseUntil: Date | null;
  readonly uniqueKey: string | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
  /** What the running attempt's handler last reported (0-100), null before it reports; a claim clears it. */
  readonly progress: number | null;
}

/** A job to write. */
export interface NewJob {
  readonly name: string;
  readonly queue: string;
  readonly payload: unknown;
  readonly priority: number;
  readonly maxAttempts: number;
  readonly runAt: Date;
  readonly createdAt: Date;
  readonly uniqueKey?: string;
  /** The key is unique among all stored jobs, finished ones too (periodic slots: a slot runs once). */
  readonly uniqueEver?: boolean;
}

/** What an enqueue did: `created` is false when an unfinished job already held the unique key (its id is returned). */
export interface Enqueued {
  readonly id: number;
  readonly created: boolean;
}

/** What a `completeAndClaim` did: the ids it marked succeeded (those `owner` still held), and the jobs it claimed. */
export interface Claimed {
  readonly completed: readonly number[];
  readonly jobs: Job[];
}

/** Which jobs `list` returns. */
export interface JobFilter {
  readonly state?: JobState;
  readonly queue?: string;
  readonly limit: number;
  /** Skips this many of the newest matching jobs first (default 0): the later pages of the list. */
  readonly offset?: number;
}

/** Job counts by queue and state. */
export interface QueueStats {
  readonly queues: Readonly<Record<string, Partial<Record<JobState, number>>>>;
  /** Jobs waiting for a retry (`failed`) plus `dead` ones, over every queue. */
  readonly failures: number;
}

/**
 * Durable job storage shared by every process on the database (docs/tasks.md). Claims are
 * atomic: a job is handed to one worker at a time, under a lease the worker renews; a lease that
 * runs out puts the job back (or makes it dead once its attempts are spent). Every state change
 * made by a worker names the worker (`owner`) and does nothing when another one holds the job.
 */
export interface TaskQueue {
  /** Writes a job, on `tx` when given (it then exists iff that transaction commits). */
  enqueue(job: NewJob, tx?: RecordStore): Promise<Enqueued>;
  /** Writes jobs without unique keys in one statement (on `tx` when given: all or none) and returns their ids in order. */
  enqueueMany(jobs: readonly NewJob[], tx?: RecordStore): Promise<number[]>;
  /** Claims up to `limit` due jobs of `queue` (highest priority, then earliest `runAt`), leased to `owner` until `leaseUntil`. */
  claim(queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Job[]>;
  /** Extends the leases of `ids` still held by `owner`; returns the ids it still holds. */
  renew(ids: readonly number[], owner: string, leaseUntil: Date): Promise<number[]>;
  /** Marks the jobs of `ids` that `owner` still holds succeeded; returns their ids. Idempotent: a job `owner` already completed is returned again, its finish time kept. */
  complete(ids: readonly number[], owner: string, now: Date): Promise<number[]>;
  /**
   * `complete(done)`, then `claim(…)`: in one statement where the database allows it (one round
   * trip and one commit), else one after the other.
   */
  completeAndClaim(done: readonly number[], queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Claimed>;
  /** Records a failed attempt: back to `failed` until `retryAt`, or `dead` when `retryAt` is null. */
  fail(id: number, owner: string, error: string, retryAt: Date | null, now: Date): Promise<boolean>;
  /** Puts jobs held by `owner` back to `queued` without counting the attempt (shutdown). */
  release(ids: readonly number[], owner: string): Promise<number>;
  /** Puts jobs whose lease ran out back (or to `dead` when their attempts are spent); returns how many. */
  expireLeases(now: Date): Promise<number>;
  /** Deletes succeeded jobs finished before `before`; returns how many. Dead jobs are kept. */
  deleteFinished(before: Date): Promise<number>;
  /** Job counts by queue and state. */
  stats(): Promise<QueueStats>;
  /** The time on the queue's database (`clock_timestamp()` on PostgreSQL, SQLite's `'now'`; the process's time in memory): the clock leases, delays and cron slots are read on. */
  databaseTime(): Promise<Date>;
  /** The run time of the oldest due job waiting to run, or null. */
  oldestDue(now: Date): Promise<Date | null>;
  /** Queues a dead job again with fresh attempts; false when `id` is not dead. */
  retry(id: number, now: Date): Promise<boolean>;
  /** One job by id, or null. */
  get(id: number): Promise<Job | null>;
  /** The newest jobs first (by id), of `state` and `queue` when given, at most `limit`, after skipping `offset` of them. */
  list(filter: JobFilter): Promise<Job[]>;
  /** Stores the progress of a job `owner` holds; false when it no longer holds it. */
  progress(id: number, owner: string, value: number): Promise<boolean>;
  /** Ends a job that has not started (queued, or waiting for a retry) as `dead` with the error `cancelled`; false for any other. */
  cancel(id: number, now: Date): Promise<boolean>;
}
