/**
 * `npm run build && node dist/bench/hot-path/run.js`: the request hot path of
 * Portico against hand-written servers doing the same database work (issue "Performance: the
 * request hot path close to a hand-written server").
 *
 * Order: SQLite (the cold start first, on a quiet machine, then its HTTP scenarios), then
 * PostgreSQL, bulk and login. Each HTTP scenario runs BENCH_ROUNDS rounds on fresh servers, each
 * round alternating the sides' windows, one side's BENCH_ALTERNATIONS windows each between two of the
 * other's (the bracketing side alternating),
 * and reports the median round and each round's ratio.
 *
 * 1. PostgreSQL: a fresh schema, migrated and seeded by the Portico reference app, plus 10,000
 *    posts and 50,000 comments (raw multi-row inserts); alice logs in for a bearer token. For each
 *    scenario the raw server (`raw-pg-server.ts`: Koa + @koa/router + `pg`, named prepared
 *    statements) and then Portico (`portico-server.ts`) each run alone in a child process while
 *    autocannon loads them (16 connections, 8 s warm-up, then the measured window). One response
 *    of each side is checked before and after the load and the two are compared (canonical JSON;
 *    ids and timestamps of created rows and the origin of page links aside).
 * 2. SQLite: the same on a fresh file for the post detail and list (`raw-sqlite-server.ts`).
 * 3. Bulk create of 1,000 tags (PostgreSQL): sequential requests with fresh ids, median time.
 * 4. JSON login throughput against the raw argon2id verify rate with the same parameters:
 *    BENCH_LOGIN_ROUNDS rounds, each a window of Portico's login and one of the hand-written
 *    server's (`raw-pg-server.ts`, the same work), each server warmed BENCH_LOGIN_WARMUP_SECONDS
 *    and each window between two raw verify windows (see LOGIN_WARMUP_SECONDS).
 * 5. Cold start of the reference app (`dist/examples/reference/main.js`) on the existing SQLite
 *    file: spawn → first 200 from `/ready`, and its RSS after 2 s idle (median of 5 starts, after
 *    one uncounted start and 2 s of quiet).
 *
 * Prints the tables with the machine line and writes `bench/results/hot-path.{json,md}`. Exits 1
 * when a request failed or the two sides answered differently (after printing everything).
 *
 * Environment: BENCH_ROUNDS (rounds per HTTP scenario, default 3), BENCH_ALTERNATIONS (windows of the bracketed side per round, default 2), BENCH_DURATION_SECONDS (measured window, default 3), BENCH_WARMUP_SECONDS
 * (default 8: see WARMUP_SECONDS), BENCH_LOGIN_WARMUP_SECONDS (default 20) and BENCH_LOGIN_ROUNDS (default 5), BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), HOT_PATH_ONLY
 * (comma-separated sections: postgresql, sqlite, bulk, login, cold), HOT_PATH_SCENARIOS (comma-separated parts of HTTP scenario names: only those run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Argon2 from '@node-rs/argon2';
import autocannon from 'autocannon';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { startChildServer, type ChildServer } from '../child-server.js';
import type { Measurement } from '../measure.js';
import { cpuModelOf, type RunInfo } from '../report.js';
import { COMMENTS, POSTS, SEED_CHUNK, seedPostgres } from './seed-postgres.js';

// The raw verify loop loads @node-rs/argon2 as Portico does, in the same environment (the
// allocator reads MIMALLOC_PURGE_DELAY from it): the same hash, the same way.
const { verify } = createRequire(import.meta.url)('@node-rs/argon2') as typeof Argon2;

// ---------------------------------------------------------------------------------------------
// Settings

function seconds(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1 || value > 60) throw new Error(`${name} must be a number of seconds between 1 and 60`);
  return value;
}

const DURATION_SECONDS = seconds('BENCH_DURATION_SECONDS', 3);
/**
 * Load before the measured window (BENCH_WARMUP_SECONDS, default 8): both servers' CPU per
 * request keeps falling for 6-10 s after their start (the JIT's tiers, the young generation's
 * growth), so a shorter warm-up measures compilation rather than the request path. Seconds
 * EARLY_SKIP_SECONDS to EARLY_SKIP_SECONDS + DURATION_SECONDS of it (the window measured before
 * the 27th, after a 1 s warm-up) are reported beside, as the early ratio.
 */
const WARMUP_SECONDS = seconds('BENCH_WARMUP_SECONDS', 8);
const EARLY_SKIP_SECONDS = 1;
/** Rounds of each HTTP scenario (BENCH_ROUNDS, default 3): medians are reported. */
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)) || 3);
/**
 * Measured windows of the bracketed side in each round (BENCH_ALTERNATIONS, default 2), each
 * between two of the bracketing side's: O I O I O. On the 2-core VMs a server's rate moves by
 * 20-50 % over tens of seconds with nothing changed; the more often the sides alternate, the more
 * such a drift falls on both alike (the anonymous read on the 28th: 1 s windows alternated 40
 * times gave CPU ratios of 0.66-0.74 in three runs; one bracketed window per round, rounds of
 * 0.56, 0.88 and 0.64 in one run).
 */
const ALTERNATIONS = Math.max(1, Math.floor(Number(process.env.BENCH_ALTERNATIONS ?? 2)) || 2);
/**
 * The login's warm-up (BENCH_LOGIN_WARMUP_SECONDS, default 20) and rounds (BENCH_LOGIN_ROUNDS,
 * default 5). A login costs a hash: 8 s serve about 500 logins where an HTTP scenario's warm-up
 * serves tens of thousands of requests, and after them the login's path still ran largely in
 * V8's baseline tier (perf on the 28th: the main thread 2.1-2.5 ms a login, 1.1-1.4 after
 * thousands). On two shared cores the rounds moved between 0.70 and 0.97 within one run, so five
 * rounds give the median more to stand on. The raw verify loop warms for as long.
 */
const LOGIN_WARMUP_SECONDS = seconds('BENCH_LOGIN_WARMUP_SECONDS', 20);
const LOGIN_ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_LOGIN_ROUNDS ?? 5)) || 5);
const CONNECTIONS = 16;
const LOGIN_CONCURRENCY = 4;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BULK_TAGS = 1_000;
const BULK_WARMUP_REQUESTS = 2;
const BULK_REQUESTS = 10;
const BULK_REQUEST_TIMEOUT_MS = 30_000;
const COLD_RUNS = 5;
const COLD_READY_TIMEOUT_MS = 30_000;
const IDLE_MS = 2_000;
const GRAPHQL_QUERY = '{ posts(limit: 50) { id title author { name } comments { body } } }';
const ALICE = { username: 'alice', password: 'alice-password-1' };
/** argon2id as Portico hashes (ARGON2_OPTIONS); `verify` reads them from the encoded hash. */
const ARGON2_PARAMS = 'argon2id m=19456 t=2 p=1';

const SECTIONS = ['postgresql', 'sqlite', 'bulk', 'login', 'cold'] as const;
type Section = (typeof SECTIONS)[number];
const ONLY = (process.env.HOT_PATH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
for (const s of ONLY) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`HOT_PATH_ONLY: unknown section "${s}" (${SECTIONS.join(', ')})`);
const selected = (section: Section): boolean => ONLY.length === 0 || ONLY.includes(section);
/** HOT_PATH_SCENARIOS: comma-separated parts of scenario names; only the HTTP scenarios whose name contains one run (default all). */
const SCENARIO_FILTER = (process.env.HOT_PATH_SCENARIOS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const scenarioSelected = (name: string): boolean => SCENARIO_FILTER.length === 0 || SCENARIO_FILTER.some((part) => name.includes(part));

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const RAW_PG_SERVER = here('./raw-pg-server.js');
const RAW_SQLITE_SERVER = here('./raw-sqlite-server.js');
const PORTICO_SERVER = here('./portico-server.js');
const REFERENCE_MAIN = here('../../examples/reference/main.js');
const RESULTS_DIR = fileURLToPath(new URL('../../../bench/results/', import.meta.url));
/** A configured secret, as in production (without one Portico warns and makes one up). */
// One process and no subscribers: the in-memory event bus, as the raw servers publish no events
// (on PostgreSQL the reference app otherwise sends a NOTIFY after every committed write).
const PORTICO_ENV = { PORTICO_SECRET: randomBytes(32).toString('base64url'), THROTTLE: 'off', EVENT_BUS: 'memory' };

// ---------------------------------------------------------------------------------------------
// Cleanup: child processes and the scratch database go away however the run ends.

const cleanups = new Set<() => Promise<void>>();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n${signal}: cleaning up …\n`);
    // Newest first: the servers stop before the database they use goes away.
    void (async () => {
      for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => undefined);
      process.exit(130);
    })();
  });
}

async function withCleanup<T>(cleanup: () => Promise<void>, use: () => Promise<T>): Promise<T> {
  cleanups.add(cleanup);
  try {
    return await use();
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}

async function withServer<T>(script: string, db: string, use: (server: ChildServer) => Promise<T>, env: Readonly<Record<string, string>> = {}): Promise<T> {
  const server = await startChildServer(script, db, env);
  return withCleanup(() => server.stop(), () => use(server));
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** One autocannon measurement, with the median latency too. */
interface HotMeasurement extends Measurement {
  readonly latencyP50Ms: number;
  /** The server process's CPU time (user + system) per request over the measured window, in µs (undefined without /proc). */
  readonly cpuMicrosPerRequest?: number;
  /** Requests per second in the early window (see WARMUP_SECONDS); undefined when the warm-up is too short to hold it. */
  readonly earlyRequestsPerSecond?: number;
}

interface RequestShape {
  readonly method: 'GET' | 'POST';
  readonly body?: string;
  readonly headers: Readonly<Record<string, string>>;
}

async function fire(url: string, duration: number, connections: number, request: RequestShape): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration,
    pipelining: 1,
    timeout: 10,
    method: request.method,
    ...(request.body !== undefined ? { body: request.body } : {}),
    headers: { ...request.headers },
  });
}

function assertClean(label: string, result: autocannon.Result): void {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0) {
    throw new Error(`${label}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
}

/** Warms `url` up for `warmupSeconds` (its early window's rate kept), then measures it for DURATION_SECONDS. */
async function measureLoad(
  label: string,
  url: string,
  request: RequestShape,
  connections = CONNECTIONS,
  cpuMicros?: () => number | undefined,
  warmupSeconds = WARMUP_SECONDS,
): Promise<HotMeasurement> {
  process.stderr.write(`  ${label} …\n`);
  let earlyRequestsPerSecond: number | undefined;
  if (warmupSeconds >= EARLY_SKIP_SECONDS + DURATION_SECONDS) {
    assertClean(`${label} (warm-up)`, await fire(url, EARLY_SKIP_SECONDS, connections, request));
    const early = await fire(url, DURATION_SECONDS, connections, request);
    assertClean(`${label} (early window)`, early);
    earlyRequestsPerSecond = early.requests.total / (early.duration || DURATION_SECONDS);
    const rest = warmupSeconds - EARLY_SKIP_SECONDS - DURATION_SECONDS;
    if (rest > 0) assertClean(`${label} (warm-up)`, await fire(url, rest, connections, request));
  } else {
    assertClean(`${label} (warm-up)`, await fire(url, warmupSeconds, connections, request));
  }
  const measured = await measureWindow(label, url, request, connections, cpuMicros);
  return { ...measured, ...(earlyRequestsPerSecond !== undefined ? { earlyRequestsPerSecond } : {}) };
}

/** One measured window of DURATION_SECONDS on a server already warm. */
async function measureWindow(label: string, url: string, request: RequestShape, connections = CONNECTIONS, cpuMicros?: () => number | undefined): Promise<HotMeasurement> {
  const cpuBefore = cpuMicros?.();
  const result = await fire(url, DURATION_SECONDS, connections, request);
  const cpuAfter = cpuMicros?.();
  assertClean(label, result);
  return {
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuMicrosPerRequest: (cpuAfter - cpuBefore) / result.requests.total } : {}),
    requestsPerSecond: result.requests.total / (result.duration || DURATION_SECONDS),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyAvgMs: result.latency.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};
const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
};

// ---------------------------------------------------------------------------------------------
// Answers

type Body = Record<string, unknown>;
const asBody = (body: unknown): Body => (typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {});

/** JSON with object keys sorted: key order is not part of an answer's meaning. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** A page link without origin and path: `?limit=50&offset=50`. */
const linkQuery = (link: unknown): unknown => (typeof link === 'string' ? new URL(link).search : link);

/** Where the two sides answered differently (the run goes on; it exits 1 at the end). */
const differences: { scenario: string; raw: string; portico: string }[] = [];

function compare(scenario: string, raw: unknown, portico: unknown): void {
  const r = canonical(raw);
  const p = canonical(portico);
  if (r !== p) {
    differences.push({ scenario, raw: r, portico: p });
    process.stderr.write(`  DIFFERENT ANSWERS for ${scenario}\n    raw:     ${r.slice(0, 600)}\n    portico: ${p.slice(0, 600)}\n`);
  }
}

async function request(url: string, init: RequestInit): Promise<{ status: number; body: unknown; text: string }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(BULK_REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

// ---------------------------------------------------------------------------------------------
// HTTP scenarios

interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /**
   * `required`: sends alice's bearer token, and checks that without it the answer is 401;
   * `optional`: sends it (anonymous callers are served too); `none`: sends no token. In every
   * case an unknown token must answer 401.
   */
  readonly auth: 'required' | 'optional' | 'none';
  readonly body?: string;
  readonly status: number;
  readonly check: (body: unknown) => string | undefined;
  /** The part both sides must answer identically (default: all of it). */
  readonly comparable?: (body: unknown) => unknown;
  /** The raw server's environment for this scenario (default: none beyond the process's). */
  readonly rawEnv?: Readonly<Record<string, string>>;
}

interface Seeded {
  readonly db: string;
  readonly token: string;
  readonly aliceId: number;
}

/** What the list's first page must hold: the live rows' count and the ids of the first 50 by id. */
interface ListExpectation {
  readonly count: number;
  readonly firstIds: readonly number[];
}

function postScenarios(aliceId: number, live: ListExpectation): { detail: Scenario; list: Scenario; create: Scenario } {
  const POST_KEYS = canonical(['author_id', 'body', 'created_at', 'created_by_id', 'deleted_at', 'featured', 'id', 'published', 'score', 'title']);
  const keysOf = (row: unknown): string => canonical(Object.keys(asBody(row)).sort());
  return {
    detail: {
      name: 'GET /api/post/1 (bearer)',
      method: 'GET',
      path: '/api/post/1',
      auth: 'required',
      status: 200,
      check: (body) => {
        const row = asBody(body);
        if (keysOf(row) !== POST_KEYS) return `expected the keys ${POST_KEYS}`;
        return row.id === 1 && row.title === 'Notes on the Analytical Engine' && row.score === 10 ? undefined : 'expected post 1';
      },
    },
    list: {
      name: 'GET /api/post/?limit=50 (bearer)',
      method: 'GET',
      path: '/api/post/?limit=50',
      auth: 'required',
      status: 200,
      check: (body) => {
        const { count, next, previous, results } = asBody(body);
        if (count !== live.count) return `expected count ${live.count} (the live posts)`;
        if (!Array.isArray(results) || results.length !== 50) return 'expected 50 results';
        if (canonical(results.map((row) => asBody(row).id)) !== canonical(live.firstIds)) return 'expected the first 50 live posts by id';
        if (results.some((row) => keysOf(row) !== POST_KEYS)) return `expected the keys ${POST_KEYS}`;
        if (linkQuery(next) !== '?limit=50&offset=50') return 'expected a next link to offset 50';
        return previous === null ? undefined : 'expected no previous link';
      },
      comparable: (body) => ({ ...asBody(body), next: linkQuery(asBody(body).next), previous: linkQuery(asBody(body).previous) }),
    },
    create: {
      name: 'POST /api/post/ (bearer)',
      method: 'POST',
      path: '/api/post/',
      auth: 'required',
      body: JSON.stringify({ title: 'Bench', author_id: 1 }),
      status: 201,
      check: (body) => {
        const row = asBody(body);
        if (keysOf(row) !== POST_KEYS) return `expected the keys ${POST_KEYS}`;
        if (typeof row.id !== 'number' || typeof row.created_at !== 'string' || Number.isNaN(Date.parse(row.created_at))) return 'expected a new id and created_at';
        const expected = { title: 'Bench', body: null, author_id: 1, created_by_id: aliceId, published: false, featured: false, score: 0, deleted_at: null };
        return Object.entries(expected).every(([k, v]) => row[k] === v) ? undefined : `expected ${canonical(expected)}`;
      },
      comparable: (body) => {
        const { id: _id, created_at: _at, ...rest } = asBody(body);
        return rest;
      },
    },
  };
}

function pgScenarios(aliceId: number, live: ListExpectation): Scenario[] {
  const { detail, list: plainList, create } = postScenarios(aliceId, live);
  // The hand-written side trusts a resolved token for 5 s as Portico does (its default tokenCache),
  // so both sides send the same statements: the count and the page (seedPostgres: the table).
  const list: Scenario = { ...plainList, rawEnv: { RAW_TOKEN_CACHE_SECONDS: '5' } };
  const AUTHOR_1 = { id: 1, name: 'Ada Lovelace', bio: 'First programmer', email: 'ada@example.com' };
  const anonymous: Scenario = {
    name: 'GET /api/author/1 (anonymous)',
    method: 'GET',
    path: '/api/author/1',
    auth: 'none',
    status: 200,
    check: (body) => (canonical(body) === canonical(AUTHOR_1) ? undefined : `expected ${canonical(AUTHOR_1)}`),
  };
  return [
    detail,
    // Before the create: the count must not move between the two sides.
    list,
    create,
    anonymous,
    // Information, not a goal: the same read against a raw server that also sends Portico's
    // response headers (request id and hardening headers), to show what they cost.
    { ...anonymous, name: `${anonymous.name}, raw with Portico's headers`, rawEnv: { RAW_RESPONSE_HEADERS: 'portico' } },
    {
      name: 'POST /graphql posts{author,comments} (bearer)',
      method: 'POST',
      path: '/graphql',
      auth: 'optional',
      body: JSON.stringify({ query: GRAPHQL_QUERY }),
      status: 200,
      check: (body) => {
        const posts = asBody(asBody(body).data).posts;
        if (!Array.isArray(posts) || posts.length !== 50) return 'expected 50 posts';
        const first = asBody(posts[0]);
        if (first.id !== '1' || asBody(first.author).name !== 'Ada Lovelace') return 'expected post "1" by Ada Lovelace first';
        if (!Array.isArray(first.comments) || first.comments.length < 2) return 'expected the comments of post 1';
        return 'errors' in asBody(body) ? 'unexpected errors' : undefined;
      },
    },
  ];
}

function shapeOf(scenario: Scenario, token: string): RequestShape {
  return {
    method: scenario.method,
    ...(scenario.body !== undefined ? { body: scenario.body } : {}),
    headers: {
      ...(scenario.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(scenario.auth !== 'none' ? { authorization: `Bearer ${token}` } : {}),
    },
  };
}

async function checkOnce(label: string, url: string, scenario: Scenario, shape: RequestShape): Promise<unknown> {
  const { status, body, text } = await request(url, { method: shape.method, headers: shape.headers, ...(shape.body !== undefined ? { body: shape.body } : {}) });
  const problem = body === undefined ? 'not JSON' : status === scenario.status ? scenario.check(body) : `status ${status}, expected ${scenario.status}`;
  if (problem) throw new Error(`${label}: unexpected response ${text.slice(0, 500)} (${problem})`);
  return body;
}

/** An unknown token must answer 401; so must no token where authentication is required. */
async function checkRefused(label: string, url: string, scenario: Scenario, shape: RequestShape): Promise<void> {
  const { authorization: _token, ...anonymous } = shape.headers;
  const attempts = [{ ...anonymous, authorization: `Bearer ${'x'.repeat(43)}` }, ...(scenario.auth === 'required' ? [anonymous] : [])];
  for (const headers of attempts) {
    const { status } = await request(url, { method: shape.method, headers, ...(shape.body !== undefined ? { body: shape.body } : {}) });
    if (status !== 401) throw new Error(`${label}: ${headers.authorization ? 'an unknown token' : 'no token'} answered ${status}, expected 401`);
  }
}

interface HttpResult {
  readonly name: string;
  readonly database: 'postgresql' | 'sqlite';
  readonly method: string;
  readonly path: string;
  /** The median round's raw side (its rate the mean of its windows in the round). */
  readonly raw: HotMeasurement;
  /** The median round's Portico side (likewise). */
  readonly portico: HotMeasurement;
  /** The median of the rounds' ratios. */
  readonly ratio: number;
  /** Each round's Portico req/s ÷ raw req/s, each side's rate the mean of its windows in the round. */
  readonly roundRatios: readonly number[];
  /** Median Portico req/s ÷ median raw req/s over every window (the method before the 28th). */
  readonly ratioOfMedians: number;
  /** Median early-window Portico req/s ÷ median early-window raw req/s (NaN when not measured). */
  readonly earlyRatio: number;
  /** Median over the windows of each side's server CPU µs per request (NaN without /proc). */
  readonly rawCpuMicros: number;
  readonly porticoCpuMicros: number;
}

/** One side checked, warmed and measured once, then measured again by `again` while its server still runs. */
async function sideOf(label: string, server: ChildServer, scenario: Scenario, token: string): Promise<{ measurement: HotMeasurement; body: unknown; again: () => Promise<HotMeasurement> }> {
  const url = `${server.url}${scenario.path}`;
  const shape = shapeOf(scenario, token);
  const cpu = () => server.cpuMicros();
  const body = await checkOnce(label, url, scenario, shape);
  await checkRefused(label, url, scenario, shape);
  const measurement = await measureLoad(label, url, shape, CONNECTIONS, cpu);
  await checkOnce(`${label} (after the load)`, url, scenario, shape);
  const again = async () => {
    process.stderr.write(`  ${label}, second window …\n`);
    const window = await measureWindow(label, url, shape, CONNECTIONS, cpu);
    await checkOnce(`${label} (after the second window)`, url, scenario, shape);
    return window;
  };
  return { measurement, body, again };
}

/** Windows of one side as one: the mean rate and CPU, the latencies of the first (with its early rate). */
function meanOf(windows: readonly HotMeasurement[]): HotMeasurement {
  const [first] = windows;
  if (!first) throw new Error('no window to average');
  const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
  const cpus = windows.map((w) => w.cpuMicrosPerRequest);
  const cpu = cpus.every((c) => c !== undefined) ? { cpuMicrosPerRequest: mean(cpus as number[]) } : {};
  return { ...first, ...cpu, requestsPerSecond: mean(windows.map((w) => w.requestsPerSecond)), requests: windows.reduce((n, w) => n + w.requests, 0) };
}

interface HttpRound {
  readonly raw: HotMeasurement;
  readonly portico: HotMeasurement;
  readonly ratio: number;
  /** Every measured window of each side (ALTERNATIONS for the bracketed side, one more for the other). */
  readonly rawWindows: readonly HotMeasurement[];
  readonly porticoWindows: readonly HotMeasurement[];
}

/**
 * Each scenario ROUNDS times, each round on freshly started servers. A round alternates the
 * two sides' measured windows, O I O … I O: ALTERNATIONS windows of the inner side, each between
 * two of the outer side's, the outer side alternating (raw in odd rounds, Portico in even ones).
 * Each side is warmed before its first window; both servers stay up, and only one is loaded at a
 * time. The round's ratio sets the mean rate of one side's windows against the other's, so a
 * drift of the machine during the round (on these 2-core VMs the rates move by 20 % or more
 * within seconds) weighs on both sides alike. The reported ratio is the median round's.
 */
async function runScenarios(database: 'postgresql' | 'sqlite', rawServer: string, rawDb: string, seeded: Seeded, scenarios: readonly Scenario[]): Promise<HttpResult[]> {
  const results: HttpResult[] = [];
  for (const scenario of scenarios.filter((s) => scenarioSelected(s.name))) {
    const comparable = scenario.comparable ?? ((body: unknown) => body);
    const rounds: HttpRound[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`${database}: ${scenario.name} (round ${round} of ${ROUNDS})\n`);
      const rawFirst = round % 2 === 1;
      const serve = <T>(side: 'raw' | 'portico', use: (server: ChildServer) => Promise<T>): Promise<T> =>
        side === 'raw' ? withServer(rawServer, rawDb, use, scenario.rawEnv) : withServer(PORTICO_SERVER, seeded.db, use, PORTICO_ENV);
      const measureSide = (side: 'raw' | 'portico', server: ChildServer) => sideOf(`${side} ${scenario.name}`, server, scenario, seeded.token);
      const [outer, inner]: ['raw' | 'portico', 'raw' | 'portico'] = rawFirst ? ['raw', 'portico'] : ['portico', 'raw'];
      // Both servers stay up; only one is loaded at a time: O I O … I O, ALTERNATIONS windows of I.
      const sides = await serve(outer, async (outerServer) => {
        const first = await measureSide(outer, outerServer);
        return serve(inner, async (innerServer) => {
          const second = await measureSide(inner, innerServer);
          const bracketing = [first.measurement, await first.again()];
          const bracketed = [second.measurement];
          for (let k = 1; k < ALTERNATIONS; k++) {
            bracketed.push(await second.again());
            bracketing.push(await first.again());
          }
          return { bracketing, bracketed, outerBody: first.body, innerBody: second.body };
        });
      });
      const [rawWindows, porticoWindows] = rawFirst ? [sides.bracketing, sides.bracketed] : [sides.bracketed, sides.bracketing];
      const [rawBody, porticoBody] = rawFirst ? [sides.outerBody, sides.innerBody] : [sides.innerBody, sides.outerBody];
      if (round === 1) compare(`${database} ${scenario.name}`, comparable(rawBody), comparable(porticoBody));
      const raw = meanOf(rawWindows);
      const portico = meanOf(porticoWindows);
      rounds.push({ raw, portico, ratio: portico.requestsPerSecond / raw.requestsPerSecond, rawWindows, porticoWindows });
    }
    const ratio = median(rounds.map((r) => r.ratio));
    const middle = nearest(rounds, ratio);
    const rawAll = rounds.flatMap((r) => r.rawWindows);
    const porticoAll = rounds.flatMap((r) => r.porticoWindows);
    results.push({
      name: scenario.name,
      database,
      method: scenario.method,
      path: scenario.path,
      raw: middle.raw,
      portico: middle.portico,
      ratio,
      roundRatios: rounds.map((r) => r.ratio),
      ratioOfMedians: median(porticoAll.map((m) => m.requestsPerSecond)) / median(rawAll.map((m) => m.requestsPerSecond)),
      earlyRatio: median(porticoAll.map((m) => m.earlyRequestsPerSecond ?? NaN).filter((v) => !Number.isNaN(v))) / median(rawAll.map((m) => m.earlyRequestsPerSecond ?? NaN).filter((v) => !Number.isNaN(v))),
      rawCpuMicros: median(rawAll.map((m) => m.cpuMicrosPerRequest ?? NaN)),
      porticoCpuMicros: median(porticoAll.map((m) => m.cpuMicrosPerRequest ?? NaN)),
    });
  }
  return results;
}

/** The round whose ratio is nearest `ratio` (with an even number of rounds, the median falls between two). */
function nearest<R extends { readonly ratio: number }>(rounds: readonly R[], ratio: number): R {
  const found = rounds.reduce<R | undefined>((best, r) => (!best || Math.abs(r.ratio - ratio) < Math.abs(best.ratio - ratio) ? r : best), undefined);
  if (!found) throw new Error('no rounds');
  return found;
}

// ---------------------------------------------------------------------------------------------
// Databases

/** Logs alice in through a running Portico server: her bearer token and id. */
async function logIn(base: string): Promise<{ token: string; aliceId: number }> {
  const { status, body, text } = await request(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ALICE),
  });
  const token = asBody(body).token;
  const aliceId = asBody(asBody(body).user).id;
  if (status !== 200 || typeof token !== 'string' || typeof aliceId !== 'number') throw new Error(`login failed: ${status} ${text.slice(0, 300)}`);
  return { token, aliceId };
}

/** The live posts' count and the ids of the first 50 by id: what the list's first page must show. */
async function liveListOf(client: pg.Client): Promise<ListExpectation> {
  const [{ rows: counted }, { rows: first }] = [
    await client.query<{ n: number }>('select count(*)::int as n from post where deleted_at is null'),
    await client.query<{ id: number }>('select id from post where deleted_at is null order by id limit 50'),
  ];
  return { count: counted[0]?.n ?? 0, firstIds: first.map((r) => r.id) };
}

function sqliteExec(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (error: Error | null) => (error ? reject(error) : resolve())));
}

/** The same rows on SQLite (booleans 0/1, timestamps as epoch milliseconds, as Portico stores them). */
async function seedSqlite(file: string, aliceId: number): Promise<void> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  try {
    const now = Date.now();
    await sqliteExec(db, 'begin');
    for (let from = 1; from <= POSTS; from += SEED_CHUNK) {
      await sqliteExec(
        db,
        `with recursive g(n) as (select ? union all select n + 1 from g where n < ?)
         insert into post (title, body, author_id, created_by_id, published, featured, score, created_at)
         select 'Bench post ' || n, 'Body of bench post ' || n, 1 + n % 2, ?, n % 3 <> 0, 0, n % 100, ? - n * 1000 from g`,
        [from, Math.min(POSTS, from + SEED_CHUNK - 1), aliceId, now],
      );
    }
    const maxPost = await new Promise<number>((resolve, reject) =>
      db.get<{ n: number }>('select max(id) as n from post', (error, row) => (error ? reject(error) : resolve(row.n))),
    );
    for (let from = 1; from <= COMMENTS; from += SEED_CHUNK * 4) {
      await sqliteExec(
        db,
        `with recursive g(n) as (select ? union all select n + 1 from g where n < ?)
         insert into comment (post_id, body, votes, moderation_note) select 1 + (n - 1) % ?, 'Bench comment ' || n, n % 7, 'note ' || n from g`,
        [from, Math.min(COMMENTS, from + SEED_CHUNK * 4 - 1), maxPost],
      );
    }
    await sqliteExec(db, 'commit');
    await sqliteExec(db, 'analyze');
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

// ---------------------------------------------------------------------------------------------
// Bulk create

interface BulkSide {
  readonly medianMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly timesMs: readonly number[];
}

interface BulkResult {
  readonly tags: number;
  readonly requests: number;
  readonly raw: BulkSide;
  readonly portico: BulkSide;
  /** portico median ÷ raw median (time: above 1 is slower). */
  readonly ratio: number;
}

/** BULK_WARMUP_REQUESTS untimed then BULK_REQUESTS timed creates of BULK_TAGS fresh tags, one after the other. */
async function bulkCreates(label: string, base: string): Promise<{ side: BulkSide; first: unknown }> {
  process.stderr.write(`  ${label} …\n`);
  const times: number[] = [];
  let first: unknown;
  for (let i = 0; i < BULK_WARMUP_REQUESTS + BULK_REQUESTS; i++) {
    const prefix = `${label.split(' ')[0]}-${i}-${randomBytes(4).toString('hex')}-`;
    const body = JSON.stringify(Array.from({ length: BULK_TAGS }, (_, j) => ({ id: `${prefix}${j}`, label: `Tag ${j}` })));
    const started = performance.now();
    const response = await fetch(`${base}/api/tag/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(BULK_REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    const rows: unknown = JSON.parse(text);
    if (response.status !== 201 || !Array.isArray(rows) || rows.length !== BULK_TAGS) throw new Error(`${label}: status ${response.status}, ${text.slice(0, 300)}`);
    if (i >= BULK_WARMUP_REQUESTS) times.push(elapsed);
    // Comparable across sides: the rows with the request's id prefix removed.
    first ??= rows.map((row) => ({ ...asBody(row), id: String(asBody(row).id).slice(prefix.length) }));
  }
  return { side: { medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times), timesMs: times }, first };
}

// ---------------------------------------------------------------------------------------------
// Login

interface VerifyRate {
  readonly perSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly count: number;
}

/**
 * One login round: Portico's window between two raw verify windows, then the hand-written login
 * server's window and one more raw window. The raw rate drifts on a shared machine (by a fifth
 * within one run on the 27th), so each server's window is set against the raw windows right
 * before and after it.
 */
interface LoginRound {
  readonly rawBefore: VerifyRate;
  readonly portico: HotMeasurement;
  readonly rawAfter: VerifyRate;
  /** Portico logins/s ÷ the mean of the two raw rates around it. */
  readonly ratio: number;
  /**
   * The hand-written Koa + pg login (`raw-pg-server.ts`) measured after `rawAfter`, the raw window
   * after it, and its logins/s ÷ the mean of those two raw rates: what the same work costs without
   * Portico on this machine, beside the hash.
   */
  readonly handWritten: { readonly measurement: HotMeasurement; readonly rawAfter: VerifyRate; readonly ratio: number };
}

interface LoginResult {
  readonly concurrency: number;
  readonly argon2: string;
  /** Seconds of load before the first round, on each server. */
  readonly warmupSeconds: number;
  /** LOGIN_ROUNDS rounds on two warm servers, raw verify windows between every two logins windows. */
  readonly rounds: readonly LoginRound[];
  /** The Portico measurement of the round nearest the median (with the early window of the first). */
  readonly portico: HotMeasurement;
  /** The median of the rounds' Portico ratios: the issue's goal (0.85) is read here. */
  readonly ratio: number;
  /** The median of the rounds' hand-written ratios. */
  readonly handWrittenRatio: number;
  /** The median over rounds of Portico's logins/s ÷ the hand-written server's in the same round. */
  readonly porticoToHandWritten: number;
}

/**
 * The rounds of raws[2i] · porticos[i] · raws[2i + 1] · handWritten[i] · raws[2i + 2], and the
 * median round.
 */
function loginResult(raws: readonly VerifyRate[], porticos: readonly HotMeasurement[], handWritten: readonly HotMeasurement[]): LoginResult {
  const against = (rate: number, before: VerifyRate, after: VerifyRate): number => rate / ((before.perSecond + after.perSecond) / 2);
  const rounds = porticos.map((portico, i): LoginRound => {
    const rawBefore = raws[2 * i] as VerifyRate;
    const rawAfter = raws[2 * i + 1] as VerifyRate;
    const hand = handWritten[i] as HotMeasurement;
    const handAfter = raws[2 * i + 2] as VerifyRate;
    return {
      rawBefore,
      portico,
      rawAfter,
      ratio: against(portico.requestsPerSecond, rawBefore, rawAfter),
      handWritten: { measurement: hand, rawAfter: handAfter, ratio: against(hand.requestsPerSecond, rawAfter, handAfter) },
    };
  });
  const ratio = median(rounds.map((r) => r.ratio));
  const first = rounds[0]?.portico;
  const portico = { ...nearest(rounds, ratio).portico, ...(first?.earlyRequestsPerSecond !== undefined ? { earlyRequestsPerSecond: first.earlyRequestsPerSecond } : {}) };
  return {
    concurrency: LOGIN_CONCURRENCY,
    argon2: ARGON2_PARAMS,
    warmupSeconds: LOGIN_WARMUP_SECONDS,
    rounds,
    portico,
    ratio,
    handWrittenRatio: median(rounds.map((r) => r.handWritten.ratio)),
    porticoToHandWritten: median(rounds.map((r) => r.portico.requestsPerSecond / r.handWritten.measurement.requestsPerSecond)),
  };
}

/** LOGIN_CONCURRENCY loops of `verify(hash, password)` for `seconds`: verifies per second and latencies. */
async function verifyRate(hash: string, password: string, secondsToRun: number): Promise<VerifyRate> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + secondsToRun * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < until) {
      const t = performance.now();
      if (!(await verify(hash, password))) throw new Error('argon2 verify rejected alice’s password');
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: LOGIN_CONCURRENCY }, loop));
  const elapsed = (performance.now() - started) / 1000;
  return { perSecond: latencies.length / elapsed, latencyP50Ms: percentile(latencies, 50), latencyP99Ms: percentile(latencies, 99), count: latencies.length };
}

// ---------------------------------------------------------------------------------------------
// Cold start

interface ColdRun {
  readonly listeningMs: number;
  readonly readyMs: number;
  readonly idleRssMb: number;
}

interface ColdResult {
  readonly runs: readonly ColdRun[];
  readonly medianReadyMs: number;
  readonly medianListeningMs: number;
  readonly medianIdleRssMb: number;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Spawns the reference app on `file`: ms to its printed URL, ms to the first 200 from /ready, RSS after IDLE_MS idle. */
async function coldStart(file: string): Promise<ColdRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [REFERENCE_MAIN, '--db', `sqlite:${file}`, '--port', '0'], {
    env: { ...process.env, ...PORTICO_ENV, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  return withCleanup(
    () => stopProcess(child),
    async () => {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the reference app printed no URL within ${COLD_READY_TIMEOUT_MS} ms: ${stderr}`)), COLD_READY_TIMEOUT_MS);
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const match = /home:\s+(http:\/\/\S+?)\/?$/.exec(line.trim());
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`the reference app exited with code ${code}: ${stderr}`));
        });
      });
      const listeningMs = performance.now() - started;
      let readyMs: number | undefined;
      while (readyMs === undefined) {
        if (performance.now() - started > COLD_READY_TIMEOUT_MS) throw new Error(`/ready answered no 200 within ${COLD_READY_TIMEOUT_MS} ms`);
        const status = await fetch(`${base}/ready`).then(
          (r) => r.arrayBuffer().then(() => r.status),
          () => 0,
        );
        if (status === 200) readyMs = performance.now() - started;
        else await sleep(5);
      }
      await sleep(IDLE_MS);
      const rss = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      return { listeningMs, readyMs, idleRssMb: Number(rss) / 1024 };
    },
  );
}

// ---------------------------------------------------------------------------------------------
// Report

interface Report {
  readonly info: RunInfo & {
    readonly postgres?: string;
    readonly sqlite: string;
    readonly posts: number;
    readonly rounds: number;
    /** Windows of the bracketed side per round (the other side has one more). */
    readonly alternations: number;
    readonly comments: number;
    /** 1-minute load average at the start and the end: other work on the machine skews the numbers. */
    readonly loadAverage: { readonly start: number; readonly end: number };
  };
  readonly http: readonly HttpResult[];
  readonly bulk?: BulkResult;
  readonly login?: LoginResult;
  readonly coldStart?: ColdResult;
  readonly differences: typeof differences;
}

function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [headers, ...rows];
  const widths = headers.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const row = (values: readonly string[]): string => `| ${values.join(' | ')} |`;
  return [row(headers), row(headers.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(row)].join('\n');
}

const f0 = (n: number): string => n.toFixed(0);
const f1 = (n: number): string => n.toFixed(1);
const f2 = (n: number): string => n.toFixed(2);
/** The login's ratios, whose goal (0.85) the rounds straddle: two decimals printed 0.846 as 0.85. */
const f3 = (n: number): string => n.toFixed(3);
const orDash = (format: (n: number) => string, n: number): string => (Number.isFinite(n) ? format(n) : '—');

/** The report as sections of [title, headers, rows]. */
function sections(report: Report): [string, string[], string[][]][] {
  const out: [string, string[], string[][]][] = [];
  if (report.http.length > 0) {
    out.push([
      `HTTP scenarios: ${CONNECTIONS} connections, ${report.info.warmupSeconds} s warm-up + ${report.info.durationSeconds} s measured per window, each side alone; ${report.info.rounds} rounds on fresh servers, each alternating the sides' windows, ${report.info.alternations} of one side each between two of the other (raw brackets in odd rounds, Portico in even ones); a round's Portico/raw is the mean rate of Portico's windows over the mean rate of raw's, and the result is the median round's (its req/s and latencies shown); median of all windows is the median Portico rate over the median raw rate (the method before the 28th); CPU µs/req is the server process's CPU time per request over a window (median of the windows), and CPU raw/Portico their ratio; early is the ratio of the median rates in seconds ${EARLY_SKIP_SECONDS}-${EARLY_SKIP_SECONDS + report.info.durationSeconds} of the warm-up (both servers still compiling)`,
      ['Scenario', 'DB', 'Raw req/s', 'Raw p50 ms', 'Raw p99 ms', 'Portico req/s', 'Portico p50 ms', 'Portico p99 ms', 'Portico/raw', 'per round', 'median of all windows', 'Raw CPU µs/req', 'Portico CPU µs/req', 'CPU raw/Portico', 'early Portico/raw'],
      report.http.map((r) => [
        r.name,
        r.database === 'postgresql' ? 'pg' : 'sqlite',
        f0(r.raw.requestsPerSecond),
        f0(r.raw.latencyP50Ms),
        f0(r.raw.latencyP99Ms),
        f0(r.portico.requestsPerSecond),
        f0(r.portico.latencyP50Ms),
        f0(r.portico.latencyP99Ms),
        f2(r.ratio),
        r.roundRatios.map(f2).join(' '),
        f2(r.ratioOfMedians),
        orDash(f0, r.rawCpuMicros),
        orDash(f0, r.porticoCpuMicros),
        orDash(f2, r.rawCpuMicros / r.porticoCpuMicros),
        orDash(f2, r.earlyRatio),
      ]),
    ]);
  }
  if (report.bulk) {
    const b = report.bulk;
    out.push([
      `Bulk create of ${b.tags} tags (POST /api/tag/, PostgreSQL): ${BULK_WARMUP_REQUESTS} untimed + ${b.requests} timed sequential requests per side; Portico/raw is a time ratio (above 1 = slower)`,
      ['Side', 'median ms', 'min ms', 'max ms', 'Portico/raw'],
      [
        ['raw (one insert … select unnest … returning *, in a transaction)', f1(b.raw.medianMs), f1(b.raw.minMs), f1(b.raw.maxMs), ''],
        ['Portico', f1(b.portico.medianMs), f1(b.portico.minMs), f1(b.portico.maxMs), f2(b.ratio)],
      ],
    ]);
  }
  if (report.login) {
    const l = report.login;
    const raw = (v: VerifyRate, i: number): string[] => [`raw argon2 verify (@node-rs/argon2, in the runner), window ${i}`, f1(v.perSecond), f1(v.latencyP50Ms), f1(v.latencyP99Ms), ''];
    const side = (label: string, m: HotMeasurement, ratio: number): string[] => [label, f1(m.requestsPerSecond), f1(m.latencyP50Ms), f1(m.latencyP99Ms), f3(ratio)];
    const handMedian = nearest(
      l.rounds.map((r) => r.handWritten),
      l.handWrittenRatio,
    ).measurement;
    const firstRaw = l.rounds[0];
    out.push([
      `Login (${l.argon2}), ${l.concurrency} concurrent, ${l.rounds.length} rounds of ${report.info.durationSeconds} s on two servers each warmed ${l.warmupSeconds} s (Portico's early window beside): Portico, then a hand-written Koa + pg login doing the same work (the user read; the \`last_login\` stamp and the token insert in one statement), each between two raw verify windows; a window's ratio is its throughput against the mean of the raw windows around it, the result the median round. The goal (0.85) is Portico's ratio; the hand-written server's shows what the work around the hash costs on this machine without Portico`,
      ['Side', 'per second', 'p50 ms', 'p99 ms', 'against raw verify'],
      [
        ...l.rounds.flatMap((r, i) => [
          ...(i === 0 ? [raw(r.rawBefore, 1)] : []),
          side(`Portico POST /api/auth/login (PostgreSQL), round ${i + 1}`, r.portico, r.ratio),
          raw(r.rawAfter, 2 * i + 2),
          side(`hand-written Koa + pg login, round ${i + 1}`, r.handWritten.measurement, r.handWritten.ratio),
          raw(r.handWritten.rawAfter, 2 * i + 3),
        ]),
        side('Portico, the median round', l.portico, l.ratio),
        ...(l.portico.earlyRequestsPerSecond !== undefined && firstRaw
          ? [[`the same, early window (seconds ${EARLY_SKIP_SECONDS}-${EARLY_SKIP_SECONDS + report.info.durationSeconds})`, f1(l.portico.earlyRequestsPerSecond), '', '', f3(l.portico.earlyRequestsPerSecond / ((firstRaw.rawBefore.perSecond + firstRaw.rawAfter.perSecond) / 2))]]
          : []),
        side('hand-written, the median round', handMedian, l.handWrittenRatio),
        ['Portico / hand-written (median of the rounds, logins per second)', '', '', '', f3(l.porticoToHandWritten)],
      ],
    ]);
  }
  if (report.coldStart) {
    const c = report.coldStart;
    out.push([
      `Cold start of the reference app on the existing SQLite file (${c.runs.length} runs after one uncounted start; node dist/examples/reference/main.js --db sqlite:<file> --port 0)`,
      ['Run', 'spawn → URL printed ms', 'spawn → /ready 200 ms', `RSS after ${IDLE_MS / 1000} s idle MB`],
      [
        ...c.runs.map((r, i) => [String(i + 1), f0(r.listeningMs), f0(r.readyMs), f1(r.idleRssMb)]),
        ['median', f0(c.medianListeningMs), f0(c.medianReadyMs), f1(c.medianIdleRssMb)],
      ],
    ]);
  }
  return out;
}

function machineLine(report: Report): string {
  const i = report.info;
  return `Node ${i.node}, ${i.cpus} CPUs (${i.cpuModel}), ${i.platform}, ${i.date}
${i.postgres ? `PostgreSQL ${i.postgres} (127.0.0.1, pool of 10 on both sides), ` : ''}SQLite ${i.sqlite}; ${i.posts} posts, ${i.comments} comments; load average ${f2(i.loadAverage.start)} at start, ${f2(i.loadAverage.end)} at end`;
}

function consoleReport(report: Report): string {
  const parts = ['Hot path: Portico vs hand-written servers (Koa 3 + @koa/router + pg / sqlite3)', machineLine(report), ...sections(report).map(([title, headers, rows]) => `${title}\n\n${textTable(headers, rows)}`)];
  if (report.differences.length > 0) {
    parts.push(`DIFFERENT ANSWERS (${report.differences.length}):\n${report.differences.map((d) => `- ${d.scenario}\n  raw:     ${d.raw.slice(0, 400)}\n  portico: ${d.portico.slice(0, 400)}`).join('\n')}`);
  }
  return parts.join('\n\n');
}

function markdownReport(report: Report): string {
  return [
    '# Hot path: Portico vs hand-written servers (Koa 3 + @koa/router + pg / sqlite3)',
    '',
    machineLine(report).replace('\n', '  \n'),
    '',
    ...sections(report).flatMap(([title, headers, rows]) => [`## ${title}`, '', markdownTable(headers, rows), '']),
    ...(report.differences.length > 0 ? ['## Different answers', '', ...report.differences.map((d) => `- ${d.scenario}: raw \`${d.raw.slice(0, 300)}\`, Portico \`${d.portico.slice(0, 300)}\``), ''] : []),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function postgresSections(): Promise<{ http: HttpResult[]; bulk?: BulkResult; login?: LoginResult; version: string }> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const schema = `hot_path_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dropSchema = async (): Promise<void> => {
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  };
  return withCleanup(dropSchema, async () => {
    const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? 'unknown';
    await admin.query(`create schema "${schema}"`);
    const url = new URL(PG_URL);
    url.searchParams.set('schema', schema);
    const db = url.toString();
    process.stderr.write(`Preparing PostgreSQL schema ${schema} (Portico migrates and seeds; then ${POSTS} posts and ${COMMENTS} comments) …\n`);
    const { token, aliceId } = await withServer(PORTICO_SERVER, db, (s) => logIn(s.url), PORTICO_ENV);
    await admin.query(`set search_path to "${schema}"`);
    await seedPostgres(admin, aliceId);
    const seeded: Seeded = { db, token, aliceId };

    const live = await liveListOf(admin);
    const http = selected('postgresql') ? await runScenarios('postgresql', RAW_PG_SERVER, db, seeded, pgScenarios(aliceId, live)) : [];

    let bulk: BulkResult | undefined;
    if (selected('bulk')) {
      process.stderr.write(`postgresql: bulk create of ${BULK_TAGS} tags\n`);
      const raw = await withServer(RAW_PG_SERVER, db, (s) => bulkCreates('raw bulk create', s.url));
      const portico = await withServer(PORTICO_SERVER, db, (s) => bulkCreates('portico bulk create', s.url), PORTICO_ENV);
      compare(`postgresql bulk create of ${BULK_TAGS} tags`, raw.first, portico.first);
      bulk = { tags: BULK_TAGS, requests: BULK_REQUESTS, raw: raw.side, portico: portico.side, ratio: portico.side.medianMs / raw.side.medianMs };
    }

    let login: LoginResult | undefined;
    if (selected('login')) {
      process.stderr.write(`postgresql: login throughput (${LOGIN_CONCURRENCY} concurrent)\n`);
      const hash = (await admin.query<{ password_hash: string }>('select password_hash from auth_user where username = $1', [ALICE.username])).rows[0]?.password_hash;
      if (!hash?.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')) throw new Error(`alice's hash is not argon2id m=19456,t=2,p=1: ${hash?.slice(0, 40)}`);
      const loginShape: RequestShape = { method: 'POST', body: JSON.stringify(ALICE), headers: { 'content-type': 'application/json' } };
      process.stderr.write('  raw argon2 verify (warm-up) …\n');
      // The same warm-up as Portico's login gets: the baseline is never the colder side.
      await verifyRate(hash, ALICE.password, LOGIN_WARMUP_SECONDS);
      const loginLoad = (label: string, url: string, round: number): Promise<HotMeasurement> =>
        round === 1 ? measureLoad(label, url, loginShape, LOGIN_CONCURRENCY, undefined, LOGIN_WARMUP_SECONDS) : measureWindow(label, url, loginShape, LOGIN_CONCURRENCY);
      login = await withServer(
        PORTICO_SERVER,
        db,
        (portico) =>
          withServer(RAW_PG_SERVER, db, async (hand) => {
            await logIn(portico.url);
            await logIn(hand.url);
            const raws = [await verifyRate(hash, ALICE.password, DURATION_SECONDS)];
            const porticos: HotMeasurement[] = [];
            const handWritten: HotMeasurement[] = [];
            for (let round = 1; round <= LOGIN_ROUNDS; round++) {
              process.stderr.write(`  login round ${round} of ${LOGIN_ROUNDS}\n`);
              porticos.push(await loginLoad('portico login', `${portico.url}/api/auth/login`, round));
              process.stderr.write('  raw argon2 verify …\n');
              raws.push(await verifyRate(hash, ALICE.password, DURATION_SECONDS));
              handWritten.push(await loginLoad('hand-written login', `${hand.url}/api/auth/login`, round));
              process.stderr.write('  raw argon2 verify …\n');
              raws.push(await verifyRate(hash, ALICE.password, DURATION_SECONDS));
            }
            return loginResult(raws, porticos, handWritten);
          }),
        PORTICO_ENV,
      );
    }
    return { http, ...(bulk ? { bulk } : {}), ...(login ? { login } : {}), version };
  });
}

async function sqliteSections(): Promise<{ http: HttpResult[]; coldStart?: ColdResult }> {
  const dir = mkdtempSync(join(tmpdir(), 'portico-hot-path-'));
  const removeDir = async (): Promise<void> => rmSync(dir, { recursive: true, force: true });
  return withCleanup(removeDir, async () => {
    const file = join(dir, 'hot-path.db');
    const db = `sqlite:${file}`;
    process.stderr.write(`Preparing SQLite file ${file} (Portico migrates and seeds; then ${POSTS} posts and ${COMMENTS} comments) …\n`);
    const { token, aliceId } = await withServer(PORTICO_SERVER, db, (s) => logIn(s.url), PORTICO_ENV);
    await seedSqlite(file, aliceId);
    let cold: ColdResult | undefined;
    if (selected('cold')) {
      process.stderr.write('cold start of the reference app …\n');
      if (!existsSync(REFERENCE_MAIN)) throw new Error(`${REFERENCE_MAIN} is missing: build first`);
      // The file was just written and the modules just built: one start, not counted, puts what
      // every later start reads in the OS's file cache, and the machine settles after the seeding.
      await coldStart(file);
      await sleep(2000);
      const runs: ColdRun[] = [];
      for (let i = 0; i < COLD_RUNS; i++) runs.push(await coldStart(file));
      cold = {
        runs,
        medianReadyMs: median(runs.map((r) => r.readyMs)),
        medianListeningMs: median(runs.map((r) => r.listeningMs)),
        medianIdleRssMb: median(runs.map((r) => r.idleRssMb)),
      };
    }
    const { detail, list } = postScenarios(aliceId, { count: POSTS + 4, firstIds: Array.from({ length: 50 }, (_, i) => i + 1) });
    const http = selected('sqlite') ? await runScenarios('sqlite', RAW_SQLITE_SERVER, file, { db, token, aliceId }, [detail, list]) : [];
    return { http, ...(cold ? { coldStart: cold } : {}) };
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadavg()[0] ?? 0;
  // SQLite first, and in it the cold start before any load: after the PostgreSQL loads the
  // database keeps the machine busy for a while (checkpoints, autovacuum of the created rows),
  // which made the cold starts of a full run 100-130 ms slower than the same starts alone.
  const sqlitePart = selected('sqlite') || selected('cold') ? await sqliteSections() : undefined;
  const pgPart = selected('postgresql') || selected('bulk') || selected('login') ? await postgresSections() : undefined;
  const report: Report = {
    info: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpuModelOf(),
      platform: `${process.platform}-${process.arch}`,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_SECONDS,
      durationSeconds: DURATION_SECONDS,
      rounds: ROUNDS,
      alternations: ALTERNATIONS,
      ...(pgPart ? { postgres: pgPart.version } : {}),
      sqlite: sqlite3.VERSION,
      posts: POSTS,
      comments: COMMENTS,
      loadAverage: { start: loadAtStart, end: loadavg()[0] ?? 0 },
    },
    http: [...(pgPart?.http ?? []), ...(sqlitePart?.http ?? [])],
    ...(pgPart?.bulk ? { bulk: pgPart.bulk } : {}),
    ...(pgPart?.login ? { login: pgPart.login } : {}),
    ...(sqlitePart?.coldStart ? { coldStart: sqlitePart.coldStart } : {}),
    differences,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}hot-path.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${RESULTS_DIR}hot-path.md`, markdownReport(report));
  console.log(`\n${consoleReport(report)}\n\nWrote bench/results/hot-path.json and bench/results/hot-path.md (${f0((performance.now() - started) / 1000)} s)`);
  if (differences.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`hot-path bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
