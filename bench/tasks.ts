/**
 * Task-queue throughput on PostgreSQL: Portico's tasks() against pg-boss and graphile-worker, in
 * one process, one system at a time, each in a fresh schema dropped afterwards (issue 47).
 *
 * 1. drain: JOBS no-op jobs (default 20 000) loaded first through each system's bulk call, then
 *    one worker with 4 slots and a fetch batch of 50 runs them; jobs/s = jobs / wall time from the
 *    worker's start (the system's own start included) to the last job recorded done.
 *    - Portico: tasks({ concurrency: 4, batchSize: 50 }).
 *    - pg-boss: 4 × work(queue, { batchSize: 50, pollingIntervalSeconds: 0.5 }) (a work() call is
 *      one fetch loop; 4 calls are its 4 slots). A pg-boss worker waits out its polling interval
 *      after every fetch, even a full one (0.5 s is the least it takes), so it is also measured
 *      re-polling at once after a full batch (`notifyWorker(id)` from the handler): the rate of
 *      its SQL rather than of its timer.
 *    - graphile-worker: run({ concurrency: 4, preset: { worker: { localQueue: { size: 50 } } } }).
 * 2. enqueue: the time of one bulk call of JOBS jobs, nothing else (the jobs' array is built
 *    before): app.tasks.enqueueMany, pg-boss insert, graphile-worker addJobs. Each round in a
 *    fresh schema, after a warm-up call of 100 jobs; no system needs chunks. Median of rounds.
 * 3. legacy (BENCH_TASK_LEGACY=0 skips it): the earlier Portico / graphile-worker comparison with
 *    each system's defaults (no batch), 1 and 4 workers, `drain` and `live` (the jobs enqueued one
 *    by one by 4 concurrent producers while the worker runs; enqueue to succeeded).
 *
 * A job is counted done when its handler returned (an in-process counter, no polling of the
 * tables while the workers run), then confirmed through each system's public surface:
 * `app.tasks.stats()`, pg-boss `getQueueSize(name, { before: 'completed' })`, graphile-worker's
 * `jobs` view.
 *
 *   npm run bench:tasks
 *   (PORTICO_TEST_PG; BENCH_TASK_JOBS, BENCH_TASK_DRAIN_ROUNDS (1), BENCH_TASK_ENQUEUE_ROUNDS (3),
 *    BENCH_TASK_LEGACY_JOBS (5000), BENCH_TASK_ROUNDS (legacy rounds, 1), BENCH_TASK_LEGACY)
 *
 * Writes bench/results/tasks.{json,md}.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform } from 'node:os';
import { Logger, makeWorkerUtils, run, type RunnerOptions, type WorkerUtils } from 'graphile-worker';
import PgBoss from 'pg-boss';
import pg from 'pg';
import { cpuModelOf, type RunInfo } from './report.js';
import appOf, { noopHook } from './tasks-app.js';

const env = process.env;
const PG_URL = env.PORTICO_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const JOBS = Number(env.BENCH_TASK_JOBS ?? 20_000);
const SLOTS = 4;
const BATCH = 50;
const WARMUP_JOBS = 100;
const DRAIN_ROUNDS = Number(env.BENCH_TASK_DRAIN_ROUNDS ?? 1);
const ENQUEUE_ROUNDS = Number(env.BENCH_TASK_ENQUEUE_ROUNDS ?? 3);
const LEGACY = env.BENCH_TASK_LEGACY !== '0';
const LEGACY_JOBS = Number(env.BENCH_TASK_LEGACY_JOBS ?? 5000);
const LEGACY_ROUNDS = Number(env.BENCH_TASK_ROUNDS ?? 1);
const PRODUCERS = 4;
/** The least polling interval pg-boss accepts (its default is 2 s). */
const PGBOSS_POLL_SECONDS = 0.5;

/** The installed version of a package (dist/bench/tasks.js sits two levels under the root). */
const versionOf = (name: string): string => (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;
const PGBOSS = `pg-boss ${versionOf('pg-boss')}`;
const GRAPHILE = `graphile-worker ${versionOf('graphile-worker')}`;
const PORTICO = 'portico tasks()';

// ---------------------------------------------------------------------------------------------
// Helpers

let seq = 0;
const schemaOf = (system: string): string => `bench_${system}_${process.pid}_${seq++}`;
const urlOf = (schema: string): string => `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sql<T = Record<string, unknown>>(text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const dropSchema = (schema: string) => sql(`drop schema if exists "${schema}" cascade`);

/** Runs `body` with a fresh schema name, dropping the schema afterwards whatever happens. */
async function inSchema<T>(system: string, body: (schema: string) => Promise<T>): Promise<T> {
  const schema = schemaOf(system);
  await dropSchema(schema);
  try {
    return await body(schema);
  } finally {
    await dropSchema(schema);
  }
}

/** Counts handler runs in this process; `reached` resolves at the target. */
class Runs {
  private n = 0;
  private resolve: () => void = () => undefined;
  readonly reached: Promise<void>;

  constructor(private readonly target: number) {
    this.reached = new Promise((resolve) => (this.resolve = resolve));
    if (target <= 0) this.resolve();
  }

  add(k = 1): void {
    this.n += k;
    if (this.n >= this.target) this.resolve();
  }
}

/** Every handler returned, then polls the system's own record of the jobs until it says all done. */
async function settled(runs: Runs, confirm: () => Promise<boolean>): Promise<void> {
  await runs.reached;
  while (!(await confirm())) await sleep(5);
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const emptyPayloads = (n: number) => Array.from({ length: n }, () => ({}));

async function produce(jobs: number, enqueue: () => Promise<unknown>): Promise<void> {
  let left = jobs;
  await Promise.all(Array.from({ length: PRODUCERS }, async () => {
    while (left-- > 0) await enqueue();
  }));
}

// ---------------------------------------------------------------------------------------------
// Portico

/** A Portico app on `schema`: its worker on or off, the worker's concurrency and batch size. */
function portico(schema: string, worker: { slots: number; batch?: number } | false) {
  env.PORTICO_TASK_WORKER = worker ? '1' : '0';
  if (worker) env.TASKS_CONCURRENCY = String(worker.slots);
  if (worker && worker.batch) env.TASKS_BATCH_SIZE = String(worker.batch);
  else delete env.TASKS_BATCH_SIZE;
  return appOf(urlOf(schema));
}

async function porticoLoad(schema: string, jobs: number): Promise<void> {
  const loader = portico(schema, false);
  await loader.start();
  await loader.tasks.enqueueMany('noop', emptyPayloads(jobs));
  await loader.close();
}

async function porticoSucceeded(app: ReturnType<typeof appOf>, jobs: number): Promise<boolean> {
  return ((await app.tasks.stats()).queues['default']?.succeeded ?? 0) === jobs;
}

async function porticoDrain(jobs: number, slots: number, batch?: number): Promise<number> {
  return inSchema('portico', async (schema) => {
    await porticoLoad(schema, jobs);
    const runs = new Runs(jobs);
    noopHook.run = () => runs.add();
    const worker = portico(schema, { slots, ...(batch ? { batch } : {}) });
    const start = performance.now();
    await worker.start();
    await settled(runs, () => porticoSucceeded(worker, jobs));
    const s = seconds(start);
    await worker.close();
    return s;
  });
}

async function porticoLive(jobs: number, slots: number): Promise<number> {
  return inSchema('portico', async (schema) => {
    const runs = new Runs(jobs);
    noopHook.run = () => runs.add();
    const worker = portico(schema, { slots });
    await worker.start();
    const start = performance.now();
    await produce(jobs, () => worker.tasks.enqueue('noop', {}));
    await settled(runs, () => porticoSucceeded(worker, jobs));
    const s = seconds(start);
    await worker.close();
    return s;
  });
}

async function porticoEnqueue(jobs: number): Promise<number> {
  return inSchema('portico', async (schema) => {
    const app = portico(schema, false);
    await app.start();
    await app.tasks.enqueueMany('noop', emptyPayloads(WARMUP_JOBS));
    const payloads = emptyPayloads(jobs);
    const start = performance.now();
    const ids = await app.tasks.enqueueMany('noop', payloads);
    const s = seconds(start);
    if (ids.length !== jobs) throw new Error(`portico enqueueMany returned ${ids.length} ids for ${jobs} jobs`);
    await app.close();
    return s;
  });
}

// ---------------------------------------------------------------------------------------------
// pg-boss

const QUEUE = 'noop';

function boss(schema: string): PgBoss {
  const b = new PgBoss({ connectionString: PG_URL, schema });
  b.on('error', (err) => console.error('pg-boss:', err));
  return b;
}

const bossJobs = (n: number): PgBoss.JobInsert[] => Array.from({ length: n }, () => ({ name: QUEUE, data: {} }));

/**
 * 4 work() loops of batchSize 50 on a started pg-boss. `eager`: a handler given a full batch asks
 * its worker to fetch again at once (public `notifyWorker`) instead of waiting out the interval.
 */
async function bossDrain(jobs: number, eager: boolean): Promise<number> {
  return inSchema('pgboss', async (schema) => {
    const loader = boss(schema);
    await loader.start();
    await loader.createQueue(QUEUE);
    await loader.insert(bossJobs(jobs));
    await loader.stop();
    const runs = new Runs(jobs);
    const worker = boss(schema);
    const start = performance.now();
    await worker.start();
    for (let i = 0; i < SLOTS; i++) {
      let id = '';
      id = await worker.work(QUEUE, { batchSize: BATCH, pollingIntervalSeconds: PGBOSS_POLL_SECONDS }, async (batch) => {
        runs.add(batch.length);
        if (eager && batch.length === BATCH && id) worker.notifyWorker(id);
      });
    }
    await settled(runs, async () => (await worker.getQueueSize(QUEUE, { before: 'completed' })) === 0);
    const s = seconds(start);
    await worker.stop();
    return s;
  });
}

async function bossEnqueue(jobs: number): Promise<number> {
  return inSchema('pgboss', async (schema) => {
    const b = boss(schema);
    await b.start();
    await b.createQueue(QUEUE);
    await b.insert(bossJobs(WARMUP_JOBS));
    const rows = bossJobs(jobs);
    const start = performance.now();
    await b.insert(rows);
    const s = seconds(start);
    const queued = await b.getQueueSize(QUEUE);
    if (queued !== jobs + WARMUP_JOBS) throw new Error(`pg-boss holds ${queued} jobs after inserting ${jobs + WARMUP_JOBS}`);
    await b.stop();
    return s;
  });
}

// ---------------------------------------------------------------------------------------------
// graphile-worker

/** graphile-worker logs a line per job by default; Portico's worker logs none, so neither does the baseline. */
const quiet = new Logger(() => () => undefined);

const graphileSpecs = (n: number) => Array.from({ length: n }, () => ({ identifier: 'noop', payload: {}, maxAttempts: 1 }));

async function graphileUtils(schema: string): Promise<WorkerUtils> {
  const utils = await makeWorkerUtils({ connectionString: PG_URL, schema, logger: quiet });
  await utils.migrate();
  return utils;
}

/** Jobs not yet completed, from graphile-worker's `jobs` view (completed jobs are deleted). */
async function graphileLeft(utils: WorkerUtils, schema: string): Promise<number> {
  return utils.withPgClient(async (client) => Number((await client.query(`select count(*) as n from "${schema}".jobs`)).rows[0].n));
}

function graphileOptions(schema: string, slots: number, runs: Runs, batch?: number): RunnerOptions {
  return {
    connectionString: PG_URL,
    schema,
    concurrency: slots,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: { noop: async () => runs.add() },
    logger: quiet,
    ...(batch ? { preset: { worker: { localQueue: { size: batch } } } } : {}),
  };
}

async function graphileDrain(jobs: number, slots: number, batch?: number): Promise<number> {
  return inSchema('graphile', async (schema) => {
    const utils = await graphileUtils(schema);
    try {
      await utils.addJobs(graphileSpecs(jobs));
      const runs = new Runs(jobs);
      const start = performance.now();
      const runner = await run(graphileOptions(schema, slots, runs, batch));
      await settled(runs, async () => (await graphileLeft(utils, schema)) === 0);
      const s = seconds(start);
      await runner.stop();
      return s;
    } finally {
      await utils.release();
    }
  });
}

async function graphileLive(jobs: number, slots: number): Promise<number> {
  return inSchema('graphile', async (schema) => {
    const utils = await graphileUtils(schema);
    try {
      const runs = new Runs(jobs);
      const runner = await run(graphileOptions(schema, slots, runs));
      const start = performance.now();
      await produce(jobs, () => utils.addJob('noop', {}, { maxAttempts: 1 }));
      await settled(runs, async () => (await graphileLeft(utils, schema)) === 0);
      const s = seconds(start);
      await runner.stop();
      return s;
    } finally {
      await utils.release();
    }
  });
}

async function graphileEnqueue(jobs: number): Promise<number> {
  return inSchema('graphile', async (schema) => {
    const utils = await graphileUtils(schema);
    try {
      await utils.addJobs(graphileSpecs(WARMUP_JOBS));
      const specs = graphileSpecs(jobs);
      const start = performance.now();
      await utils.addJobs(specs);
      const s = seconds(start);
      const left = await graphileLeft(utils, schema);
      if (left !== jobs + WARMUP_JOBS) throw new Error(`graphile-worker holds ${left} jobs after adding ${jobs + WARMUP_JOBS}`);
      return s;
    } finally {
      await utils.release();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Scenarios

interface Measured {
  readonly system: string;
  readonly config: string;
  readonly jobs: number;
  /** Each round's seconds, in the order run. */
  readonly runs: readonly number[];
  /** The median round. */
  readonly seconds: number;
  readonly jobsPerSecond: number;
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

interface Contender {
  readonly key: string;
  readonly system: string;
  readonly config: string;
  readonly jobs: number;
  readonly once: () => Promise<number>;
}

/** `rounds` rounds of every contender; each round starts one further along the list, so none always goes first. */
async function rounds(contenders: readonly Contender[], n: number, label: string): Promise<Record<string, Measured>> {
  const times = new Map<string, number[]>(contenders.map((c) => [c.key, []]));
  for (let round = 0; round < n; round++) {
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(i + round) % contenders.length] as Contender;
      const s = await c.once();
      times.get(c.key)?.push(s);
      console.log(`  ${label} round ${round + 1}/${n}: ${c.system} (${c.config}) ${s.toFixed(3)} s, ${Math.round(c.jobs / s)} jobs/s`);
    }
  }
  return Object.fromEntries(
    contenders.map((c) => {
      const runs = times.get(c.key) ?? [];
      const s = median(runs);
      return [c.key, { system: c.system, config: c.config, jobs: c.jobs, runs, seconds: s, jobsPerSecond: c.jobs / s }];
    }),
  );
}

const began = performance.now();
const loadAtStart = loadavg()[0] ?? 0;
const [pgVersion] = await sql<{ v: string }>(`select current_setting('server_version') as v`);

console.log(`drain: ${JOBS} no-op jobs, ${SLOTS} slots, fetch batch ${BATCH}`);
const drain = await rounds(
  [
    { key: 'portico', system: PORTICO, config: `concurrency ${SLOTS}, batchSize ${BATCH}`, jobs: JOBS, once: () => porticoDrain(JOBS, SLOTS, BATCH) },
    { key: 'pgboss', system: PGBOSS, config: `${SLOTS} × work(), batchSize ${BATCH}, pollingIntervalSeconds ${PGBOSS_POLL_SECONDS}`, jobs: JOBS, once: () => bossDrain(JOBS, false) },
    { key: 'pgbossEager', system: PGBOSS, config: `as above, notifyWorker after a full batch`, jobs: JOBS, once: () => bossDrain(JOBS, true) },
    { key: 'graphile', system: GRAPHILE, config: `concurrency ${SLOTS}, localQueue.size ${BATCH}`, jobs: JOBS, once: () => graphileDrain(JOBS, SLOTS, BATCH) },
  ],
  DRAIN_ROUNDS,
  'drain',
);

console.log(`enqueue: one bulk call of ${JOBS} jobs`);
const enqueue = await rounds(
  [
    { key: 'portico', system: PORTICO, config: 'app.tasks.enqueueMany', jobs: JOBS, once: () => porticoEnqueue(JOBS) },
    { key: 'pgboss', system: PGBOSS, config: 'insert', jobs: JOBS, once: () => bossEnqueue(JOBS) },
    { key: 'graphile', system: GRAPHILE, config: 'addJobs', jobs: JOBS, once: () => graphileEnqueue(JOBS) },
  ],
  ENQUEUE_ROUNDS,
  'enqueue',
);

type Mode = 'drain' | 'live';
interface LegacyResult { readonly mode: Mode; readonly workers: number; readonly portico: Measured; readonly graphile: Measured; readonly ratio: number }
const legacy: LegacyResult[] = [];
if (LEGACY) {
  console.log(`legacy: ${LEGACY_JOBS} no-op jobs, each system's default batching`);
  for (const mode of ['drain', 'live'] as const) {
    for (const workers of [1, 4]) {
      const r = await rounds(
        [
          { key: 'portico', system: PORTICO, config: `concurrency ${workers}`, jobs: LEGACY_JOBS, once: () => (mode === 'drain' ? porticoDrain(LEGACY_JOBS, workers) : porticoLive(LEGACY_JOBS, workers)) },
          { key: 'graphile', system: GRAPHILE, config: `concurrency ${workers}`, jobs: LEGACY_JOBS, once: () => (mode === 'drain' ? graphileDrain(LEGACY_JOBS, workers) : graphileLive(LEGACY_JOBS, workers)) },
        ],
        LEGACY_ROUNDS,
        `${mode} ${workers}`,
      );
      const p = r['portico'] as Measured;
      const g = r['graphile'] as Measured;
      legacy.push({ mode, workers, portico: p, graphile: g, ratio: p.jobsPerSecond / g.jobsPerSecond });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const rate = (m: Record<string, Measured>, key: string) => (m[key] as Measured).jobsPerSecond;
interface Ratio { readonly name: string; readonly value: number; readonly goal?: number; readonly met?: boolean }
const ratio = (name: string, value: number, goal?: number): Ratio => (goal === undefined ? { name, value } : { name, value, goal, met: value >= goal });
const ratios: Ratio[] = [
  ratio('drain: Portico / pg-boss', rate(drain, 'portico') / rate(drain, 'pgboss'), 1.0),
  ratio('drain: Portico / pg-boss re-polling at once (notifyWorker)', rate(drain, 'portico') / rate(drain, 'pgbossEager')),
  ratio('drain: Portico / graphile-worker', rate(drain, 'portico') / rate(drain, 'graphile'), 1.5),
  ratio('enqueue: Portico enqueueMany / pg-boss insert', rate(enqueue, 'portico') / rate(enqueue, 'pgboss'), 0.8),
  ratio('enqueue: Portico enqueueMany / graphile-worker addJobs', rate(enqueue, 'portico') / rate(enqueue, 'graphile')),
];

const machine: Pick<RunInfo, 'date' | 'node' | 'cpus' | 'cpuModel' | 'platform'> & { readonly postgres: string; readonly loadAverage: readonly [number, number]; readonly wallSeconds: number } = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpuModelOf(),
  platform: `${platform()}-${arch()}`,
  postgres: `PostgreSQL ${pgVersion?.v ?? '?'}`,
  loadAverage: [loadAtStart, loadavg()[0] ?? 0],
  wallSeconds: seconds(began),
};
const machineLine = `Node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.platform}, ${machine.postgres} on 127.0.0.1, ${machine.date}; load average ${machine.loadAverage[0].toFixed(2)} at the start, ${machine.loadAverage[1].toFixed(2)} at the end; ${Math.round(machine.wallSeconds)} s in all`;

const roundsNote = (n: number) => (n === 1 ? '1 round' : `median of ${n} rounds; rounds rotate which system goes first`);
const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
const measuredRows = (m: Record<string, Measured>) => Object.values(m).map((r) => row([r.system, r.config, r.jobs, r.seconds.toFixed(3), Math.round(r.jobsPerSecond), r.runs.map((s) => s.toFixed(3)).join(', ')]));
const md = [
  '# Task queue throughput (PostgreSQL, no-op jobs)',
  '',
  machineLine,
  '',
  '## Ratios',
  '',
  row(['ratio', 'value', 'goal', '']),
  row(['---', '---:', '---:', '---']),
  ...ratios.map((r) => row([r.name, r.value.toFixed(2), r.goal === undefined ? '' : r.goal.toFixed(1), r.met === undefined ? '' : r.met ? 'met' : '**missed**'])),
  '',
  `## Drain: ${JOBS} jobs loaded first, ${SLOTS} slots, fetch batch ${BATCH} (${roundsNote(DRAIN_ROUNDS)})`,
  '',
  'Worker start (the system\'s own start included) to the last job recorded done. A pg-boss work() loop waits out its polling interval after every fetch, even a full one, so with a batch of 50 it runs at most 4 × 50 jobs per 0.5 s; the notifyWorker row takes that wait away.',
  '',
  row(['system', 'configuration', 'jobs', 'seconds', 'jobs/s', 'rounds (s)']),
  row(['---', '---', '---:', '---:', '---:', '---']),
  ...measuredRows(drain),
  '',
  `## Bulk enqueue: one call of ${JOBS} jobs (${roundsNote(ENQUEUE_ROUNDS)})`,
  '',
  `The call only, in a fresh schema, after a warm-up call of ${WARMUP_JOBS} jobs; no chunks (none of the three needs them).`,
  '',
  row(['system', 'call', 'jobs', 'seconds', 'jobs/s', 'rounds (s)']),
  row(['---', '---', '---:', '---:', '---:', '---']),
  ...measuredRows(enqueue),
  ...(LEGACY
    ? [
        '',
        `## Legacy: Portico and graphile-worker with their default batching, ${LEGACY_JOBS} jobs (${roundsNote(LEGACY_ROUNDS)})`,
        '',
        `drain: loaded first (bulk call), then drained; live: enqueued one by one by ${PRODUCERS} concurrent producers while the worker runs (enqueue to succeeded).`,
        '',
        row(['mode', 'workers', 'Portico jobs/s', 'graphile-worker jobs/s', 'Portico / graphile-worker']),
        row(['---', '---:', '---:', '---:', '---:']),
        ...legacy.map((r) => row([r.mode, r.workers, Math.round(r.portico.jobsPerSecond), Math.round(r.graphile.jobsPerSecond), r.ratio.toFixed(2)])),
      ]
    : []),
  '',
].join('\n');
console.log(`\n${md}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/tasks.json', `${JSON.stringify({ ...machine, jobs: JOBS, slots: SLOTS, batchSize: BATCH, pgBossPollingIntervalSeconds: PGBOSS_POLL_SECONDS, drainRounds: DRAIN_ROUNDS, enqueueRounds: ENQUEUE_ROUNDS, drain, enqueue, ratios, legacy: LEGACY ? { jobs: LEGACY_JOBS, rounds: LEGACY_ROUNDS, producers: PRODUCERS, results: legacy } : null }, null, 2)}\n`);
writeFileSync('bench/results/tasks.md', md);
process.exit(0);
