import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { MAIL_TASK, type MailJob } from '../../application/mail/mail-queue.js';
import { PeriodicTasks } from '../../application/tasks/periodic-tasks.js';
import { defineTask, type TaskDefinition, type TaskHandler, type TaskOptions } from '../../application/tasks/task-definition.js';
import { TaskWorker } from '../../application/tasks/task-worker.js';
import { Tasks, TASKS_TOPIC } from '../../application/tasks/tasks.js';
import { cronSlots } from '../../adapters/tasks/cron-slots.js';
import { PgTaskWakeup } from '../../adapters/events/pg-task-wakeup.js';
import { SqlTaskQueue } from '../../adapters/persistence/sql/sql-task-queue.js';
import { StoreTaskQueue } from '../../adapters/tasks/store-task-queue.js';
import type { TaskQueue } from '../../ports/task-queue.js';
import type { Clock } from '../../ports/clock.js';
import { systemClock } from '../../adapters/system/system-clock.js';
import { DatabaseClock } from '../../application/tasks/database-clock.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface TasksOptions {
  /**
   * Run jobs in this process, started with the app and stopped by `close()` (default: true
   * unless NODE_ENV is production). `PORTICO_TASK_WORKER=1` or `0` overrides it (`portico worker` sets 1).
   */
  readonly worker?: boolean;
  /** Jobs run at once per queue: one number for every queue, or per queue name (default 4). */
  readonly concurrency?: number | Readonly<Record<string, number>>;
  /**
   * Jobs one claim may take per queue (default: the free slots). Above the concurrency the rest
   * wait leased in the worker and start as slots free: one round trip per batch of short jobs.
   */
  readonly batchSize?: number;
  /** How long a claim holds a job before another worker may take it; renewed while it runs (default 30 s). */
  readonly leaseMs?: number;
  /** The fallback poll for new jobs (default 1 s; on PostgreSQL a LISTEN/NOTIFY wake-up is usually first). */
  readonly pollMs?: number;
  /** How long `close()` lets running jobs finish before releasing them (default: close's grace). */
  readonly graceMs?: number;
  /** How long succeeded jobs are kept (default 7 days); dead ones are kept until retried or deleted. */
  readonly retentionMs?: number;
  /** Readiness check `tasks` fails when the oldest due job has waited longer than this (default off). */
  readonly maxQueueDelayMs?: number;
}

/**
 * Background tasks on the app's SQL database (docs/tasks.md): define tasks, enqueue jobs (on a
 * transaction when given one), run them in-process or in `portico worker` processes, retry with
 * backoff, run periodic tasks once per cron slot.
 *
 * @example
 * const jobs = tasks().define('send_welcome', async ({ userId }, ctx) => { … }, { retries: 5 });
 * app.use(jobs);
 * await app.store.transaction((tx) => app.tasks.enqueueIn(tx, 'send_welcome', { userId: 1 }));
 *
 * @example
 * // Typed by the payload: enqueue by the definition and the payload is checked.
 * const sendWelcome = defineTask('send_welcome', async ({ userId }: { userId: number }, ctx) => { … }, { retries: 5 });
 * app.use(tasks().define(sendWelcome));
 * await app.tasks.enqueue(sendWelcome, { userId: 1 });
 */
export class TasksPlugin implements Plugin {
  readonly name = 'tasks';
  private readonly definitions = new Map<string, TaskDefinition>();

  constructor(private readonly options: TasksOptions = {}) {}

  /** Defines a task (before the app starts); a `cron` option also makes it periodic. */
  define<P = unknown>(name: string, handler: TaskHandler<P>, options?: TaskOptions): this;
  /** Registers a task made by `defineTask` (then enqueued by it: `app.tasks.enqueue(definition, payload)`). */
  define(definition: TaskDefinition): this;
  define(task: string | TaskDefinition, handler?: TaskHandler, options: TaskOptions = {}): this {
    const name = typeof task === 'string' ? task : task.name;
    if (this.definitions.has(name)) throw new Error(`tasks: ${name} is defined twice`);
    // A definition is checked again: one may be written by hand rather than by defineTask.
    const def = typeof task === 'string' ? defineTask(task, handler as TaskHandler, options) : defineTask(task.name, task.handler, optionsOf(task));
    if (def.cron !== undefined) cronSlots(def.cron);
    this.definitions.set(name, def);
    return this;
  }

  async install(ctx: PluginContext): Promise<void> {
    // Portico's own mail (verification codes, …) is a job of this queue, retried with backoff
    // while the mail server is down: 8 retries from 2 s, about eight minutes in all.
    if (!this.definitions.has(MAIL_TASK)) this.define<MailJob>(MAIL_TASK, (job) => ctx.get(TOKENS.MailQueue).deliver(job), { retries: 8, backoff: { baseMs: 2_000 } });
    const sql = ctx.get(TOKENS.Database).sql;
    // memory: keeps its jobs in the in-memory store (one process, gone at exit).
    const queue: TaskQueue = sql ? new SqlTaskQueue(sql.knex, sql.dialect) : new StoreTaskQueue(ctx.store);
    const origin = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    const clock = await this.clock(ctx, queue, sql !== undefined);
    const client = new Tasks({ queue, clock, events: ctx.events, definitions: this.definitions, queues: this.queues(), origin });
    ctx.bind(TOKENS.Tasks, client);
    this.readiness(ctx, queue, clock);
    if (!this.workerOn(ctx)) return;
    const worker = this.worker(ctx, queue, origin, clock);
    const config = ctx.get(TOKENS.DatabaseConfig);
    const wakeup = sql && config.kind === 'sql' && config.dialect === 'postgresql' ? new PgTaskWakeup(config.url, sql.knex, () => worker.wake(), config.schema) : undefined;
    const unsubscribe = ctx.events.subscribe(TASKS_TOPIC, (payload) => {
      worker.wake();
      const p = payload as { origin?: string; queue?: string; runAt?: number } | undefined;
      if (typeof p?.runAt === 'number') worker.wakeAt(new Date(p.runAt));
      if (wakeup && p?.origin === origin) void wakeup.notify(p.queue ?? '').catch((err: unknown) => ctx.logger.warn({ err }, 'tasks: NOTIFY failed'));
    });
    const periodic = new PeriodicTasks(
      [...this.definitions.values()].flatMap((d) => (d.cron === undefined ? [] : [{ name: d.name, ...cronSlots(d.cron) }])),
      client,
      clock,
      ctx.logger,
    );
    await wakeup?.start();
    worker.start();
    void worker.warnUnserved().catch((err: unknown) => ctx.logger.warn({ err }, 'tasks: could not read the queues'));
    periodic.start();
    ctx.onClose(async (graceMs) => {
      periodic.stop();
      unsubscribe();
      await worker.stop(this.options.graceMs ?? graceMs);
      await wakeup?.close();
    });
  }

  /** The queues workers serve: those of the defined tasks and those given a concurrency. */
  private queues(): Set<string> {
    const queues = new Set([...this.definitions.values()].map((d) => d.queue));
    const given = this.options.concurrency;
    if (typeof given === 'object') for (const name of Object.keys(given)) queues.add(name);
    return queues;
  }

  private workerOn(ctx: PluginContext): boolean {
    const env = process.env.PORTICO_TASK_WORKER;
    if (env === '1' || env === '0') return env === '1';
    return this.options.worker ?? !ctx.production;
  }

  /**
   * The clock of leases, delays and cron slots: the database's on SQL (so every worker reads one
   * clock), unless the app was given a clock of its own (tests move theirs).
   */
  private async clock(ctx: PluginContext, queue: TaskQueue, onSql: boolean): Promise<Clock> {
    if (!onSql || ctx.clock !== systemClock) return ctx.clock;
    const clock = new DatabaseClock(() => queue.databaseTime(), ctx.clock, ctx.logger);
    await clock.start();
    ctx.onClose(async () => clock.stop());
    return clock;
  }

  private worker(ctx: PluginContext, queue: TaskQueue, origin: string, clock: Clock): TaskWorker {
    const given = this.options.concurrency;
    const concurrency = new Map([...this.queues()].map((name) => [name, typeof given === 'number' ? given : (given?.[name] ?? 4)] as const));
    const { leaseMs, pollMs, retentionMs, batchSize } = this.options;
    if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize >= 1 && batchSize <= 1000)) throw new Error(`tasks: batchSize must be an integer from 1 to 1000 (got ${String(batchSize)})`);
    return new TaskWorker({
      queue,
      clock,
      logger: ctx.logger,
      definitions: this.definitions,
      concurrency,
      owner: origin,
      context: (job, signal) => ({
        store: ctx.store,
        mailer: ctx.mailer,
        templates: ctx.templates,
        events: ctx.events,
        logger: ctx.logger,
        attempt: job.attempts,
        signal,
        job: { id: job.id, name: job.name, queue: job.queue },
      }),
      ...(leaseMs !== undefined ? { leaseMs } : {}),
      ...(pollMs !== undefined ? { pollMs } : {}),
      ...(retentionMs !== undefined ? { retentionMs } : {}),
      ...(batchSize !== undefined ? { batchSize } : {}),
    });
  }

  private readiness(ctx: PluginContext, queue: TaskQueue, clock: Clock): void {
    const limit = this.options.maxQueueDelayMs;
    if (limit === undefined) return;
    ctx.addHealthCheck('tasks', async () => {
      const now = clock.now();
      const oldest = await queue.oldestDue(now);
      const waited = oldest ? now.getTime() - oldest.getTime() : 0;
      return waited > limit ? { status: 'fail', reason: `the oldest due job has waited ${Math.round(waited / 1000)} s` } : { status: 'ok' };
    });
  }
}

/** The options a definition was resolved from. */
const optionsOf = (def: TaskDefinition): TaskOptions => ({
  retries: def.retries,
  backoff: def.backoff,
  timeout: def.timeoutMs,
  queue: def.queue,
  priority: def.priority,
  ...(def.cron !== undefined ? { cron: def.cron } : {}),
});

/** The task queue plugin; define tasks on it with `.define(name, handler, options)` or `.define(defineTask(…))`. */
export function tasks(options: TasksOptions = {}): TasksPlugin {
  return new TasksPlugin(options);
}
