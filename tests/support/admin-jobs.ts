import type { JobState, PorticoApp } from '../../src/index.js';
import { startReference, type RunningReference } from './reference-server.js';

/**
 * The reference app for the admin's jobs page, with a task `report` (queue `reports`, 2 retries)
 * and no worker in this process: a job stays in the state a test puts it in (a retried job is not
 * run, so it can be seen queued).
 */
export async function startJobsReference(backend: 'sqlite' | 'postgresql'): Promise<RunningReference> {
  process.env.PORTICO_TASK_WORKER = '0';
  try {
    return await startReference(backend, { env: { THROTTLE: 'off' }, defineTasks: (plugin) => plugin.define('report', () => undefined, { queue: 'reports', retries: 2 }) });
  } finally {
    delete process.env.PORTICO_TASK_WORKER;
  }
}

/** What a seeded job looks like after its attempts, as a worker would have left it. */
export interface JobOutcome {
  readonly state: JobState;
  readonly attempts?: number;
  readonly lastError?: string | null;
  readonly runAt?: Date;
  readonly progress?: number | null;
}

/**
 * Enqueues a `report` job through `app.tasks`, then writes the outcome a worker would have
 * written (state, attempts, last error, next run, progress) straight into `task_row`.
 */
export async function seedJob(app: PorticoApp, outcome: JobOutcome): Promise<number> {
  const { id } = await app.tasks.enqueue('report', { seeded: outcome.state });
  const finished = outcome.state === 'dead' || outcome.state === 'succeeded';
  await app.store.update('task_row', id, {
    state: outcome.state,
    attempts: outcome.attempts ?? 0,
    last_error: outcome.lastError ?? null,
    progress: outcome.progress ?? null,
    finished_at: finished ? new Date() : null,
    ...(outcome.runAt ? { run_at: outcome.runAt } : {}),
    ...(outcome.state === 'running' ? { locked_by: 'elsewhere', lease_until: new Date(Date.now() + 3_600_000) } : {}),
  });
  return id;
}
