import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { PorticoApp } from '../composition/portico-app.js';
import type { ColumnRename } from '../domain/model/schema-state.js';

// The command imports nothing of Portico's at run time: it drives the host's app through the
// app's own methods (`app.management`), so it never runs a second copy of Portico beside the host's.

const USAGE = `usage: portico <command> [--app <module>] [--db <url>] [options]

commands:
  makemigrations   write a migration for every model change (--dir, --name, --rename table.old=new, --check)
  migrate          apply pending migrations (--to <name|number|zero>, --plan to print the SQL instead)
  showmigrations   list migrations, [x] applied, [ ] pending
  createsuperuser  create a staff superuser (--username, --email; --no-input reads $PORTICO_SUPERUSER_PASSWORD)
  clearsessions    remove expired sessions and password reset links that can no longer be used
  rotate-keys      re-seal stored provider tokens with the first of TOKEN_KEYS (socialLogin)
  collectstatic    write hashed, compressed copies of the static files and their manifest (staticFiles)
  worker           run the app's tasks until SIGTERM or SIGINT (--grace-ms, default 10000)
  jobs list        the newest jobs first (--state, --queue, --limit; default 50)
  jobs retry <id>  run a dead job again, with fresh attempts
  jobs cancel <id> end a job that has not started (queued, or waiting for a retry)
  gen-client       write a typed REST client from the app's OpenAPI document (--out <file>;
                   --check exits 1 when the file differs from what would be written)

options:
  --app        a module whose default export is a PorticoApp or a function (databaseUrl) => PorticoApp
               (sync or async); default: portico.config.js (or .mjs) in the working directory
  --db         database address passed to that function (default: $DATABASE_URL)
  --out        the file gen-client writes (e.g. src/api.ts)
  --dir        the migrations folder (default: the app's migrations option, else ./migrations)
  --create-db  create the PostgreSQL database or SQLite folder if it does not exist
  --no-input   never prompt`;

const CONFIGS = ['portico.config.js', 'portico.config.mjs'];

/** Thrown for a mistake in the command line: the usage is printed, exit 2. */
class UsageError extends Error {}

/** The host app from `--app`, else portico.config.*: its default export, called when it is a function. */
async function loadApp(appOption: string | undefined, database: string | undefined): Promise<PorticoApp> {
  const module = appOption ?? CONFIGS.find((name) => existsSync(resolve(name)));
  if (!module) throw new UsageError(`no --app given and no ${CONFIGS.join(' or ')} in ${process.cwd()}`);
  const mod = (await import(pathToFileURL(resolve(module)).href)) as { default?: unknown };
  const exported = mod.default;
  const app = (await (typeof exported === 'function' ? (exported as (db?: string) => unknown)(database) : exported)) as PorticoApp | undefined;
  if (!app || typeof app.migrate !== 'function' || typeof app.open !== 'function') {
    throw new UsageError(`${module} must export (default) a PorticoApp or a function returning one`);
  }
  return app;
}

function parseRenames(values: readonly string[]): ColumnRename[] {
  return values.map((text) => {
    const match = /^([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)=([a-z_][a-z0-9_]*)$/.exec(text);
    if (!match) throw new UsageError(`--rename takes table.old=new, got ${JSON.stringify(text)}`);
    return { table: match[1] as string, from: match[2] as string, to: match[3] as string };
  });
}

/** One line read from the terminal (echo off for secrets is left to the terminal: the prompt says so). */
async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await new Promise<string>((done) => rl.question(question, done));
  } finally {
    rl.close();
  }
}

const interactive = (noInput: boolean | undefined) => !noInput && process.stdin.isTTY === true;

async function makeMigrations(app: PorticoApp, dir: string, values: Values): Promise<number> {
  const renames = parseRenames(values.rename ?? []);
  const found = await app.management.makeMigrations({ dir, renames, check: true });
  for (const r of found.possibleRenames) {
    if (interactive(values['no-input']) && /^y(es)?$/i.test((await ask(`Was ${r.table}.${r.from} renamed to ${r.table}.${r.to}? [y/N] `)).trim())) renames.push(r);
    else console.error(`note: ${r.table}.${r.from} is dropped and ${r.table}.${r.to} added; if it is a rename, run again with --rename ${r.table}.${r.from}=${r.to}`);
  }
  if (values.check) {
    console.log(found.operations.length === 0 ? 'No changes detected.' : `Changes not yet in a migration: ${found.operations.flat().length} operation(s).`);
    return found.operations.length === 0 ? 0 : 1;
  }
  const made = await app.management.makeMigrations({ dir, renames, ...(values.name ? { name: values.name } : {}) });
  if (made.written.length === 0) console.log('No changes detected.');
  for (const w of made.written) console.log(`wrote ${w.file} (${w.name})`);
  return 0;
}

async function migrate(app: PorticoApp, values: Values): Promise<number> {
  const to = values.to === undefined ? undefined : app.management.migrationTarget(values.to);
  if (values.plan) {
    const plan = await app.management.plan(to);
    if (plan.length === 0) console.log('No pending migrations.');
    for (const entry of plan) console.log([`-- ${entry.direction === 'up' ? 'apply' : 'reverse'} ${entry.name}`, ...entry.steps].join('\n'));
    return 0;
  }
  // A target already applied means going back to it: the migrations after it are reversed.
  const back = to !== undefined && (await app.db.executed()).includes(to);
  const done = await app.migrate(to);
  console.log(done.length === 0 ? 'No pending migrations.' : done.map((n) => `${back ? 'reversed' : 'applied'} ${n}`).join('\n'));
  return 0;
}

async function createSuperuser(app: PorticoApp, values: Values): Promise<number> {
  const prompt = interactive(values['no-input']);
  const username = values.username ?? (prompt ? (await ask('Username: ')).trim() : undefined);
  const email = values.email ?? (prompt ? (await ask('Email: ')).trim() : undefined);
  if (!username || !email) throw new UsageError('createsuperuser needs --username and --email (or a terminal to ask)');
  let password = values['no-input'] || !prompt ? process.env.PORTICO_SUPERUSER_PASSWORD : undefined;
  if (password === undefined) {
    if (!prompt) throw new UsageError('createsuperuser --no-input reads the password from $PORTICO_SUPERUSER_PASSWORD, which is not set');
    password = await ask('Password (it is shown as typed): ');
    if ((await ask('Password (again): ')) !== password) {
      console.error('portico: the two passwords differ; nothing was created');
      return 1;
    }
  }
  const user = await app.management.createSuperuser({ username, email, password });
  console.log(`created superuser ${String(user.username)} (id ${String(user.id)})`);
  return 0;
}

const OPTIONS = {
  app: { type: 'string' },
  db: { type: 'string' },
  dir: { type: 'string' },
  to: { type: 'string' },
  name: { type: 'string' },
  out: { type: 'string' },
  rename: { type: 'string', multiple: true },
  username: { type: 'string' },
  email: { type: 'string' },
  'grace-ms': { type: 'string' },
  state: { type: 'string' },
  queue: { type: 'string' },
  limit: { type: 'string' },
  plan: { type: 'boolean' },
  list: { type: 'boolean' },
  check: { type: 'boolean' },
  'no-input': { type: 'boolean' },
  'create-db': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const COMMANDS = new Set(['makemigrations', 'migrate', 'showmigrations', 'createsuperuser', 'clearsessions', 'worker', 'jobs', 'gen-client', 'rotate-keys', 'collectstatic']);

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const command = positionals[0];
  if (values.help || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (!command || !COMMANDS.has(command)) throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : 'no command given');
  // The tasks() plugin runs its worker in this process whatever the app's own default; never for `jobs` or `gen-client`.
  if (command === 'worker' || command === 'jobs' || command === 'gen-client' || command === 'rotate-keys' || command === 'collectstatic') process.env.PORTICO_TASK_WORKER = command === 'worker' ? '1' : '0';
  const app = await loadApp(values.app, values.db ?? process.env.DATABASE_URL);
  if (values['create-db']) app.createDatabaseIfMissing();
  const folder = app.migrationsFolder;
  const dir = values.dir ?? (typeof folder === 'string' ? folder : folder ? folder.pathname : './migrations');
  // An app without a migrations folder of its own uses the one given (or ./migrations, once it exists).
  if (values.dir !== undefined || (folder === undefined && existsSync(resolve(dir)))) await app.useMigrations(resolve(dir));
  if (command === 'worker') return work(app, Number(values['grace-ms'] ?? 10_000));
  if (command === 'jobs') return jobs(app, positionals.slice(1), values);
  if (command === 'gen-client') return genClient(app, values);
  if (command === 'rotate-keys') return rotateKeys(app);
  if (command === 'collectstatic') return collectStaticFiles(app);
  try {
    // makemigrations reads the models; it opens the database only when it needs the ledger.
    if (command === 'makemigrations') await app.prepare();
    else await app.open();
    switch (command) {
      case 'makemigrations':
        return await makeMigrations(app, dir, values);
      case 'createsuperuser':
        return await createSuperuser(app, values);
      case 'clearsessions': {
        const removed = await app.management.clearSessions();
        console.log(`removed ${removed} expired session${removed === 1 ? '' : 's'}`);
        return 0;
      }
      case 'showmigrations':
        for (const m of await app.management.showMigrations()) console.log(`[${m.applied ? 'x' : ' '}] ${m.name}`);
        return 0;
      default:
        if (values.list) {
          for (const m of await app.management.showMigrations()) console.log(`[${m.applied ? 'x' : ' '}] ${m.name}`);
          return 0;
        }
        return await migrate(app, values);
    }
  } finally {
    await app.close();
  }
}

/** Starts the app (its plugins say what a command works on) without serving, runs `work`, prints its line, and closes. */
async function onStartedApp(app: PorticoApp, work: () => Promise<string>): Promise<number> {
  await app.start();
  try {
    console.log(await work());
    return 0;
  } finally {
    await app.close();
  }
}

/** `portico collectstatic`: staticFiles() says what it serves. */
const collectStaticFiles = (app: PorticoApp): Promise<number> =>
  onStartedApp(app, async () => {
    const { files, root } = await app.management.collectStatic();
    return `collected ${files} static file${files === 1 ? '' : 's'} into ${root}`;
  });

/** `portico rotate-keys`: socialLogin() reads its key set. */
const rotateKeys = (app: PorticoApp): Promise<number> =>
  onStartedApp(app, async () => {
    const { resealed, accounts } = await app.management.rotateKeys();
    return `re-sealed ${resealed} of ${accounts} provider account${accounts === 1 ? '' : 's'} with the first key`;
  });

/**
 * `portico gen-client --out <file> [--check]`: the app's typed REST client. The app starts (its
 * plugins say what REST serves) without serving HTTP or running tasks, and writes nothing.
 */
async function genClient(app: PorticoApp, values: Values): Promise<number> {
  if (!values.out) throw new UsageError('gen-client needs --out <file>, e.g. --out src/api.ts');
  const out = resolve(values.out);
  await app.start();
  let source: string;
  try {
    source = app.management.client();
  } finally {
    await app.close();
  }
  if (values.check) {
    const same = existsSync(out) && readFileSync(out, 'utf8') === source;
    console.log(same ? `${values.out} is up to date.` : `${values.out} differs from the client of the app's current REST surface; run portico gen-client --out ${values.out}`);
    return same ? 0 : 1;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, source);
  console.log(`wrote ${values.out}`);
  return 0;
}

/** `portico jobs list|retry|cancel`: the app's task queue, read and changed through `app.tasks`. */
async function jobs(app: PorticoApp, [action, id]: string[], values: Values): Promise<number> {
  if (action !== 'list' && action !== 'retry' && action !== 'cancel') throw new UsageError(`jobs takes list, retry <id> or cancel <id>${action ? `, not ${JSON.stringify(action)}` : ''}`);
  const jobId = Number(id);
  if (action !== 'list' && !(Number.isInteger(jobId) && jobId > 0)) throw new UsageError(`jobs ${action} takes a job id, got ${JSON.stringify(id ?? '')}`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  await app.start();
  try {
    if (action === 'retry' || action === 'cancel') {
      const done = action === 'retry' ? await app.tasks.retry(jobId) : await app.tasks.cancel(jobId);
      console.log(done ? `job ${jobId}: ${action === 'retry' ? 'queued again' : 'cancelled'}` : `job ${jobId}: not ${action === 'retry' ? 'dead' : 'waiting to run'} (see portico jobs list)`);
      return done ? 0 : 1;
    }
    const found = await app.tasks.list({ ...(values.state ? { state: values.state as never } : {}), ...(values.queue ? { queue: values.queue } : {}), ...(limit !== undefined ? { limit } : {}) });
    console.log(['id', 'name', 'queue', 'state', 'attempts', 'run at', 'last error'].join('\t'));
    for (const j of found) console.log([j.id, j.name, j.queue, j.state, `${j.attempts}/${j.maxAttempts}`, j.runAt.toISOString(), j.lastError ?? ''].join('\t'));
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
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`portico: ${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`portico: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    process.exit(1);
  },
);
