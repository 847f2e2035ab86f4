import type { Row } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import { UNFINISHED_STATES, type JobState } from '../../domain/tasks/task-policy.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Claimed, Enqueued, Job, JobFilter, NewJob, QueueStats, TaskQueue } from '../../ports/task-queue.js';

const T = 'task_row';
const is = (column: string, value: Row[string]): Condition => ({ column, op: 'eq', value });
const held = (id: number, owner: string): Condition => ({ all: [is('id', id), is('state', 'running'), is('locked_by', owner)] });
const heldAll = (ids: readonly number[], owner: string): Condition => ({ all: [{ column: 'id', op: 'in', value: [...ids] }, is('state', 'running'), is('locked_by', owner)] });

/**
 * TaskQueue on any RecordStore, through its `task_row` model: the queue of a `memory:` app (one
 * process; SQL databases use SqlTaskQueue). Every read-then-write runs in a store transaction,
 * which the in-memory store serialises, so claims and outcomes are atomic within the process.
 */
export class StoreTaskQueue implements TaskQueue {
  constructor(private readonly store: RecordStore) {}

  /** One process: the database is this process's memory, and its time this process's. */
  async databaseTime(): Promise<Date> {
    return new Date();
  }

  async enqueue(job: NewJob, tx?: RecordStore): Promise<Enqueued> {
    const write = async (s: RecordStore): Promise<Enqueued> => {
      if (job.uniqueKey !== undefined) {
        const scope: Condition[] = [is('unique_key', job.uniqueKey), ...(job.uniqueEver ? [] : [{ column: 'state', op: 'in', value: UNFINISHED_STATES } as Condition])];
        const [taken] = await s.find(T, { where: { all: scope }, orderBy: [{ column: 'id', direction: 'desc' }], limit: 1 });
        if (taken) return { id: Number(taken['id']), created: false };
      }
      const row = await s.insert(T, rowOf(job));
      return { id: Number(row['id']), created: true };
    };
    return tx ? write(tx) : this.store.transaction(write);
  }

  async enqueueMany(jobs: readonly NewJob[], tx?: RecordStore): Promise<number[]> {
    const rows = jobs.map(rowOf);
    return (await (tx ?? this.store).insertMany(T, rows)).map((row) => Number(row['id']));
  }

  claim(queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Job[]> {
    return this.store.transaction(async (tx) => {
      const due = await tx.find(T, {
        where: { all: [is('queue', queue), { column: 'state', op: 'in', value: ['queued', 'failed'] }, { column: 'run_at', op: 'lte', value: now }] },
        orderBy: [{ column: 'priority', direction: 'desc' }, { column: 'run_at', direction: 'asc' }, { column: 'id', direction: 'asc' }],
        limit,
      });
      const out: Job[] = [];
      for (const r of due) {
        const row = await tx.update(T, r['id'] ?? null, { state: 'running', attempts: Number(r['attempts']) + 1, progress: null, lease_until: leaseUntil, locked_by: owner });
        if (row) out.push(decode(row));
      }
      return out;
    });
  }

  async renew(ids: readonly number[], owner: string, leaseUntil: Date): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.store.updateWhere(T, heldAll(ids, owner), { lease_until: leaseUntil });
    return rows.map((r) => Number(r['id']));
  }

  async complete(ids: readonly number[], owner: string, now: Date): Promise<number[]> {
    if (ids.length === 0) return [];
    await this.store.updateWhere(T, heldAll(ids, owner), { state: 'succeeded', finished_at: now, lease_until: null });
    // Idempotent for its owner, as on SQL: a success written again is found again.
    const done = await this.store.find(T, { where: { all: [{ column: 'id', op: 'in', value: [...ids] }, is('state', 'succeeded'), is('locked_by', owner)] } });
    return done.map((r) => Number(r['id']));
  }

  async completeAndClaim(done: readonly number[], queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Claimed> {
    const completed = await this.complete(done, owner, now);
    return { completed, jobs: await this.claim(queue, limit, owner, now, leaseUntil) };
  }

  async fail(id: number, owner: string, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
    const changes: Row = retryAt
      ? { state: 'failed', run_at: retryAt, last_error: error, lease_until: null, locked_by: null }
      : { state: 'dead', finished_at: now, last_error: error, lease_until: null };
    return (await this.store.updateWhere(T, held(id, owner), changes)).length > 0;
  }

  release(ids: readonly number[], owner: string): Promise<number> {
    return this.store.transaction(async (tx) => {
      let n = 0;
      for (const id of ids) {
        const [row] = await tx.find(T, { where: held(id, owner) });
        if (row && (await tx.update(T, id, { state: 'queued', attempts: Number(row['attempts']) - 1, lease_until: null, locked_by: null }))) n++;
      }
      return n;
    });
  }

  expireLeases(now: Date): Promise<number> {
    return this.store.transaction(async (tx) => {
      const expired = await tx.find(T, { where: { all: [is('state', 'running'), { column: 'lease_until', op: 'lt', value: now }] } });
      for (const r of expired) {
        const last = Number(r['attempts']) >= Number(r['max_attempts']);
        await tx.update(T, r['id'] ?? null, {
          state: last ? 'dead' : 'queued',
          finished_at: last ? now : null,
          last_error: 'lease expired (the worker stopped or lost the database)',
          lease_until: null,
          locked_by: null,
        });
      }
      return expired.length;
    });
  }

  async deleteFinished(before: Date): Promise<number> {
    const old = await this.store.find(T, { where: { all: [is('state', 'succeeded'), { column: 'finished_at', op: 'lt', value: before }] } });
    for (const r of old) await this.store.delete(T, r['id'] ?? null);
    return old.length;
  }

  async stats(): Promise<QueueStats> {
    const queues: Record<string, Partial<Record<JobState, number>>> = {};
    let failures = 0;
    for (const r of await this.store.find(T)) {
      const state = String(r['state']) as JobState;
      const q = (queues[String(r['queue'])] ??= {});
      q[state] = (q[state] ?? 0) + 1;
      if (state === 'failed' || state === 'dead') failures++;
    }
    return { queues, failures };
  }

  async oldestDue(now: Date): Promise<Date | null> {
    const [row] = await this.store.find(T, {
      where: { all: [{ column: 'state', op: 'in', value: ['queued', 'failed'] }, { column: 'run_at', op: 'lte', value: now }] },
      orderBy: [{ column: 'run_at', direction: 'asc' }],
      limit: 1,
    });
    return row ? (row['run_at'] as Date) : null;
  }

  retry(id: number, now: Date): Promise<boolean> {
    return this.store.transaction(async (tx) => {
      const [row] = await tx.find(T, { where: { all: [is('id', id), is('state', 'dead')] } });
      if (!row) return false;
      const key = row['unique_key'];
      if (key !== null && key !== undefined && (await tx.count(T, { all: [is('unique_key', key), { column: 'state', op: 'in', value: UNFINISHED_STATES }] })) > 0) return false;
      await tx.update(T, id, { state: 'queued', attempts: 0, run_at: now, finished_at: null, locked_by: null });
      return true;
    });
  }

  async list(filter: JobFilter): Promise<Job[]> {
    const terms: Condition[] = [...(filter.state !== undefined ? [is('state', filter.state)] : []), ...(filter.queue !== undefined ? [is('queue', filter.queue)] : [])];
    const rows = await this.store.find(T, { ...(terms.length ? { where: { all: terms } } : {}), orderBy: [{ column: 'id', direction: 'desc' }], limit: filter.limit, ...(filter.offset ? { offset: filter.offset } : {}) });
    return rows.map(decode);
  }

  async progress(id: number, owner: string, value: number): Promise<boolean> {
    return (await this.store.updateWhere(T, held(id, owner), { progress: value })).length > 0;
  }

  async cancel(id: number, now: Date): Promise<boolean> {
    const stopped = await this.store.updateWhere(T, { all: [is('id', id), { column: 'state', op: 'in', value: ['queued', 'failed'] }] }, { state: 'dead', last_error: 'cancelled', finished_at: now, locked_by: null, lease_until: null });
    return stopped.length > 0;
  }

  async get(id: number): Promise<Job | null> {
    const row = await this.store.getById(T, id);
    return row ? decode(row) : null;
  }
}

/** The row of a new job, waiting to run. */
function rowOf(job: NewJob): Row {
  return {
    name: job.name,
    queue: job.queue,
    payload: (job.payload ?? null) as Row[string],
    state: 'queued',
    priority: job.priority,
    attempts: 0,
    max_attempts: job.maxAttempts,
    run_at: job.runAt,
    unique_key: job.uniqueKey ?? null,
    created_at: job.createdAt,
  };
}

function decode(r: Row): Job {
  const date = (v: Row[string] | undefined) => (v instanceof Date ? v : v === null || v === undefined ? null : new Date(String(v)));
  return {
    id: Number(r['id']),
    name: String(r['name']),
    queue: String(r['queue']),
    payload: r['payload'],
    state: String(r['state']) as JobState,
    priority: Number(r['priority']),
    attempts: Number(r['attempts']),
    maxAttempts: Number(r['max_attempts']),
    runAt: date(r['run_at']) as Date,
    leaseUntil: date(r['lease_until']),
    uniqueKey: r['unique_key'] === null || r['unique_key'] === undefined ? null : String(r['unique_key']),
    lastError: r['last_error'] === null || r['last_error'] === undefined ? null : String(r['last_error']),
    createdAt: date(r['created_at']) as Date,
    finishedAt: date(r['finished_at']),
    progress: r['progress'] === null || r['progress'] === undefined ? null : Number(r['progress']),
  };
}
