import { afterAll, describe, expect, it } from 'vitest';
import appOf from '../../bench/tasks-app.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startNode, stop } from '../support/spawn-node.js';
import { startWithoutWorker } from '../support/without-worker.js';

const pg = await postgresAvailable();

/**
 * Issue 47: leases and delays are read on the database's clock. A `portico worker` whose own
 * clock runs 40 s ahead (tests/support/skewed-date.mjs) works beside one with a true clock: it
 * takes over neither the job the other is running (lease 30 s) nor runs a job delayed by 30 s.
 */
describe.skipIf(!pg)('task workers with a skewed clock, on PostgreSQL', () => {
  const schema = freshPgSchema();
  afterAll(() => schema.drop());

  it('a worker 40 s ahead neither steals a running job nor runs a delayed one early', { timeout: 90_000 }, async () => {
    const app = await startWithoutWorker(() => appOf(schema.url));
    const knex = app.db.sql!.knex;
    const args = ['bin/portico.js', 'worker', '--app', 'dist/bench/tasks-app.js', '--db', schema.url];
    const env = { TASKS_CONCURRENCY: '1' };
    const honest = await startNode(args, /portico worker: running/, 30_000, env);
    let skewed: Awaited<ReturnType<typeof startNode>> | undefined;
    try {
      const { id: running } = await app.tasks.enqueue('ledger', { ms: 8000 });
      const ledger = async (id: number) => (await knex('task_ledger').where('job_id', id).select('pid')) as { pid: number }[];
      while ((await ledger(running)).length === 0) await new Promise((r) => setTimeout(r, 50));
      const { id: delayed } = await app.tasks.enqueue('ledger', {}, { delay: 30_000 });
      skewed = await startNode(['--import', './tests/support/skewed-date.mjs', ...args], /portico worker: running/, 30_000, { ...env, CLOCK_SKEW_MS: '40000' });
      // The skewed worker sweeps leases and claims (every second) while the honest one runs the job to its end.
      expect((await app.tasks.get(running))?.state).toBe('running');
      while ((await app.tasks.get(running))?.state !== 'succeeded') await new Promise((r) => setTimeout(r, 100));
      expect((await ledger(running)).map((r) => r.pid)).toEqual([honest.child.pid]);
      expect(await app.tasks.get(running)).toMatchObject({ state: 'succeeded', attempts: 1 });
      expect(await app.tasks.get(delayed)).toMatchObject({ state: 'queued', attempts: 0 });
      expect(await ledger(delayed)).toEqual([]);
    } finally {
      if (skewed) await stop(skewed.child);
      await stop(honest.child);
      await app.close();
    }
  });
});
