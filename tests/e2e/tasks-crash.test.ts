import { afterAll, describe, expect, it } from 'vitest';
import appOf from '../../bench/tasks-app.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startNode, stop } from '../support/spawn-node.js';

const pg = await postgresAvailable();
const JOBS = 10_000;

/**
 * 10 000 jobs on PostgreSQL, two `portico worker` processes with 4 workers each; one is SIGKILLed
 * mid-run. Every job must succeed, and the ledger (one row per run, written by the job through
 * the store) may show a job twice only if it was running in the killed process.
 */
describe.skipIf(!pg)('task workers on PostgreSQL survive a SIGKILL', () => {
  const schema = freshPgSchema();
  afterAll(() => schema.drop());

  it('all 10 000 jobs succeed; only jobs running at the kill run twice, at most', { timeout: 180_000 }, async () => {
    process.env.PORTICO_TASK_WORKER = '0';
    const app = appOf(schema.url);
    try {
      await app.start();
    } finally {
      delete process.env.PORTICO_TASK_WORKER;
    }
    const knex = app.db.sql!.knex;
    try {
      const now = new Date().toISOString();
      const rows = Array.from({ length: JOBS }, () => ({ name: 'ledger', queue: 'default', payload: JSON.stringify({ ms: 2 }), state: 'queued', priority: 0, attempts: 0, max_attempts: 6, run_at: now, created_at: now }));
      await knex.batchInsert('task_row', rows, 1000);
      const env = { TASKS_CONCURRENCY: '4', TASKS_LEASE_MS: '3000' };
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
      expect(twice.length).toBeLessThanOrEqual(4);
      for (const r of twice) {
        const pids = ((await knex('task_ledger').where('job_id', r.job_id).select('pid')) as { pid: number }[]).map((x) => x.pid);
        expect(pids).toContain(killedPid);
      }
    } finally {
      await app.close();
    }
  });
});
