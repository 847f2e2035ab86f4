/**
 * The admin list page on a 100 000-row table (docs/admin.md "List"): the first page, and a
 * filtered + sorted page, each timed over BENCH_ADMIN_REQUESTS requests (default 20, after 5
 * warm-up requests; the median and p90 are reported) with the statements of one request counted
 * from knex's `query` events (every statement the request sends: session, identity, count, page,
 * the foreign-key labels, the filter choices).
 *
 * The app is createApp + sessions() + security() + auth() + admin() on a SQLite file (and on a
 * fresh PostgreSQL schema when PORTICO_TEST_PG or postgres://postgres@127.0.0.1:5432/test
 * answers); a superuser signs in through the form login route, as a browser would.
 *
 *   npm run bench:admin          (BENCH_ADMIN_ROWS, default 100000; BENCH_ADMIN_REQUESTS, default 20)
 *
 * Writes bench/results/admin.{json,md}.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { admin, auth, c, createApp, defineModel, MemoryMailer, security, sessions, type Plugin, type PorticoApp } from '../src/index.js';

const ROWS = Number(process.env.BENCH_ADMIN_ROWS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_ADMIN_REQUESTS ?? 20);
const WARMUP = 5;
const CHUNK = 1000;
const OWNERS = 50;
const PG_URL = process.env.PORTICO_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const PASSWORD = 'bench-admin-password-1';

const owner = defineModel('bench_owner', { id: c.id(), name: c.text() });
const item = defineModel('bench_item', {
  id: c.id(),
  title: c.text(),
  note: c.text().nullable(),
  published: c.bool().default(false),
  owner_id: c.fk('bench_owner'),
  score: c.int().default(0),
  created_at: c.timestamp().defaultNow(),
});

/** The superuser, and `GET /bench/csrf` handing out the CSRF token the form login needs. */
const benchSetup: Plugin = {
  name: 'bench-admin-setup',
  install: async (ctx) => {
    if ((await ctx.store.count('auth_user')) === 0) {
      await ctx.store.insert('auth_user', { username: 'root', email: 'root@example.com', password_hash: await ctx.hasher.hash(PASSWORD), is_staff: true, is_superuser: true, email_verified_at: ctx.clock.now() });
    }
    ctx.route({ method: 'GET', path: '/bench/csrf', handler: (req) => ({ status: 200, body: { token: req.csrfToken ?? '' } }) });
  },
};

function buildApp(database: string): PorticoApp {
  return createApp({ database, models: [owner, item], autoMigrate: true, logRequests: false, mailer: new MemoryMailer() })
    .use(benchSetup)
    .use(sessions())
    .use(security())
    .use(auth({ throttle: false }))
    .use(
      admin({
        models: {
          bench_item: {
            listDisplay: ['title', 'owner_id', 'published', 'score', 'created_at'],
            searchFields: ['title'],
            listFilter: ['published', 'owner_id', 'created_at'],
            ordering: '-created_at',
          },
        },
      }),
    );
}

async function seed(app: PorticoApp): Promise<number> {
  const start = performance.now();
  await app.store.insertMany('bench_owner', Array.from({ length: OWNERS }, (_, i) => ({ name: `Owner ${i + 1}` })));
  const base = Date.UTC(2024, 0, 1);
  for (let from = 0; from < ROWS; from += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, ROWS - from) }, (_, j) => {
      const i = from + j;
      return { title: `Item ${i + 1}`, note: i % 3 === 0 ? null : `note ${i + 1}`, published: i % 2 === 0, owner_id: 1 + (i % OWNERS), score: (i * 7919) % 1000, created_at: new Date(base + i * 60_000) };
    });
    await app.store.transaction((tx) => tx.insertMany('bench_item', rows));
  }
  return (performance.now() - start) / 1000;
}

/** Signs the superuser in through `POST /auth/login` (a form post with the CSRF token); returns the Cookie header. */
async function signIn(url: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const t = await fetch(`${url}/bench/csrf`);
  keep(t);
  const { token } = (await t.json()) as { token: string };
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ username: 'root', password: PASSWORD, csrf_token: token }).toString(),
  });
  keep(res);
  if (res.status !== 303 || !jar.has('portico_session')) throw new Error(`login failed: ${res.status}`);
  return cookie();
}

interface PageResult {
  readonly backend: string;
  readonly page: string;
  readonly path: string;
  readonly rows: number;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly statements: number;
  readonly statementList: readonly string[];
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function measure(app: PorticoApp, url: string, cookie: string, backend: string, page: string, path: string): Promise<PageResult> {
  const knex = app.db.sql?.knex;
  if (!knex) throw new Error('SQL backend expected');
  const get = async () => {
    const res = await fetch(`${url}${path}`, { headers: { cookie }, redirect: 'manual' });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  for (let i = 0; i < WARMUP; i++) await get();
  const statements: string[] = [];
  const listen = (q: { sql: string }) => void statements.push(q.sql);
  knex.on('query', listen);
  const html = await get();
  knex.removeListener('query', listen);
  const rows = (html.match(/<th scope="row">/g) ?? []).length;
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    await get();
    times.push(performance.now() - start);
  }
  return { backend, page, path, rows, medianMs: quantile(times, 0.5), p90Ms: quantile(times, 0.9), statements: statements.length, statementList: statements };
}

async function runOn(backend: string, database: string): Promise<{ results: PageResult[]; seedSeconds: number }> {
  const app = buildApp(database);
  const { url } = await app.listen(0, '127.0.0.1');
  try {
    const seedSeconds = await seed(app);
    const cookie = await signIn(url);
    const results = [
      await measure(app, url, cookie, backend, 'first page', '/admin/bench_item'),
      await measure(app, url, cookie, backend, 'filtered + sorted', '/admin/bench_item?published=true&owner_id=7&o=-score'),
      await measure(app, url, cookie, backend, 'search + sorted, page 3', '/admin/bench_item?q=Item+99&o=title&p=3'),
    ];
    return { results, seedSeconds };
  } finally {
    await app.close();
  }
}

async function pgAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

const all: PageResult[] = [];
const seeds: Record<string, number> = {};

mkdirSync('bench/.tmp', { recursive: true });
const file = `bench/.tmp/admin-${process.pid}.db`;
try {
  const sqlite = await runOn('SQLite (file)', `sqlite:${file}`);
  all.push(...sqlite.results);
  seeds['SQLite (file)'] = sqlite.seedSeconds;
} finally {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}
if (await pgAvailable()) {
  const schema = `bench_admin_${process.pid}`;
  try {
    const res = await runOn('PostgreSQL', `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`);
    all.push(...res.results);
    seeds.PostgreSQL = res.seedSeconds;
  } finally {
    await dropSchema(schema);
  }
} else {
  console.log(`PostgreSQL at ${PG_URL} not reachable: SQLite only.`);
}

const header = `Admin list page on ${ROWS.toLocaleString('en')} rows (median and p90 of ${REQUESTS} sequential requests after ${WARMUP} warm-up; statements of one request; Node ${process.version})`;
const lines = [
  '| backend | page | URL | rows shown | median ms | p90 ms | statements |',
  '|---|---|---|---:|---:|---:|---:|',
  ...all.map((r) => `| ${r.backend} | ${r.page} | \`${r.path}\` | ${r.rows} | ${r.medianMs.toFixed(1)} | ${r.p90Ms.toFixed(1)} | ${r.statements} |`),
];
const seedLine = Object.entries(seeds).map(([b, s]) => `${b}: ${s.toFixed(1)} s`).join(', ');
console.log(`\n${header}\n\n${lines.join('\n')}\n\nSeeding (insertMany in chunks of ${CHUNK}): ${seedLine}\n`);
for (const r of all) console.log(`${r.backend} / ${r.page}:\n${r.statementList.map((s, i) => `  ${i + 1}. ${s.length > 160 ? `${s.slice(0, 160)}…` : s}`).join('\n')}`);

mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/admin.json', `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows: ROWS, requests: REQUESTS, warmup: WARMUP, seedSeconds: seeds, results: all }, null, 2)}\n`);
writeFileSync(
  'bench/results/admin.md',
  `# ${header}\n\n${lines.join('\n')}\n\nSeeding (insertMany in chunks of ${CHUNK}): ${seedLine}.\n\n## Statements of one request\n\n${all.map((r) => `### ${r.backend}: ${r.page}\n\n${r.statementList.map((s, i) => `${i + 1}. \`${s.replace(/`/g, "'")}\``).join('\n')}\n`).join('\n')}`,
);
