import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { PorticoApp } from '../composition/portico-app.js';

const USAGE = `usage: portico migrate --app <module> [--db <url>] [--list]
  --app   a module whose default export is a PorticoApp or a function (databaseUrl) => PorticoApp
  --db    database address (default: $DATABASE_URL)
  --list  print applied and pending migrations instead of applying`;

/** `portico migrate`: applies (or lists) the app's migrations, recorded in fw_migrations. */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { app: { type: 'string' }, db: { type: 'string' }, list: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  if (values.help || positionals[0] !== 'migrate' || !values.app) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const database = values.db ?? process.env.DATABASE_URL;
  const mod = (await import(pathToFileURL(resolve(values.app)).href)) as { default?: unknown };
  const exported = mod.default;
  const app = (typeof exported === 'function' ? (exported as (db?: string) => PorticoApp)(database) : exported) as PorticoApp | undefined;
  if (!app || typeof app.migrate !== 'function') {
    console.error('portico: the --app module must export a PorticoApp or a function returning one');
    return 2;
  }
  try {
    await app.open();
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`portico: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    process.exit(1);
  },
);
