/**
 * Task-queue throughput on PostgreSQL: Portico's tasks() worker against graphile-worker, with 1
 * and with 4 concurrent workers in one process, in two modes: `drain` (the jobs are loaded first;
 * jobs/s = jobs / wall time from the worker's start to the last job done) and `live` (the worker
 * runs while concurrent producers enqueue the jobs one by one through each system's API;
 * jobs/s = jobs / wall time from the first enqueue to the last job done). Both wake on
 * LISTEN/NOTIFY and poll every second when idle.
 *
 *   npm run build && node dist/bench/tasks.js     (BENCH_TASK_JOBS, default 5000; PORTICO_TEST_PG)
 *
 * Writes bench/results/tasks.{json,md}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Logger, run, makeWorkerUtils } from 'graphile-worker';
import pg from 'pg';
import appOf from './tasks-app.js';

const PG_URL = process.env.PORTICO_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const JOBS = Number(process.env.BENCH_TASK_JOBS ?? 5000);

/**
 * `drain`: the jobs are loaded first (one multi-row insert per 1000), then the worker starts.
 * `live`: the worker runs while PRODUCERS concurrent loops enqueue the jobs one by one through
 * each system's own API (`app.tasks.enqueue`, `addJob`): enqueue to succeeded, end to end.
 */
type Mode = 'drain' | 'live';
const PRODUCERS = 4;

/** Runs `enqueue` JOBS times from PRODUCERS concurrent loops. */
async function produce(enqueue: () => Promise<unknown>): Promise<void> {
  let left = JOBS;
  await Promise.all(Array.from({ length: PRODUCERS }, async () => {
    while (left-- > 0) await enqueue();
  }));
}

interface Result {
  readonly mode: Mode;
  readonly system: string;
  readonly workers: number;
  readonly jobs: number;
  readonly seconds: number;
  readonly jobsPerSecond: number;
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 20));
}

async function portico(workers: number, mode: Mode): Promise<Result> {
  const schema = `bench_portico_${process.pid}_${workers}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
  process.env.PORTICO_TASK_WORKER = '0';
  const loader = appOf(url);
  await loader.start();
  const knex = loader.db.sql!.knex;
  const now = new Date().toISOString();
  const rows = Array.from({ length: JOBS }, () => ({ name: 'noop', queue: 'default', payload: '{}', state: 'queued', priority: 0, attempts: 0, max_attempts: 1, run_at: now, created_at: now }));
  if (mode === 'drain') await knex.batchInsert('task_row', rows, 1000);
  process.env.PORTICO_TASK_WORKER = '1';
  process.env.TASKS_CONCURRENCY = String(workers);
  const worker = appOf(url);
  if (mode === 'live') await worker.start();
  const start = performance.now();
  if (mode === 'drain') await worker.start();
  else await produce(() => worker.tasks.enqueue('noop', {}));
  await until(async () => Number(((await knex('task_row').where('state', 'succeeded').count({ n: '*' })) as { n: string }[])[0]?.n) === JOBS);
  const seconds = (performance.now() - start) / 1000;
  await worker.close();
  await loader.close();
  await dropSchema(schema);
  return { mode, system: 'portico tasks()', workers, jobs: JOBS, seconds, jobsPerSecond: JOBS / seconds };
}

/** graphile-worker logs a line per job by default; Portico's worker logs none, so neither does the baseline. */
const quiet = new Logger(() => () => undefined);

async function graphile(workers: number, mode: Mode): Promise<Result> {
  const schema = `bench_graphile_${process.pid}_${workers}`;
  const utils = await makeWorkerUtils({ connectionString: PG_URL, schema });
  await utils.migrate();
  for (let i = 0; mode === 'drain' && i < JOBS; i += 1000) {
    await utils.addJobs(Array.from({ length: Math.min(1000, JOBS - i) }, () => ({ identifier: 'noop', payload: {}, maxAttempts: 1 })));
  }
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const options = { connectionString: PG_URL, schema, concurrency: workers, noHandleSignals: true, pollInterval: 1000, taskList: { noop: async () => undefined }, logger: quiet };
  const live = mode === 'live' ? await run(options) : undefined;
  const start = performance.now();
  const runner = live ?? (await run(options));
  if (live) await produce(() => utils.addJob('noop', {}, { maxAttempts: 1 }));
  await until(async () => Number((await client.query(`select count(*) as n from "${schema}"._private_jobs`)).rows[0].n) === 0);
  const seconds = (performance.now() - start) / 1000;
  await runner.stop();
  await client.end();
  await utils.release();
  await dropSchema(schema);
  return { mode, system: 'graphile-worker 0.18.0', workers, jobs: JOBS, seconds, jobsPerSecond: JOBS / seconds };
}

const ROUNDS = Number(process.env.BENCH_TASK_ROUNDS ?? 3);

/** The median run of each system and worker count; rounds alternate which system goes first. */
async function measure(workers: number, mode: Mode): Promise<Result[]> {
  const runs: { portico: Result[]; graphile: Result[] } = { portico: [], graphile: [] };
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) runs.portico.push(await portico(workers, mode));
    runs.graphile.push(await graphile(workers, mode));
    if (round % 2 === 1) runs.portico.push(await portico(workers, mode));
  }
  const median = (rs: Result[]) => [...rs].sort((a, b) => a.jobsPerSecond - b.jobsPerSecond)[Math.floor(rs.length / 2)]!;
  return [median(runs.portico), median(runs.graphile)];
}

const MODES: readonly Mode[] = ['drain', 'live'];
const results: Result[] = [];
for (const mode of MODES) for (const workers of [1, 4]) results.push(...(await measure(workers, mode)));
const ratio = (mode: Mode, workers: number) => {
  const [p, g] = results.filter((r) => r.mode === mode && r.workers === workers);
  return p && g ? p.jobsPerSecond / g.jobsPerSecond : NaN;
};
const table = [
  `Median of ${ROUNDS} rounds each (rounds alternate which system runs first); ${JOBS} no-op jobs per run.`,
  `drain: loaded first, then drained; live: enqueued one by one by ${PRODUCERS} concurrent producers while the worker runs (enqueue to succeeded).`,
  '',
  '| mode | system | workers | jobs | seconds | jobs/s | Portico / graphile-worker |',
  '|---|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.mode} | ${r.system} | ${r.workers} | ${r.jobs} | ${r.seconds.toFixed(2)} | ${Math.round(r.jobsPerSecond)} | ${r.system.startsWith('portico') ? ratio(r.mode, r.workers).toFixed(2) : ''} |`),
].join('\n');
console.log(table);
const ratios = Object.fromEntries(MODES.flatMap((mode) => [1, 4].map((w) => [`${mode}${w}`, ratio(mode, w)])));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/tasks.json', `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, producers: PRODUCERS, results, ratios }, null, 2)}\n`);
writeFileSync('bench/results/tasks.md', `# Task queue throughput (PostgreSQL, no-op jobs)\n\n${table}\n`);
process.exit(0);
