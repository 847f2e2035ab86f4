import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from '../support/spawn-node.js';

const CLI = 'bin/portico.js';
const APP = 'dist/examples/reference/app.js';
const tmp = mkdtempSync(join(tmpdir(), 'portico-clearsessions-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs `sql` on the SQLite file; resolves with the rows of a select. */
function sql<T>(file: string, text: string, params: unknown[] = []): Promise<T[]> {
  const db = new sqlite3.Database(file);
  return new Promise<T[]>((resolve, reject) => db.all(text, params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows)))).finally(
    () => new Promise<void>((r) => db.close(() => r())),
  );
}

describe('portico clearsessions', () => {
  it('removes the expired sessions and the ended reset links, and keeps the live ones', async () => {
    const file = join(tmp, 'c.db');
    expect((await runNode([CLI, 'migrate', '--app', APP, '--db', `sqlite:${file}`])).code).toBe(0);
    // Timestamps as the store writes them on SQLite: milliseconds since the epoch.
    const day = 24 * 60 * 60 * 1000;
    const stamp = (ms: number) => ms;
    for (const [hash, expires] of [['a'.repeat(64), Date.now() - day], ['b'.repeat(64), Date.now() - 1000], ['c'.repeat(64), Date.now() + day]] as const) {
      await sql(file, `insert into session (token_hash, user_id, data, created_at, expires_at) values (?, null, '{}', ?, ?)`, [hash, stamp(Date.now() - 2 * day), stamp(expires)]);
    }
    // Reset links: one live, one expired, one used, one ended by a newer request.
    const now = Date.now();
    await sql(file, `insert into auth_user (username, email, is_staff, is_superuser, is_active, date_joined) values ('u', 'u@example.com', 0, 0, 1, ?)`, [now]);
    for (const [hash, expires, used, ended] of [['live', now + day, null, null], ['expired', now - 1000, null, null], ['used', now + day, now, null], ['ended', now + day, null, now]] as const) {
      await sql(file, 'insert into auth_password_reset (user_id, token_hash, created_at, expires_at, used_at, invalidated_at) values (1, ?, ?, ?, ?, ?)', [hash, now - 1000, expires, used, ended]);
    }
    const run = await runNode([CLI, 'clearsessions', '--app', APP, '--db', `sqlite:${file}`]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe('removed 2 expired sessions');
    expect(await sql<{ token_hash: string }>(file, 'select token_hash from session')).toEqual([{ token_hash: 'c'.repeat(64) }]);
    expect(await sql<{ token_hash: string }>(file, 'select token_hash from auth_password_reset')).toEqual([{ token_hash: 'live' }]);
    expect((await runNode([CLI, 'clearsessions', '--app', APP, '--db', `sqlite:${file}`])).stdout.trim()).toBe('removed 0 expired sessions');
  });
});
