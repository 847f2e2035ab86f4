/**
 * `npm run bench`: measures Portico against a hand-written Koa + MikroORM baseline in one
 * run. A fresh SQLite file is migrated and seeded by the Portico server (plus 200 comments for
 * the list scenario), then for each scenario the baseline and the Portico server each run alone
 * in a child process while autocannon loads them. Prints a table and writes
 * `bench/results/latest.{json,md}`; exits 1 when any request failed, answered an unexpected
 * status or body, or when the two sides answered differently. Then, in this process, the
 * GraphQL validation section (`graphql-validation.ts`): a fragment fan-out validated by
 * graphql-js and by Portico's pipeline, with its own table.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';
import { measureGraphqlValidation, validationConsoleTable, validationMarkdown, type GraphqlValidationReport } from './graphql-validation.js';
import { CONNECTIONS, DURATION_SECONDS, measure, WARMUP_SECONDS, type Measurement } from './measure.js';
import { consoleTable, cpuModelOf, jsonReport, markdownTable, type RunInfo, type ScenarioResult } from './report.js';

type Body = Record<string, unknown>;

interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly porticoPath: string;
  readonly baselinePath: string;
  /** The request body (JSON text) and headers every request of the scenario sends. */
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The status every response must have (any non-2xx during the load fails the run anyway). */
  readonly status: number;
  /** Checks one response body before and after the load; returns a problem, or undefined. */
  readonly check: (body: unknown) => string | undefined;
  /**
   * The part of a body both sides must answer identically (default: all of it); drops what
   * legitimately differs, such as the path inside page links or the id of a new row.
   */
  readonly comparable?: (body: Body) => unknown;
}

const READY_BODY = JSON.stringify({ status: 'ok', checks: { database: { status: 'ok' } } });
const AUTHOR_1 = { id: 1, name: 'Ada Lovelace', bio: 'First programmer', email: 'ada@example.com' };
const AUTHOR_KEYS = ['bio', 'email', 'id', 'name'];
const JSON_HEADERS = { 'content-type': 'application/json' };
/** Comments in the list table: 2 from the reference seed + 200 the setup run inserts (BENCH_SEED=1). */
const MIN_COMMENTS = 202;

/** JSON with object keys sorted: key order is not part of an answer's meaning. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

const asBody = (body: unknown): Body => (typeof body === 'object' && body !== null ? (body as Body) : {});
/** A page link without origin and path: `?limit=50&offset=50`. */
const linkQuery = (link: unknown): unknown => (typeof link === 'string' ? new URL(link).search : link);

function checkList(body: unknown): string | undefined {
  const { count, next, previous, results } = asBody(body);
  if (typeof count !== 'number' || count < MIN_COMMENTS) return `expected count >= ${MIN_COMMENTS}`;
  if (!Array.isArray(results) || results.length !== 50) return 'expected 50 results';
  if (asBody(results[0]).id !== 1) return 'expected the page to start at comment 1';
  if (results.some((row) => 'moderation_note' in asBody(row))) return 'moderation_note must be hidden';
  if (typeof next !== 'string' || linkQuery(next) !== '?limit=50&offset=50') return 'expected a next link to offset 50';
  return previous === null ? undefined : 'expected no previous link';
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'GET /ready',
    method: 'GET',
    porticoPath: '/ready',
    baselinePath: '/ready',
    status: 200,
    check: (body) => (JSON.stringify(body) === READY_BODY ? undefined : `expected ${READY_BODY}`),
  },
  {
    name: 'GET author by id',
    method: 'GET',
    porticoPath: '/bench/author/1',
    baselinePath: '/author/1',
    status: 200,
    check: (body) => (canonical(body) === canonical(AUTHOR_1) ? undefined : `expected ${canonical(AUTHOR_1)}`),
  },
  {
    name: 'GET detail',
    method: 'GET',
    porticoPath: '/api/author/1',
    baselinePath: '/author/1',
    status: 200,
    check: (body) => (canonical(body) === canonical(AUTHOR_1) ? undefined : `expected ${canonical(AUTHOR_1)}`),
  },
  {
    name: 'GET list of 50',
    method: 'GET',
    porticoPath: '/api/comment/?limit=50',
    baselinePath: '/comment?limit=50',
    status: 200,
    check: checkList,
    comparable: (body) => ({ ...body, next: linkQuery(body.next), previous: linkQuery(body.previous) }),
  },
  {
    name: 'POST create',
    method: 'POST',
    porticoPath: '/api/author/',
    baselinePath: '/author',
    body: JSON.stringify({ name: 'Bench' }),
    headers: JSON_HEADERS,
    status: 201,
    check: (body) => {
      const row = asBody(body);
      if (canonical(Object.keys(row).sort()) !== canonical(AUTHOR_KEYS)) return `expected the keys ${AUTHOR_KEYS.join(', ')}`;
      return typeof row.id === 'number' && row.name === 'Bench' ? undefined : 'expected the new author named Bench';
    },
    comparable: ({ id: _id, ...rest }) => rest,
  },
];

const PORTICO_SERVER = fileURLToPath(new URL('./portico-server.js', import.meta.url));
const BASELINE_SERVER = fileURLToPath(new URL('./baseline-server.js', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
const TMP_DIR = `${BENCH_DIR}.tmp/`;
const RESULTS_DIR = `${BENCH_DIR}results/`;
const DB_FILE = `${TMP_DIR}bench.db`;
/** A configured secret, as in production (without one Portico warns and makes one up). */
const PORTICO_ENV = { PORTICO_SECRET: randomBytes(32).toString('base64url') };

async function withServer<T>(script: string, use: (server: ChildServer) => Promise<T>, env: Readonly<Record<string, string>> = {}): Promise<T> {
  const server = await startChildServer(script, DB_FILE, env);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/** Sends the scenario's request once and throws unless the status and body are the expected ones. */
async function checkOnce(label: string, url: string, scenario: Scenario): Promise<Body> {
  const response = await fetch(url, {
    method: scenario.method,
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
    ...(scenario.headers ? { headers: scenario.headers } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${label}: status ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  const problem = response.status === scenario.status ? scenario.check(body) : `status ${response.status}, expected ${scenario.status}`;
  if (problem) throw new Error(`${label}: unexpected response ${JSON.stringify(body).slice(0, 500)} (${problem})`);
  return asBody(body);
}

/** Throws unless both sides answered the same thing (up to key order and what the scenario lets differ). */
function assertEquivalent(scenario: Scenario, baseline: Body, portico: Body): void {
  const comparable = scenario.comparable ?? ((body: Body) => body);
  const b = canonical(comparable(baseline));
  const p = canonical(comparable(portico));
  if (b !== p) throw new Error(`${scenario.name}: the two sides answer differently\n  baseline: ${b.slice(0, 500)}\n  portico:  ${p.slice(0, 500)}`);
}

/**
 * One request first (a fast wrong answer measures nothing; `before` may compare it with the
 * other side's), then the load, then one more request: it queues behind whatever the load left
 * in flight on the single SQLite connection, so the server is idle when it is stopped.
 */
async function checkAndMeasure(
  label: string,
  url: string,
  scenario: Scenario,
  before: (body: Body) => void = () => undefined,
): Promise<{ measurement: Measurement; body: Body }> {
  const body = await checkOnce(label, url, scenario);
  before(body);
  process.stderr.write(`  ${label} …\n`);
  const measurement = await measure(label, url, {
    method: scenario.method,
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
    ...(scenario.headers ? { headers: scenario.headers } : {}),
  });
  await checkOnce(`${label} (after the load)`, url, scenario);
  return { measurement, body };
}

/** The name BENCH_ONLY matches to select the in-process GraphQL validation section. */
const VALIDATION_SECTION = 'GraphQL validation';

/** BENCH_ONLY=<text> keeps the scenarios (and the validation section) whose name contains it. */
function selection(): { scenarios: readonly Scenario[]; validation: boolean } {
  const only = process.env.BENCH_ONLY;
  if (!only) return { scenarios: SCENARIOS, validation: true };
  const scenarios = SCENARIOS.filter((s) => s.name.includes(only));
  const validation = VALIDATION_SECTION.includes(only);
  if (scenarios.length === 0 && !validation) {
    throw new Error(`BENCH_ONLY=${only} matches no scenario (${[...SCENARIOS.map((s) => s.name), VALIDATION_SECTION].join(', ')})`);
  }
  return { scenarios, validation };
}

async function main(): Promise<void> {
  const info: RunInfo = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpuModelOf(),
    platform: `${process.platform}-${process.arch}`,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: DURATION_SECONDS,
  };
  const selected = selection();
  rmSync(TMP_DIR, { recursive: true, force: true });
  mkdirSync(TMP_DIR, { recursive: true });

  if (selected.scenarios.length > 0) {
    process.stderr.write('Preparing the database (Portico migrates and seeds it, plus 200 comments) …\n');
    await withServer(PORTICO_SERVER, async () => undefined, { ...PORTICO_ENV, BENCH_SEED: '1' });
  }

  const results: ScenarioResult[] = [];
  for (const scenario of selected.scenarios) {
    process.stderr.write(`${scenario.name}\n`);
    const baseline = await withServer(BASELINE_SERVER, (s) => checkAndMeasure(`baseline ${scenario.name}`, `${s.url}${scenario.baselinePath}`, scenario));
    const portico = await withServer(PORTICO_SERVER, (s) =>
      checkAndMeasure(`portico ${scenario.name}`, `${s.url}${scenario.porticoPath}`, scenario, (body) => assertEquivalent(scenario, baseline.body, body)),
      PORTICO_ENV,
    );
    results.push({
      name: scenario.name,
      method: scenario.method,
      porticoPath: scenario.porticoPath,
      baselinePath: scenario.baselinePath,
      baseline: baseline.measurement,
      portico: portico.measurement,
      ratio: portico.measurement.requestsPerSecond / baseline.measurement.requestsPerSecond,
    });
  }

  // After the HTTP scenarios, when no child server or load generator shares the CPU.
  let validation: GraphqlValidationReport | undefined;
  if (selected.validation) {
    process.stderr.write(`${VALIDATION_SECTION} (in this process) …\n`);
    validation = await measureGraphqlValidation();
  }

  mkdirSync(RESULTS_DIR, { recursive: true });
  const json = validation ? `${JSON.stringify({ ...(JSON.parse(jsonReport(info, results)) as object), graphqlValidation: validation }, null, 2)}\n` : jsonReport(info, results);
  writeFileSync(`${RESULTS_DIR}latest.json`, json);
  writeFileSync(`${RESULTS_DIR}latest.md`, [markdownTable(info, results), ...(validation ? [validationMarkdown(validation)] : [])].join('\n'));
  const sections = [...(results.length > 0 || !validation ? [consoleTable(info, results)] : []), ...(validation ? [validationConsoleTable(validation)] : [])];
  console.log(`\n${sections.join('\n\n')}\n\nWrote bench/results/latest.json and bench/results/latest.md`);
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
