import { c, createApp, defineModel, tasks, type PorticoApp } from '../src/index.js';

/** One row per run of a `ledger` job: which job, in which process (a job run twice shows twice). */
export const taskLedger = defineModel('task_ledger', { id: c.id(), job_id: c.int(), pid: c.int() });

/** Called on each run of task `noop` (the bench counts runs in the process, without reading the table). */
export const noopHook: { run: () => void } = { run: () => undefined };

/**
 * The app of the task-queue bench and crash test (`portico worker --app dist/bench/tasks-app.js`):
 * task `ledger` writes a ledger row through the store, then waits `payload.ms`; task `noop` does
 * nothing but call {@link noopHook}. `TASKS_CONCURRENCY` (default 4), `TASKS_LEASE_MS` (default 30 s) and `TASKS_BATCH_SIZE`
 * (default: the free slots) tune the worker.
 */
export default function app(database: string): PorticoApp {
  const env = process.env;
  return createApp({ database, models: [taskLedger], autoMigrate: true, logRequests: false }).use(
    tasks({ concurrency: Number(env.TASKS_CONCURRENCY ?? 4), leaseMs: Number(env.TASKS_LEASE_MS ?? 30_000), ...(env.TASKS_BATCH_SIZE ? { batchSize: Number(env.TASKS_BATCH_SIZE) } : {}) })
      .define<{ ms?: number }>('ledger', async ({ ms }, ctx) => {
        await ctx.store.insert('task_ledger', { job_id: ctx.job.id, pid: process.pid });
        if (ms) await new Promise((resolve) => setTimeout(resolve, ms));
      }, { retries: 5, backoff: { baseMs: 100 } })
      .define('noop', () => noopHook.run()),
  );
}
