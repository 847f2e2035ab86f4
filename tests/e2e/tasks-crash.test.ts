import { afterAll, describe, expect, it } from 'vitest';
import appOf from '../../bench/tasks-app.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startNode, stop } from '../support/spawn-node.js';
import { startWithoutWorker } from '../support/without-worker.js';

const pg = await postgresAvailable();
const JOBS = 10_000;

/**
 * 10 000 jobs on PostgreSQL, two `portico worker` processes with 4 workers each, claiming batches
 * of 50; one is SIGKILLed mid-run. Every job must succeed (none lost), and the ledger (one row per
 * run, written by the job through the store) may show a job twice only if the killed process ran
 * it.
 */
describe.skipIf(!pg)('task workers on PostgreSQL survive a SIGKILL', () => {
  const schema = freshPgSchema();
  afterAll(() => schema.drop());

  it('all 10 000 jobs succeed; only jobs the killed worker held run twice, at most', { timeout: 180_000 }, async () => {
    const app = await startWithoutWorker(() => appOf(schema.url));
    const knex = app.db.sql!.knex;
    try {
      const now = new Date().toISOString();
      const rows = Array.from({ length: JOBS }, () => ({ name: 'ledger', queue: 'default', payload: JSON.stringify({ ms: 2 }), state: 'queued', priority: 0, attempts: 0, max_attempts: 6, run_at: now, created_at: now }));
      await knex.batchInsert('task_row', rows, 1000);
      // Claims take batches of 50 (46 wait leased in the worker): the killed worker's batch comes back too.
      const env = { TASKS_CONCURRENCY: '4', TASKS_LEASE_MS: '3000', TASKS_BATCH_SIZE: '50' };
      const args = ['bin/portico.js', 'worker', '--app', 'dist/bench/tasks-app.js', '--db', schema.url];
      const a = await startNode(args, /portico worker: running/, 30_000, env);
      const b = await startNode(args, /portico worker: running/, 30_000, env);
      const succeeded = async () => Number(((await knex('task_row').where('state', 'succeeded').count({ n: '*' })) as { n: string }[])[0]?.n);
      while ((await succeeded()) < JOBS / 4) await new Promise((r) => setTimeout(r, 50));
      a.child.kill('SIGKILL');
      const killedPid = a.child.pid;
      const deadline = Date.now() + 150_000;
      while ((await succeeded()) < JOBS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await stop(b.child)).toBe(0);
      expect(await succeeded()).toBe(JOBS);
      const runs = (await knex('task_ledger').select('job_id').count({ n: '*' }).groupBy('job_id')) as { job_id: number; n: string }[];
      expect(runs).toHaveLength(JOBS);
      const twice = runs.filter((r) => Number(r.n) > 1);
      expect(twice.every((r) => Number(r.n) === 2)).toBe(true);
      // At least once: a job runs again only if the killed worker held it, running or finished with
      // its success not yet written; that is at most one batch (50), never a job it did not hold.
      expect(twice.length).toBeLessThanOrEqual(50);
      for (const r of twice) {
        const pids = ((await knex('task_ledger').where('job_id', r.job_id).select('pid')) as { pid: number }[]).map((x) => x.pid);
        expect(pids).toContain(killedPid);
      }
    } finally {
      await app.close();
    }
  });
});
