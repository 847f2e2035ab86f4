import type { Knex } from '@mikro-orm/knex';
import { parseTimestampText } from '../../../domain/model/values.js';
import { UNFINISHED_STATES, type JobState } from '../../../domain/tasks/task-policy.js';
import type { RecordStore } from '../../../ports/record-store.js';
import type { Claimed, Enqueued, JobFilter, Job, NewJob, QueueStats, TaskQueue } from '../../../ports/task-queue.js';
import { SqlExecutor } from './sql-executor.js';
import { RecordService } from '../../../application/records/record-service.js';
import { SqlTableStore } from './sql-table-store.js';

type Raw = Record<string, unknown>;

const UNFINISHED = UNFINISHED_STATES.map((s) => `'${s}'`).join(', ');

/**
 * TaskQueue on the `task_row` table (migration `portico_0004_task_queue`) of SQLite or
 * PostgreSQL. Every state change is one statement, run through the store's executor (on
 * PostgreSQL a named prepared statement, planned once per connection):
 * - a claim is `update … where id in (select … limit n) returning *`; on PostgreSQL the inner
 *   select takes `for update skip locked`, so concurrent claimers pass over each other's rows;
 *   on SQLite the statement runs under the database's single write lock (busy_timeout set), which
 *   makes it atomic across processes;
 * - a worker's completions, failure, renewal and release only touch rows it still holds
 *   (`state = 'running' and locked_by = owner`; a completion also finds its own success again), so a worker whose lease ran out cannot
 *   overwrite the next holder's outcome;
 * - on PostgreSQL, completions ride on the next claim (one statement with two `update`s in a
 *   `with`): one round trip and one commit per job instead of two.
 * Lists of ids are one bound value (an array on PostgreSQL, JSON on SQLite), so each statement
 * has one text whatever the list's length. Time comes from the caller (the app's Clock).
 */
export class SqlTaskQueue implements TaskQueue {
  private readonly sql: SqlExecutor;
  private readonly ts: string;
  private readonly ids: string;
  private readonly statements: Statements;

  constructor(
    knex: Knex,
    private readonly dialect: 'sqlite' | 'postgresql',
  ) {
    this.sql = new SqlExecutor(knex, dialect);
    this.ts = dialect === 'postgresql' ? '?::timestamptz' : '?';
    this.ids = dialect === 'postgresql' ? '= any(?::int[])' : 'in (select "value" from json_each(?))';
    this.statements = statements(dialect, this.ts, this.ids);
  }

  /** The executor of `tx` (the caller's transaction), or this queue's own. */
  private executorOf(tx: RecordStore | undefined): SqlExecutor {
    const sql = tx ? (tx instanceof RecordService && tx.tables instanceof SqlTableStore ? tx.tables.executor : undefined) : this.sql;
    if (!sql) throw new Error('tasks: enqueue({ tx }) needs a transaction of the SQL store (store.transaction(tx => …))');
    return sql;
  }

  /** One `insert … select` over a JSON array of the jobs, whatever their number: one statement, one bound value. */
  async enqueueMany(jobs: readonly NewJob[], tx?: RecordStore): Promise<number[]> {
    if (jobs.length === 0) return [];
    const sql = this.executorOf(tx);
    const rows = JSON.stringify(jobs.map((j) => ({ n: j.name, q: j.queue, p: JSON.stringify(j.payload ?? null), pr: j.priority, m: j.maxAttempts, r: j.runAt.getTime(), c: j.createdAt.getTime() })));
    const columns = `insert into "task_row" ("name", "queue", "payload", "state", "priority", "attempts", "max_attempts", "run_at", "created_at")`;
    const text =
      this.dialect === 'postgresql'
        ? `${columns} select j->>'n', j->>'q', (j->>'p')::jsonb, 'queued', (j->>'pr')::int, 0, (j->>'m')::int, to_timestamp((j->>'r')::float8 / 1000), to_timestamp((j->>'c')::float8 / 1000) from jsonb_array_elements(?::jsonb) with ordinality as t(j, i) order by i returning "id"`
        : `${columns} select json_extract(value, '$.n'), json_extract(value, '$.q'), json_extract(value, '$.p'), 'queued', json_extract(value, '$.pr'), 0, json_extract(value, '$.m'), json_extract(value, '$.r'), json_extract(value, '$.c') from json_each(?) order by key returning "id"`;
    return (await sql.query(text, [rows])).map((r) => Number(r['id'])).sort((a, b) => a - b);
  }

  async enqueue(job: NewJob, tx?: RecordStore): Promise<Enqueued> {
    const sql = this.executorOf(tx);
    const values = [job.name, job.queue, JSON.stringify(job.payload ?? null), job.priority, job.maxAttempts, this.encode(job.runAt), job.uniqueKey ?? null, this.encode(job.createdAt)];
    const inserted = job.uniqueEver ? await sql.query(this.statements.enqueueOnce, [...values, job.uniqueKey ?? null]) : await sql.query(this.statements.enqueue, values);
    if (inserted[0]) return { id: Number(inserted[0]['id']), created: true };
    const existing = await sql.query(`select "id" from "task_row" where "unique_key" = ? order by "state" in (${UNFINISHED}) desc, "id" desc limit 1`, [job.uniqueKey ?? null]);
    if (!existing[0]) throw new Error(`tasks: the job ${job.name} was neither written nor found by its unique key`);
    return { id: Number(existing[0]['id']), created: false };
  }

  async claim(queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Job[]> {
    return this.sortJobs(await this.sql.query(this.statements.claim, this.claimValues(queue, limit, owner, now, leaseUntil)));
  }

  async completeAndClaim(done: readonly number[], queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): Promise<Claimed> {
    if (done.length === 0) return { completed: [], jobs: await this.claim(queue, limit, owner, now, leaseUntil) };
    if (this.dialect === 'sqlite') {
      // No `update` inside `with` on SQLite: two statements (a local file, no round trip to save).
      const completed = await this.complete(done, owner, now);
      return { completed, jobs: await this.claim(queue, limit, owner, now, leaseUntil) };
    }
    const rows = await this.sql.query(this.statements.completeAndClaim, [this.encode(now), [...done], owner, ...this.claimValues(queue, limit, owner, now, leaseUntil)]);
    const completed = ((rows[0]?.['completed'] ?? []) as unknown[]).map(Number);
    return { completed, jobs: this.sortJobs(rows.filter((r) => r['id'] !== null)) };
  }

  async renew(ids: readonly number[], owner: string, leaseUntil: Date): Promise<number[]> {
    if (ids.length === 0) return [];
    return this.idsOf(await this.sql.query(`update "task_row" set "lease_until" = ${this.ts} where "id" ${this.ids} and "state" = 'running' and "locked_by" = ? returning "id"`, [this.encode(leaseUntil), this.idList(ids), owner]));
  }

  async complete(ids: readonly number[], owner: string, now: Date): Promise<number[]> {
    if (ids.length === 0) return [];
    return this.idsOf(await this.sql.query(this.statements.complete, [this.encode(now), this.idList(ids), owner]));
  }

  async fail(id: number, owner: string, error: string, retryAt: Date | null, now: Date): Promise<boolean> {
    const sql = retryAt
      ? `update "task_row" set "state" = 'failed', "run_at" = ${this.ts}, "last_error" = ?, "lease_until" = null, "locked_by" = null where "id" = ? and "state" = 'running' and "locked_by" = ? returning "id"`
      : `update "task_row" set "state" = 'dead', "finished_at" = ${this.ts}, "last_error" = ?, "lease_until" = null where "id" = ? and "state" = 'running' and "locked_by" = ? returning "id"`;
    return (await this.sql.query(sql, [this.encode(retryAt ?? now), error, id, owner])).length > 0;
  }

  async release(ids: readonly number[], owner: string): Promise<number> {
    if (ids.length === 0) return 0;
    const sql = `update "task_row" set "state" = 'queued', "attempts" = "attempts" - 1, "lease_until" = null, "locked_by" = null where "id" ${this.ids} and "state" = 'running' and "locked_by" = ? returning "id"`;
    return (await this.sql.query(sql, [this.idList(ids), owner])).length;
  }

  async expireLeases(now: Date): Promise<number> {
    const sql = [
      `update "task_row" set "state" = case when "attempts" >= "max_attempts" then 'dead' else 'queued' end,`,
      `"finished_at" = case when "attempts" >= "max_attempts" then ${this.ts} else null end,`,
      `"last_error" = 'lease expired (the worker stopped or lost the database)', "lease_until" = null, "locked_by" = null`,
      `where "state" = 'running' and "lease_until" < ${this.ts} returning "id"`,
    ].join(' ');
    return (await this.sql.query(sql, [this.encode(now), this.encode(now)])).length;
  }

  async deleteFinished(before: Date): Promise<number> {
    return (await this.sql.query(`delete from "task_row" where "state" = 'succeeded' and "finished_at" < ${this.ts} returning "id"`, [this.encode(before)])).length;
  }

  async databaseTime(): Promise<Date> {
    const sql =
      this.dialect === 'postgresql'
        ? 'select (extract(epoch from clock_timestamp()) * 1000)::float8 as "ms"'
        : `select (julianday('now') - 2440587.5) * 86400000.0 as "ms"`;
    const [row] = await this.sql.query(sql, []);
    return new Date(Math.round(Number(row?.['ms'])));
  }

  async stats(): Promise<QueueStats> {
    const rows = await this.sql.query(`select "queue", "state", count(*) as "n" from "task_row" group by "queue", "state"`, []);
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
    const rows = await this.sql.query(`select min("run_at") as "oldest" from "task_row" where "state" in ('queued', 'failed') and "run_at" <= ${this.ts}`, [this.encode(now)]);
    const raw = rows[0]?.['oldest'];
    return raw === null || raw === undefined ? null : decodeTime(raw);
  }

  async retry(id: number, now: Date): Promise<boolean> {
    const sql = [
      `update "task_row" set "state" = 'queued', "attempts" = 0, "run_at" = ${this.ts}, "finished_at" = null, "locked_by" = null`,
      `where "id" = ? and "state" = 'dead' and not exists (select 1 from "task_row" as "other" where "other"."unique_key" = "task_row"."unique_key" and "other"."state" in (${UNFINISHED})) returning "id"`,
    ].join(' ');
    return (await this.sql.query(sql, [this.encode(now), id])).length > 0;
  }

  async list(filter: JobFilter): Promise<Job[]> {
    const where: string[] = [];
    const values: unknown[] = [];
    for (const [column, value] of [['state', filter.state], ['queue', filter.queue]] as const) {
      if (value === undefined) continue;
      where.push(`"${column}" = ?`);
      values.push(value);
    }
    const rows = await this.sql.query(`select * from "task_row"${where.length ? ` where ${where.join(' and ')}` : ''} order by "id" desc limit ? offset ?`, [...values, filter.limit, filter.offset ?? 0]);
    return rows.map((row) => this.decode(row));
  }

  async progress(id: number, owner: string, value: number): Promise<boolean> {
    return (await this.sql.query(`update "task_row" set "progress" = ? where "id" = ? and "state" = 'running' and "locked_by" = ? returning "id"`, [value, id, owner])).length > 0;
  }

  async cancel(id: number, now: Date): Promise<boolean> {
    const sql = `update "task_row" set "state" = 'dead', "last_error" = 'cancelled', "finished_at" = ${this.ts}, "locked_by" = null, "lease_until" = null where "id" = ? and "state" in ('queued', 'failed') returning "id"`;
    return (await this.sql.query(sql, [this.encode(now), id])).length > 0;
  }

  async get(id: number): Promise<Job | null> {
    const row = (await this.sql.query(`select * from "task_row" where "id" = ?`, [id]))[0];
    return row ? this.decode(row) : null;
  }

  private claimValues(queue: string, limit: number, owner: string, now: Date, leaseUntil: Date): unknown[] {
    return [this.encode(leaseUntil), owner, queue, this.encode(now), limit];
  }

  /** Claimed rows in the order they are to run (an `update … returning` keeps no order). */
  private sortJobs(rows: readonly Raw[]): Job[] {
    return rows.map((r) => this.decode(r)).sort((a, b) => b.priority - a.priority || a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
  }

  private idsOf(rows: readonly Raw[]): number[] {
    return rows.map((r) => Number(r['id']));
  }

  /** A list of ids as one bound value: an array for `= any(?)` on PostgreSQL, JSON for `json_each(?)` on SQLite. */
  private idList(ids: readonly number[]): unknown {
    return this.dialect === 'postgresql' ? [...ids] : JSON.stringify(ids);
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
      uniqueKey: r['unique_key'] === null || r['unique_key'] === undefined ? null : String(r['unique_key']),
      lastError: r['last_error'] === null || r['last_error'] === undefined ? null : String(r['last_error']),
      createdAt: decodeTime(r['created_at']),
      finishedAt: time(r['finished_at']),
      progress: r['progress'] === null || r['progress'] === undefined ? null : Number(r['progress']),
    };
  }
}

interface Statements {
  readonly enqueue: string;
  readonly enqueueOnce: string;
  readonly claim: string;
  readonly complete: string;
  readonly completeAndClaim: string;
}

/** The texts the worker repeats, built once per dialect. */
function statements(dialect: 'sqlite' | 'postgresql', ts: string, ids: string): Statements {
  const json = dialect === 'postgresql' ? '?::jsonb' : '?';
  const columns = `insert into "task_row" ("name", "queue", "payload", "state", "priority", "attempts", "max_attempts", "run_at", "unique_key", "created_at")`;
  const values = `?, ?, ${json}, 'queued', ?, 0, ?, ${ts}, ?, ${ts}`;
  const lock = dialect === 'postgresql' ? ' for update skip locked' : '';
  const claim = [
    `update "task_row" set "state" = 'running', "attempts" = "attempts" + 1, "progress" = null, "lease_until" = ${ts}, "locked_by" = ?`,
    `where "id" in (select "id" from "task_row" where "queue" = ? and "state" in ('queued', 'failed') and "run_at" <= ${ts}`,
    `order by "priority" desc, "run_at", "id" limit ?${lock}) returning *`,
  ].join(' ');
  // Idempotent for its owner (a success written again, after a failed claim on SQLite, keeps its first finish time).
  const complete = `update "task_row" set "state" = 'succeeded', "finished_at" = coalesce("finished_at", ${ts}), "lease_until" = null where "id" ${ids} and "state" in ('running', 'succeeded') and "locked_by" = ? returning "id"`;
  return {
    enqueue: `${columns} values (${values}) on conflict do nothing returning "id"`,
    // `where not exists` (any state) makes a periodic slot run once even when its job already finished.
    enqueueOnce: `${columns} select ${values} where not exists (select 1 from "task_row" where "unique_key" = ?) on conflict do nothing returning "id"`,
    claim,
    complete,
    // PostgreSQL only: both updates in one statement, so one commit. At least one row comes back
    // (the completed ids on each; a row with a null id when nothing was claimed).
    completeAndClaim: [
      `with "done" as (${complete}), "claimed" as (${claim})`,
      `select "claimed".*, "d"."completed" from (select coalesce(array_agg("id"), '{}') as "completed" from "done") as "d" left join "claimed" on true`,
    ].join(' '),
  };
}

/** A stored time: epoch milliseconds (SQLite), a Date, or PostgreSQL's timestamptz text. */
function decodeTime(raw: unknown): Date {
  if (raw instanceof Date) return raw;
  if (typeof raw === 'number' || typeof raw === 'bigint') return new Date(Number(raw));
  const text = String(raw);
  return /^\d+$/.test(text) ? new Date(Number(text)) : parseTimestampText(text);
}
