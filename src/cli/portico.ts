import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { cryptoRandomSource } from '../adapters/system/crypto-random-source.js';
import { systemClock } from '../adapters/system/system-clock.js';
import { SessionManager } from '../application/auth/session-manager.js';
import type { PorticoApp } from '../composition/portico-app.js';

const USAGE = `usage: portico migrate --app <module> [--db <url>] [--list]
       portico worker --app <module> [--db <url>] [--grace-ms <ms>]
       portico clearsessions --app <module> [--db <url>]   (removes expired sessions)
  --app       a module whose default export is a PorticoApp or a function (databaseUrl) => PorticoApp
  --db        database address (default: $DATABASE_URL)
  --list      print applied and pending migrations instead of applying
  --grace-ms  on SIGTERM/SIGINT, how long running jobs may finish before they are released (default 10000)`;

/**
 * `portico migrate`: applies (or lists) the app's migrations, recorded in fw_migrations; `portico
 * worker` runs the app's tasks; `portico clearsessions` removes expired sessions (as Django's).
 */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { app: { type: 'string' }, db: { type: 'string' }, list: { type: 'boolean' }, help: { type: 'boolean' }, 'grace-ms': { type: 'string' } },
  });
  const command = positionals[0];
  if (values.help || (command !== 'migrate' && command !== 'worker' && command !== 'clearsessions') || !values.app) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  // The tasks() plugin runs its worker in this process whatever the app's own default.
  if (command === 'worker') process.env.PORTICO_TASK_WORKER = '1';
  const database = values.db ?? process.env.DATABASE_URL;
  const mod = (await import(pathToFileURL(resolve(values.app)).href)) as { default?: unknown };
  const exported = mod.default;
  const app = (typeof exported === 'function' ? (exported as (db?: string) => PorticoApp)(database) : exported) as PorticoApp | undefined;
  if (!app || typeof app.migrate !== 'function') {
    console.error('portico: the --app module must export a PorticoApp or a function returning one');
    return 2;
  }
  if (command === 'worker') return work(app, Number(values['grace-ms'] ?? 10_000));
  try {
    await app.open();
    if (command === 'clearsessions') {
      const removed = await new SessionManager(app.store, systemClock, cryptoRandomSource).purgeExpired();
      console.log(`removed ${removed} expired session${removed === 1 ? '' : 's'}`);
      return 0;
    }
    if (values.list) {
      for (const name of await app.db.executed()) console.log(`[x] ${name}`);
      for (const name of await app.db.pending()) console.log(`[ ] ${name}`);
      return 0;
    }
    const applied = await app.migrate();
    console.log(applied.length === 0 ? 'No pending migrations.' : applied.map((n) => `applied ${n}`).join('\n'));
    return 0;
  } finally {
    await app.close();
  }
}

/**
 * `portico worker`: starts the app without serving HTTP, so its tasks() plugin claims and runs
 * jobs, until SIGTERM or SIGINT; then closes it (running jobs get `graceMs`, the rest are released).
 */
async function work(app: PorticoApp, graceMs: number): Promise<number> {
  await app.start();
  console.log(`portico worker: running (pid ${process.pid})`);
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  console.log(`portico worker: ${signal}, stopping`);
  await app.close(graceMs);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`portico: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    process.exit(1);
  },
);
