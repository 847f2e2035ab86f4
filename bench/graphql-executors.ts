/**
 * `npm run build && node dist/bench/graphql-executors.js`: the hot path's GraphQL scenario
 * (`POST /graphql` `{ posts(limit: 50) { id title author { name } comments { body } } }`, alice's
 * bearer token, PostgreSQL) on several builds of Portico against the hand-written server
 * (`hot-path/raw-pg-server.ts`), all in one run, their windows alternating: how two executors, or a
 * build before and after a change, compare on the same machine at the same time.
 *
 * `BENCH_GRAPHQL_SERVERS=name=<portico-server.js>,…` names the Portico servers (each a
 * `hot-path/portico-server.js` of some build; a build kept elsewhere finds its packages through a
 * `node_modules` link); default: this build's, as `portico`. The database is a fresh schema
 * migrated and seeded by the first server, then the hot path's 10 000 posts and 50 000 comments.
 *
 * Each of BENCH_ROUNDS rounds (default 3) starts every server afresh, warms each for
 * BENCH_WARMUP_SECONDS (8) under load, then measures BENCH_ALTERNATIONS (2) passes of one window
 * (BENCH_DURATION_SECONDS, 3) per server, raw first and the Portico servers in an order rotated each
 * round; only one server is loaded at a time. A server's rate in a round is the mean of its windows,
 * its ratio the rate over raw's in that round. It reports each round, and the median of the rounds;
 * each side's server CPU per request beside. Every side's answer is checked against raw's (canonical
 * JSON) before and after the round. Results in `bench/results/graphql-executors.{json,md}`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { startChildServer, type ChildServer } from './child-server.js';
import { cpuModelOf } from './report.js';
import { COMMENTS, POSTS, seedPostgres } from './hot-path/seed-postgres.js';

const seconds = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1 || value > 60) throw new Error(`${name} must be a number of seconds between 1 and 60`);
  return value;
};
const count = (name: string, fallback: number): number => Math.max(1, Math.floor(Number(process.env[name] ?? fallback)) || fallback);

const DURATION_SECONDS = seconds('BENCH_DURATION_SECONDS', 3);
const WARMUP_SECONDS = seconds('BENCH_WARMUP_SECONDS', 8);
const ROUNDS = count('BENCH_ROUNDS', 3);
const ALTERNATIONS = count('BENCH_ALTERNATIONS', 2);
const CONNECTIONS = 16;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const QUERY = '{ posts(limit: 50) { id title author { name } comments { body } } }';
const ALICE = { username: 'alice', password: 'alice-password-1' };

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const RAW_SERVER = here('./hot-path/raw-pg-server.js');
const RESULTS_DIR = fileURLToPath(new URL('../../bench/results/', import.meta.url));
const PORTICO_ENV = { PORTICO_SECRET: randomBytes(32).toString('base64url'), THROTTLE: 'off', EVENT_BUS: 'memory' };

/** The Portico servers to compare, by name. */
function porticoServers(): { name: string; script: string }[] {
  const given = process.env.BENCH_GRAPHQL_SERVERS;
  if (!given) return [{ name: 'portico', script: here('./hot-path/portico-server.js') }];
  return given.split(',').map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new Error(`BENCH_GRAPHQL_SERVERS: "${entry}" is not name=<script>`);
    return { name: entry.slice(0, at).trim(), script: entry.slice(at + 1).trim() };
  });
}

interface Window {
  readonly requestsPerSecond: number;
  readonly cpuMicrosPerRequest: number | undefined;
  readonly latencyP99Ms: number;
}

interface SideRound {
  readonly requestsPerSecond: number;
  readonly cpuMicrosPerRequest: number | undefined;
  readonly windows: readonly Window[];
  /** requestsPerSecond ÷ raw's in the same round (1 for raw). */
  readonly ratio: number;
}

type Round = Record<string, SideRound>;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};
const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

async function fire(url: string, duration: number, token: string): Promise<autocannon.Result> {
  const result = await autocannon({
    url: `${url}/graphql`,
    connections: CONNECTIONS,
    duration,
    pipelining: 1,
    timeout: 10,
    method: 'POST',
    body: JSON.stringify({ query: QUERY }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0) {
    throw new Error(`${url}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

async function measure(server: ChildServer, token: string): Promise<Window> {
  const before = server.cpuMicros();
  const result = await fire(server.url, DURATION_SECONDS, token);
  const after = server.cpuMicros();
  return {
    requestsPerSecond: result.requests.total / (result.duration || DURATION_SECONDS),
    cpuMicrosPerRequest: before !== undefined && after !== undefined ? (after - before) / result.requests.total : undefined,
    latencyP99Ms: result.latency.p99,
  };
}

/** One answer of `server`, checked: 50 posts, post "1" by Ada Lovelace first, no errors. */
async function answer(label: string, server: ChildServer, token: string): Promise<string> {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: QUERY }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as { data?: { posts?: { id?: string; author?: { name?: string } }[] }; errors?: unknown };
  const posts = body.data?.posts;
  if (response.status !== 200 || body.errors || posts?.length !== 50 || posts[0]?.id !== '1' || posts[0]?.author?.name !== 'Ada Lovelace') {
    throw new Error(`${label}: unexpected answer ${response.status} ${text.slice(0, 300)}`);
  }
  return canonical(body);
}

async function logIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ALICE) });
  const body = (await response.json()) as { token?: unknown; user?: { id?: unknown } };
  if (response.status !== 200 || typeof body.token !== 'string') throw new Error(`login failed: ${response.status}`);
  return body.token;
}

async function aliceId(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ id: number }>('select id from auth_user where username = $1', [ALICE.username]);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('alice is missing');
  return id;
}

/** Starts every server, runs `use`, stops them all (also on failure). */
async function withServers<T>(sides: readonly { name: string; script: string; env: Record<string, string> }[], db: string, use: (servers: Map<string, ChildServer>) => Promise<T>): Promise<T> {
  const servers = new Map<string, ChildServer>();
  try {
    for (const side of sides) servers.set(side.name, await startChildServer(side.script, db, side.env));
    return await use(servers);
  } finally {
    for (const server of servers.values()) await server.stop();
  }
}

async function run(): Promise<void> {
  const portico = porticoServers();
  const names = portico.map((p) => p.name);
  if (names.includes('raw') || new Set(names).size !== names.length) throw new Error('BENCH_GRAPHQL_SERVERS: names must be distinct and not "raw"');
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const schema = `gql_exec_${process.pid}_${randomBytes(3).toString('hex')}`;
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    await admin.query(`create schema "${schema}"`);
    const url = new URL(PG_URL);
    url.searchParams.set('schema', schema);
    const db = url.toString();
    const first = portico[0] as { name: string; script: string };
    process.stderr.write(`Preparing ${schema} (migrated and seeded by ${first.name}, then ${POSTS} posts and ${COMMENTS} comments) …\n`);
    const setup = await startChildServer(first.script, db, PORTICO_ENV);
    await logIn(setup.url).finally(() => setup.stop());
    await admin.query(`set search_path to "${schema}"`);
    await seedPostgres(admin, await aliceId(admin));
    const sides = [{ name: 'raw', script: RAW_SERVER, env: {} }, ...portico.map((p) => ({ ...p, env: PORTICO_ENV }))];
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`round ${round + 1} of ${ROUNDS}\n`);
      // Raw first, then the Portico servers in an order rotated each round.
      const order = ['raw', ...names.slice(round % names.length), ...names.slice(0, round % names.length)];
      rounds.push(
        await withServers(sides, db, async (servers) => {
          const server = (name: string): ChildServer => servers.get(name) as ChildServer;
          // One token for every side (Portico's token is a row the raw server reads too).
          const token = await logIn(server(first.name).url);
          const expected = await answer('raw', server('raw'), token);
          for (const name of order) {
            process.stderr.write(`  warming ${name} …\n`);
            if ((await answer(name, server(name), token)) !== expected) throw new Error(`${name} answers differently from raw`);
            await fire(server(name).url, WARMUP_SECONDS, token);
          }
          const windows = new Map<string, Window[]>(order.map((name) => [name, []]));
          for (let pass = 0; pass < ALTERNATIONS; pass++) {
            for (const name of order) {
              const window = await measure(server(name), token);
              windows.get(name)?.push(window);
              process.stderr.write(`  ${name}: ${window.requestsPerSecond.toFixed(0)} req/s, ${window.cpuMicrosPerRequest?.toFixed(0) ?? '—'} µs CPU a request\n`);
            }
          }
          for (const name of order) if ((await answer(name, server(name), token)) !== expected) throw new Error(`${name} answers differently from raw after the load`);
          const rate = (name: string) => mean((windows.get(name) ?? []).map((w) => w.requestsPerSecond));
          const raw = rate('raw');
          return Object.fromEntries(
            order.map((name) => {
              const own = windows.get(name) ?? [];
              const cpu = own.every((w) => w.cpuMicrosPerRequest !== undefined) ? mean(own.map((w) => w.cpuMicrosPerRequest as number)) : undefined;
              return [name, { requestsPerSecond: rate(name), cpuMicrosPerRequest: cpu, windows: own, ratio: rate(name) / raw }];
            }),
          );
        }),
      );
    }
    report(rounds, ['raw', ...names], loadAtStart);
  } finally {
    await admin.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
}

function report(rounds: readonly Round[], names: readonly string[], loadAtStart: number): void {
  const f0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '—' : n.toFixed(0));
  const f2 = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(2));
  const header = ['round', ...names.flatMap((n) => [`${n} req/s`, `${n} CPU µs`, ...(n === 'raw' ? [] : [`${n}/raw`])])];
  const rows = rounds.map((round, i) => [String(i + 1), ...names.flatMap((n) => {
    const side = round[n] as SideRound;
    return [f0(side.requestsPerSecond), f0(side.cpuMicrosPerRequest), ...(n === 'raw' ? [] : [f2(side.ratio)])];
  })]);
  const medians = ['median', ...names.flatMap((n) => {
    const sides = rounds.map((r) => r[n] as SideRound);
    return [f0(median(sides.map((s) => s.requestsPerSecond))), f0(median(sides.map((s) => s.cpuMicrosPerRequest ?? NaN))), ...(n === 'raw' ? [] : [f2(median(sides.map((s) => s.ratio)))])];
  })];
  const machine = `${cpus().length} CPUs ${cpuModelOf()}, Node ${process.version}, load average ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end`;
  const table = [header, ...rows, medians].map((r) => `| ${r.join(' | ')} |`);
  table.splice(1, 0, `|${header.map(() => '---').join('|')}|`);
  const text = [`GraphQL executors: ${QUERY}, PostgreSQL, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up, ${ALTERNATIONS} × ${DURATION_SECONDS} s windows a round`, machine, '', ...table].join('\n');
  console.log(`\n${text}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}graphql-executors.md`, `${text}\n`);
  writeFileSync(`${RESULTS_DIR}graphql-executors.json`, `${JSON.stringify({ date: new Date().toISOString(), machine, query: QUERY, rounds }, null, 2)}\n`);
}

run().catch((error: unknown) => {
  console.error(`graphql-executors bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
