import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPgSchema, PG_URL, postgresAvailable } from '../support/postgres.js';
import { runNode } from '../support/spawn-node.js';

const pgUp = await postgresAvailable();
const CLI = 'bin/portico.js';
const APP = 'dist/examples/reference/app.js';
const NAMES = ['portico_0001_builtin_tables', 'portico_0002_idempotency_keys', 'portico_0003_event_payloads', 'portico_0004_task_queue', 'portico_0005_task_progress', 'portico_0006_password_reset', 'portico_0007_social_account', 'portico_0008_cache', 'reference_0001_initial', 'reference_0002_note', 'reference_0003_attachment'];
const tmp = mkdtempSync(join(tmpdir(), 'portico-mig-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function migrateFresh(db: string, ledger: () => Promise<string[]>): Promise<void> {
  const before = await runNode([CLI, 'migrate', '--app', APP, '--db', db, '--list']);
  expect(before.code).toBe(0);
  expect(before.stdout.trim().split('\n')).toEqual(NAMES.map((n) => `[ ] ${n}`));

  const applied = await runNode([CLI, 'migrate', '--app', APP, '--db', db]);
  expect(applied.code).toBe(0);
  expect(applied.stdout.trim().split('\n')).toEqual(NAMES.map((n) => `applied ${n}`));
  expect(await ledger()).toEqual(NAMES);

  const again = await runNode([CLI, 'migrate', '--app', APP, '--db', db]);
  expect(again.stdout.trim()).toBe('No pending migrations.');
  const after = await runNode([CLI, 'migrate', '--app', APP, '--db', db, '--list']);
  expect(after.stdout.trim().split('\n')).toEqual(NAMES.map((n) => `[x] ${n}`));
}

describe('portico migrate', () => {
  it('migrates a fresh SQLite database and records the run in fw_migrations', async () => {
    const file = join(tmp, 'm.db');
    await migrateFresh(`sqlite:${file}`, async () => {
      const sqlite3 = (await import('sqlite3')).default;
      const db = new sqlite3.Database(file);
      const rows = await new Promise<{ name: string }[]>((resolve, reject) =>
        db.all('select name from fw_migrations order by id', (err: Error | null, r: { name: string }[]) => (err ? reject(err) : resolve(r))),
      );
      await new Promise((resolve) => db.close(resolve));
      return rows.map((r) => r.name);
    });
  });

  it.skipIf(!pgUp)('migrates a fresh PostgreSQL schema and records the run in fw_migrations', async () => {
    const schema = freshPgSchema();
    try {
      await migrateFresh(schema.url, async () => {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        try {
          const r = await client.query<{ name: string }>(`select name from "${schema.schema}".fw_migrations order by id`);
          return r.rows.map((row) => row.name);
        } finally {
          await client.end();
        }
      });
    } finally {
      await schema.drop();
    }
  });

  it('explains its usage', async () => {
    const r = await runNode([CLI]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('portico: no command given');
    expect(r.stderr).toMatch(/usage: portico <command>[\s\S]*makemigrations[\s\S]*migrate[\s\S]*showmigrations[\s\S]*createsuperuser[\s\S]*clearsessions[\s\S]*worker/);
    const help = await runNode([CLI, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: portico <command>');
  });
});
