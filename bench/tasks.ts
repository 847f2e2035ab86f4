/**
 * Task-queue throughput on PostgreSQL: Portico's tasks() worker against graphile-worker, each
 * draining the same number of pre-loaded no-op jobs with 1 and with 4 concurrent workers in one
 * process. Jobs/s = jobs / wall time from the worker's start to the last job done (both poll
 * every second when idle; both wake on LISTEN/NOTIFY, unused here since the jobs are loaded first).
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

interface Result {
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

async function portico(workers: number): Promise<Result> {
  const schema = `bench_portico_${process.pid}_${workers}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
  process.env.PORTICO_TASK_WORKER = '0';
  const loader = appOf(url);
  await loader.start();
  const knex = loader.db.sql!.knex;
  const now = new Date().toISOString();
  const rows = Array.from({ length: JOBS }, () => ({ name: 'noop', queue: 'default', payload: '{}', state: 'queued', priority: 0, attempts: 0, max_attempts: 1, run_at: now, created_at: now }));
  await knex.batchInsert('task_row', rows, 1000);
  process.env.PORTICO_TASK_WORKER = '1';
  process.env.TASKS_CONCURRENCY = String(workers);
  const worker = appOf(url);
  const start = performance.now();
  await worker.start();
  await until(async () => Number(((await knex('task_row').where('state', 'succeeded').count({ n: '*' })) as { n: string }[])[0]?.n) === JOBS);
  const seconds = (performance.now() - start) / 1000;
  await worker.close();
  await loader.close();
  await dropSchema(schema);
  return { system: 'portico tasks()', workers, jobs: JOBS, seconds, jobsPerSecond: JOBS / seconds };
}

/** graphile-worker logs a line per job by default; Portico's worker logs none, so neither does the baseline. */
const quiet = new Logger(() => () => undefined);

async function graphile(workers: number): Promise<Result> {
  const schema = `bench_graphile_${process.pid}_${workers}`;
  const utils = await makeWorkerUtils({ connectionString: PG_URL, schema });
  await utils.migrate();
  for (let i = 0; i < JOBS; i += 1000) {
    await utils.addJobs(Array.from({ length: Math.min(1000, JOBS - i) }, () => ({ identifier: 'noop', payload: {}, maxAttempts: 1 })));
  }
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const start = performance.now();
  const runner = await run({ connectionString: PG_URL, schema, concurrency: workers, noHandleSignals: true, pollInterval: 1000, taskList: { noop: async () => undefined }, logger: quiet });
  await until(async () => Number((await client.query(`select count(*) as n from "${schema}"._private_jobs`)).rows[0].n) === 0);
  const seconds = (performance.now() - start) / 1000;
  await runner.stop();
  await client.end();
  await utils.release();
  await dropSchema(schema);
  return { system: 'graphile-worker 0.18.0', workers, jobs: JOBS, seconds, jobsPerSecond: JOBS / seconds };
}

const ROUNDS = Number(process.env.BENCH_TASK_ROUNDS ?? 3);

/** The median run of each system and worker count; rounds alternate which system goes first. */
async function measure(workers: number): Promise<Result[]> {
  const runs: { portico: Result[]; graphile: Result[] } = { portico: [], graphile: [] };
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) runs.portico.push(await portico(workers));
    runs.graphile.push(await graphile(workers));
    if (round % 2 === 1) runs.portico.push(await portico(workers));
  }
  const median = (rs: Result[]) => [...rs].sort((a, b) => a.jobsPerSecond - b.jobsPerSecond)[Math.floor(rs.length / 2)]!;
  return [median(runs.portico), median(runs.graphile)];
}

const results: Result[] = [];
for (const workers of [1, 4]) results.push(...(await measure(workers)));
const ratio = (workers: number) => {
  const [p, g] = results.filter((r) => r.workers === workers);
  return p && g ? p.jobsPerSecond / g.jobsPerSecond : NaN;
};
const table = [
  `Median of ${ROUNDS} rounds each (rounds alternate which system runs first); ${JOBS} no-op jobs per run.`,
  '',
  '| system | workers | jobs | seconds | jobs/s | Portico / graphile-worker |',
  '|---|---|---|---|---|---|',
  ...results.map((r) => `| ${r.system} | ${r.workers} | ${r.jobs} | ${r.seconds.toFixed(2)} | ${Math.round(r.jobsPerSecond)} | ${r.system.startsWith('portico') ? ratio(r.workers).toFixed(2) : ''} |`),
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/tasks.json', `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, results, ratios: { workers1: ratio(1), workers4: ratio(4) } }, null, 2)}\n`);
writeFileSync('bench/results/tasks.md', `# Task queue throughput (PostgreSQL, no-op jobs)\n\n${table}\n`);
process.exit(0);
