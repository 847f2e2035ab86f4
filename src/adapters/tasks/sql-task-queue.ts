import type { Knex } from '@mikro-orm/knex';
import { parseTimestampText } from '../../domain/model/values.js';
import { UNFINISHED_STATES, type JobState } from '../../domain/tasks/task-policy.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Enqueued, Job, NewJob, QueueStats, TaskQueue } from '../../ports/task-queue.js';

type Db = Knex | Knex.Transaction;
type Raw = Record<string, unknown>;

/** The knex handle a store writes through (its transaction's, for a store inside one); undefined for a non-SQL store. */
export type ConnectionOf = (store: RecordStore) => Db | undefined;

const UNFINISHED = UNFINISHED_STATES.map((s) => `'${s}'`).join(', ');

/**
 * TaskQueue on the `task_row` table (migration `portico_0004_task_queue`) of SQLite or
 * PostgreSQL. Every state change is one statement:
 * - a claim is `update … where id in (select … limit n) returning *`; on PostgreSQL the inner
 *   select takes `for update skip locked`, so concurrent claimers pass over each other's rows;
 *   on SQLite the statement runs under the database's single write lock (busy_timeout set), which
 *   makes it atomic across processes;
 * - a worker's completion, failure, renewal and release only touch rows it still holds
 *   (`state = 'running' and locked_by = owner`), so a worker whose lease ran out cannot
 *   overwrite the next holder's outcome.
 * Time comes from the caller (the app's Clock), as in the SQL throttle store.
 */
export class SqlTaskQueue implements TaskQueue {
  private readonly ts: string;

  constructor(
    private readonly knex: Knex,
    private readonly dialect: 'sqlite' | 'postgresql',
    private readonly connectionOf: ConnectionOf,
  ) {
    this.ts = dialect === 'postgresql' ? '?::timestamptz' : '?';
  }

  async enqueue(job: NewJob, tx?: RecordStore): Promise<Enqueued> {
    const db = tx ? this.connectionOf(tx) : this.knex;
    if (!db) throw new Error('tasks: enqueue({ tx }) needs a transaction of the SQL store (store.transaction(tx => …))');
    const json = this.dialect === 'postgresql' ? '?::jsonb' : '?';
    const columns = `insert into "task_row" ("name", "queue", "payload", "state", "priority", "attempts", "max_attempts", "run_at", "unique_key", "created_at")`;
    const values = `?, ?, ${json}, 'queued', ?, 0, ?, ${this.ts}, ?, ${this.ts}`;
    // `where not exists` (any state) makes a periodic slot run once even when its job already finished.
    const sql = job.uniqueEver
      ? `${columns} select ${values} where not exists (select 1 from "task_row" where "unique_key" = ?) on conflict do nothing returning "id"`
      : `${columns} values (${values}) on conflict do nothing returning "id"`;
    const inserted = await this.rows(db, sql, [job.name, job.queue, JSON.stringify(job.payload ?? null), job.priority, job.maxAttempts, this.encode(job.runAt), job.uniqueKey ?? null, this.encode(job.createdAt), ...(job.uniqueEver ? [job.uniqueKey ?? null] : [])]);
    if (inserted[0]) return { id: Number(inserted[0]['id']), created: true };
    const existing = await this.rows(db, `select "id" from "task_row" where "unique_key" = ? order by "state" in (${UNFINISHED}) desc, "id" desc limit 1`, [job.uniqueKey ?? null]);
    if (!existing[0]) throw new Error(`tasks: the job ${job.name} was neither written nor found by its unique key`);
    return { id: Number(existing[0]['id']), created: false };
  }

  async claim(queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Job[]> {
    const lock = this.dialect === 'postgresql' ? ' for update skip locked' : '';
    const sql = [
      `update "task_row" set "state" = 'running', "attempts" = "attempts" + 1, "lease_until" = ${this.ts}, "locked_by" = ?`,
      `where "id" in (select "id" from "task_row" where "queue" = ? and "state" in ('queued', 'failed') and "run_at" <= ${this.ts}`,
      `order by "priority" desc, "run_at", "id" limit ?${lock}) returning *`,
    ].join(' ');
    const rows = await this.rows(this.knex, sql, [this.encode(leaseUntil), owner, queue, this.encode(now), limit]);
    return rows.map((r) => this.decode(r)).sort((a, b) => b.priority - a.priority || a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
  }

  async renew(ids: readonly number[], owner: string, leaseUntil: Date): Promise<number[]> {
    if (ids.length === 0) return [];
    const sql = `update "task_row" set "lease_until" = ${this.ts} where "id" in (${ids.map(() => '?').join(', ')}) and "state" = 'running' and "locked_by" = ? returning "id"`;
    return (await this.rows(this.knex, sql, [this.encode(leaseUntil), ...ids, owner])).map((r) => Number(r['id']));
  }

  async complete(id: number, owner: string, now: Date): Promise<boolean> {
    const sql = `update "task_row" set "state" = 'succeeded', "finished_at" = ${this.ts}, "lease_until" = null where "id" = ? and "state" = 'running' and "locked_by" = ? returning "id"`;
    return (await this.rows(this.knex, sql, [this.encode(now), id, owner])).length > 0;
  }

  async fail(id: number, owner: string, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
    const sql = retryAt
      ? `update "task_row" set "state" = 'failed', "run_at" = ${this.ts}, "last_error" = ?, "lease_until" = null, "locked_by" = null where "id" = ? and "state" = 'running' and "locked_by" = ? returning "id"`
      : `update "task_row" set "state" = 'dead', "finished_at" = ${this.ts}, "last_error" = ?, "lease_until" = null where "id" = ? and "state" = 'running' and "locked_by" = ? returning "id"`;
    return (await this.rows(this.knex, sql, [this.encode(retryAt ?? now), error, id, owner])).length > 0;
  }

  async release(ids: readonly number[], owner: string): Promise<number> {
    if (ids.length === 0) return 0;
    const sql = `update "task_row" set "state" = 'queued', "attempts" = "attempts" - 1, "lease_until" = null, "locked_by" = null where "id" in (${ids.map(() => '?').join(', ')}) and "state" = 'running' and "locked_by" = ? returning "id"`;
    return (await this.rows(this.knex, sql, [...ids, owner])).length;
  }

  async expireLeases(now: Date): Promise<number> {
    const sql = [
      `update "task_row" set "state" = case when "attempts" >= "max_attempts" then 'dead' else 'queued' end,`,
      `"finished_at" = case when "attempts" >= "max_attempts" then ${this.ts} else null end,`,
      `"last_error" = 'lease expired (the worker stopped or lost the database)', "lease_until" = null, "locked_by" = null`,
      `where "state" = 'running' and "lease_until" < ${this.ts} returning "id"`,
    ].join(' ');
    return (await this.rows(this.knex, sql, [this.encode(now), this.encode(now)])).length;
  }

  async deleteFinished(before: Date): Promise<number> {
    return (await this.rows(this.knex, `delete from "task_row" where "state" = 'succeeded' and "finished_at" < ${this.ts} returning "id"`, [this.encode(before)])).length;
  }

  async stats(): Promise<QueueStats> {
    const rows = await this.rows(this.knex, `select "queue", "state", count(*) as "n" from "task_row" group by "queue", "state"`, []);
    const queues: Record<string, Partial<Record<JobState, number>>> = {};
    let failures = 0;
    for (const r of rows) {
      const state = String(r['state']) as JobState;
      const n = Number(r['n']);
      (queues[String(r['queue'])] ??= {})[state] = n;
      if (state === 'failed' || state === 'dead') failures += n;
    }
    return { queues, failures };
  }

  async oldestDue(now: Date): Promise<Date | null> {
    const rows = await this.rows(this.knex, `select min("run_at") as "oldest" from "task_row" where "state" in ('queued', 'failed') and "run_at" <= ${this.ts}`, [this.encode(now)]);
    const raw = rows[0]?.['oldest'];
    return raw === null || raw === undefined ? null : decodeTime(raw);
  }

  async retry(id: number, now: Date): Promise<boolean> {
    const sql = [
      `update "task_row" set "state" = 'queued', "attempts" = 0, "run_at" = ${this.ts}, "finished_at" = null, "locked_by" = null`,
      `where "id" = ? and "state" = 'dead' and not exists (select 1 from "task_row" as "other" where "other"."unique_key" = "task_row"."unique_key" and "other"."state" in (${UNFINISHED})) returning "id"`,
    ].join(' ');
    return (await this.rows(this.knex, sql, [this.encode(now), id])).length > 0;
  }

  async get(id: number): Promise<Job | null> {
    const row = (await this.rows(this.knex, `select * from "task_row" where "id" = ?`, [id]))[0];
    return row ? this.decode(row) : null;
  }

  private async rows(db: Db, sql: string, bindings: readonly unknown[]): Promise<Raw[]> {
    const result: unknown = await db.raw(sql, bindings as Knex.RawBinding[]);
    if (Array.isArray(result)) return result as Raw[];
    return (result as { rows?: Raw[] } | undefined)?.rows ?? [];
  }

  /** SQLite stores timestamps as epoch milliseconds; PostgreSQL takes ISO 8601 text for timestamptz. */
  private encode(date: Date): number | string {
    return this.dialect === 'sqlite' ? date.getTime() : date.toISOString();
  }

  private decode(r: Raw): Job {
    const payload = r['payload'];
    const time = (v: unknown) => (v === null || v === undefined ? null : decodeTime(v));
    return {
      id: Number(r['id']),
      name: String(r['name']),
      queue: String(r['queue']),
      payload: typeof payload === 'string' && this.dialect === 'sqlite' ? JSON.parse(payload) : payload,
      state: String(r['state']) as JobState,
      priority: Number(r['priority']),
      attempts: Number(r['attempts']),
      maxAttempts: Number(r['max_attempts']),
      runAt: decodeTime(r['run_at']),
      leaseUntil: time(r['lease_until']),
      uniqueKey: r['unique_key'] === null ? null : String(r['unique_key']),
      lastError: r['last_error'] === null ? null : String(r['last_error']),
      createdAt: decodeTime(r['created_at']),
      finishedAt: time(r['finished_at']),
    };
  }
}

/** A stored time: epoch milliseconds (SQLite), a Date, or PostgreSQL's timestamptz text. */
function decodeTime(raw: unknown): Date {
  if (raw instanceof Date) return raw;
  if (typeof raw === 'number' || typeof raw === 'bigint') return new Date(Number(raw));
  const text = String(raw);
  return /^\d+$/.test(text) ? new Date(Number(text)) : parseTimestampText(text);
}
