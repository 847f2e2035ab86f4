/**
 * `npm run bench`: measures Portico against a hand-written Koa + MikroORM baseline in one
 * run. A fresh SQLite file is migrated and seeded by the Portico server, then for each
 * scenario the baseline and the Portico server each run alone in a child process while
 * autocannon loads them. Prints a table and writes `bench/results/latest.{json,md}`; exits 1
 * when any request failed or answered an unexpected body.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';
import { CONNECTIONS, DURATION_SECONDS, measure, WARMUP_SECONDS, type Measurement } from './measure.js';
import { consoleTable, jsonReport, markdownTable, type RunInfo, type ScenarioResult } from './report.js';

interface Scenario {
  readonly name: string;
  readonly porticoPath: string;
  readonly baselinePath: string;
  /** Checks one response body before the load; returns a problem, or undefined. */
  readonly check: (body: unknown) => string | undefined;
}

const READY_BODY = JSON.stringify({ status: 'ok', checks: { database: { status: 'ok' } } });

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'GET /ready',
    porticoPath: '/ready',
    baselinePath: '/ready',
    check: (body) => (JSON.stringify(body) === READY_BODY ? undefined : `expected ${READY_BODY}`),
  },
  {
    name: 'GET author by id',
    porticoPath: '/bench/author/1',
    baselinePath: '/author/1',
    check: (body) => ((body as { id?: unknown } | null)?.id === 1 ? undefined : 'expected the author row with id 1'),
  },
];

const PORTICO_SERVER = fileURLToPath(new URL('./portico-server.js', import.meta.url));
const BASELINE_SERVER = fileURLToPath(new URL('./baseline-server.js', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
const TMP_DIR = `${BENCH_DIR}.tmp/`;
const RESULTS_DIR = `${BENCH_DIR}results/`;
const DB_FILE = `${TMP_DIR}bench.db`;

async function withServer<T>(script: string, use: (server: ChildServer) => Promise<T>): Promise<T> {
  const server = await startChildServer(script, DB_FILE);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** Fetches `url` once and throws unless it answers 200 with the body the scenario expects. */
async function checkOnce(label: string, url: string, scenario: Scenario): Promise<unknown> {
  const response = await fetch(url);
  const body: unknown = await response.json();
  const problem = response.status === 200 ? scenario.check(body) : `status ${response.status}`;
  if (problem) throw new Error(`${label}: unexpected response ${JSON.stringify(body)} (${problem})`);
  return body;
}

/**
 * One request first (a fast wrong answer measures nothing), then the load, then one more
 * request: it queues behind whatever the load left in flight on the single SQLite
 * connection, so the server is idle when it is stopped.
 */
async function checkAndMeasure(label: string, url: string, scenario: Scenario): Promise<{ measurement: Measurement; body: unknown }> {
  const body = await checkOnce(label, url, scenario);
  process.stderr.write(`  ${label} …\n`);
  const measurement = await measure(label, url);
  await checkOnce(`${label} (after the load)`, url, scenario);
  return { measurement, body };
}

async function main(): Promise<void> {
  const info: RunInfo = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    platform: `${process.platform}-${process.arch}`,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: DURATION_SECONDS,
  };
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });

  process.stderr.write('Preparing the database (Portico migrates and seeds it) …\n');
  await withServer(PORTICO_SERVER, async () => undefined);

  const results: ScenarioResult[] = [];
  for (const scenario of SCENARIOS) {
    process.stderr.write(`${scenario.name}\n`);
    const baseline = await withServer(BASELINE_SERVER, (s) => checkAndMeasure(`baseline ${scenario.name}`, `${s.url}${scenario.baselinePath}`, scenario));
    const portico = await withServer(PORTICO_SERVER, (s) => checkAndMeasure(`portico ${scenario.name}`, `${s.url}${scenario.porticoPath}`, scenario));
    if (JSON.stringify(baseline.body) !== JSON.stringify(portico.body)) {
      process.stderr.write(`  note: bodies differ\n    baseline: ${JSON.stringify(baseline.body)}\n    portico:  ${JSON.stringify(portico.body)}\n`);
    }
    results.push({
      name: scenario.name,
      porticoPath: scenario.porticoPath,
      baselinePath: scenario.baselinePath,
      baseline: baseline.measurement,
      portico: portico.measurement,
      ratio: portico.measurement.requestsPerSecond / baseline.measurement.requestsPerSecond,
    });
  }

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}latest.json`, jsonReport(info, results));
  writeFileSync(`${RESULTS_DIR}latest.md`, markdownTable(info, results));
  console.log(`\n${consoleTable(info, results)}\n\nWrote bench/results/latest.json and bench/results/latest.md`);
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
