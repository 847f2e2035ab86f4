import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { runNode, startNode, stop } from '../support/spawn-node.js';

const pg = await postgresAvailable();
const MAIN = 'dist/examples/reference/main.js';
const tmp = mkdtempSync(join(tmpdir(), 'portico-ref-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function servesProbes(db: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const { child, match } = await startNode([MAIN, '--port', '0', '--db', db], /home: +(http:\/\/[\d.]+:\d+)\//, 30_000, env);
  try {
    const base = match[1] as string;
    const live = await fetch(`${base}/healthz`);
    expect(live.status).toBe(200);
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    // On PostgreSQL the reference app's event bus (LISTEN/NOTIFY) is a check of its own.
    const checks = db.startsWith('postgres') ? { database: { status: 'ok' }, events: { status: 'ok' } } : { database: { status: 'ok' } };
    expect(await ready.json()).toEqual({ status: 'ok', checks });
    const home = await fetch(`${base}/`);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await home.text()).toContain('You are not signed in.');
    const login = await fetch(`${base}/login`);
    expect(await login.text()).toContain('action="/auth/login"');
    const authors = (await (await fetch(`${base}/api/author/`)).json()) as { results: { name: string }[] };
    expect(authors.results.map((a) => a.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
  } finally {
    expect(await stop(child)).toBe(0);
  }
}

describe('the reference app as a process (npm start / npm run reference)', () => {
  it('serves /healthz and /ready on a SQLite file, and again after a restart on the same file', async () => {
    const db = `sqlite:${join(tmp, 'nested', 'ref.db')}`;
    await servesProbes(db);
    await servesProbes(db);
  });

  // Issue 45: the reference app runs its own migrations at start in every NODE_ENV, so programs
  // that start it in production meet a migrated and seeded database, never a drift refusal.
  it('with NODE_ENV=production, migrates and seeds a fresh SQLite file and serves, and again after a restart', async () => {
    const db = `sqlite:${join(tmp, 'prod', 'ref.db')}`;
    const env = { NODE_ENV: 'production', PORTICO_SECRET: 'a-production-secret-of-enough-length-0123456789' };
    await servesProbes(db, env);
    await servesProbes(db, env);
  });

  it.skipIf(!pg)('serves /healthz and /ready on PostgreSQL', async () => {
    const schema = freshPgSchema();
    try {
      await servesProbes(schema.url);
    } finally {
      await schema.drop();
    }
  });

  it('exits non-zero with one clear line when PostgreSQL is unreachable at start', async () => {
    const r = await runNode([MAIN, '--port', '0', '--db', 'postgres://postgres:s3cret@127.0.0.1:1/test'], 20_000);
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual(['portico: cannot open the database at postgresql://127.0.0.1:1/test (connection refused)']);
    expect(r.stderr + r.stdout).not.toContain('s3cret');
  });

  it('exits non-zero with one clear line for an unsupported address', async () => {
    const r = await runNode([MAIN, '--db', 'mysql://localhost/x']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^portico: unsupported database address/);
  });
});
