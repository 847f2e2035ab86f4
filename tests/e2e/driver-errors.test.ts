import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as portico from '../../src/index.js';
import { tasks, type Logger, type PorticoApp } from '../../src/index.js';
import { driftedApp } from '../support/drifted-app.mjs';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startNode, stop } from '../support/spawn-node.js';

/**
 * Errors never end the process (issue 45, item 2). The reported crash: on SQLite, a model that
 * declares a column its table lacks (the model changed, the database was not migrated) made a
 * REST POST carrying that column end the whole process with node-sqlite3's `error` event, thrown
 * as an uncaught exception. Every driver error must be answered instead (500 without driver
 * text), and the process must serve the next request; a process guard logs what still escapes.
 */
const pg = await postgresAvailable();
const tmp = mkdtempSync(join(tmpdir(), 'portico-driver-errors-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HOST = 'tests/support/drifted-host.mjs';
const GENERIC_500 = { type: 'urn:portico:error:internal_error', title: 'Internal Server Error', status: 500, detail: 'An unexpected error occurred.', code: 'internal_error' };
/** What a driver's message would leak: its name, the column, the words of SQLite's and PostgreSQL's messages. */
const DRIVER_TEXT = /sqlite|pages|review|column|relation|no such|does not exist/i;

type Backend = 'sqlite' | 'postgresql';
const BACKENDS: { backend: Backend; skip: boolean }[] = [
  { backend: 'sqlite', skip: false },
  { backend: 'postgresql', skip: !pg },
];

/** A database of the `before` models: `shelf`, and `book` without `pages`, with one row each. */
async function databaseBefore(backend: Backend, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = backend === 'postgresql' ? freshPgSchema() : undefined;
  const url = schema?.url ?? `sqlite:${join(tmp, `${name}.db`)}`;
  const app = buildApp(url, 'before');
  await app.start();
  await app.store.insert('shelf', { name: 'first' });
  await app.store.insert('book', { title: 'first' });
  await app.close();
  return { url, drop: async () => schema?.drop() };
}

/** The host app of tests/support/drifted-host.mjs, in this process, with two tasks. */
function buildApp(database: string, stage: 'before' | 'after', logger?: Logger): PorticoApp {
  return driftedApp(portico, database, stage, logger ? { logger } : {})
    .use(
      tasks({ pollMs: 50 })
        .define('write_pages', async (_payload, ctx) => void (await ctx.store.insert('book', { title: 'by a task', pages: 5 })), { retries: 0 })
        .define('write_shelf', async (_payload, ctx) => void (await ctx.store.insert('shelf', { name: 'by a task' }))),
    );
}

/** Collects what the app logs at warn and error level. */
class CollectingLogger implements Logger {
  readonly errors: { obj: Record<string, unknown>; msg: string | undefined }[] = [];
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(obj: object, msg?: string): void {
    this.errors.push({ obj: obj as Record<string, unknown>, msg });
  }
}

async function send(url: string, method: string, body?: unknown): Promise<{ status: number; text: string; json: unknown }> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** The answer the refused write must get: 500, the generic problem body, nothing of the driver's message. */
function expectGeneric500(answer: { status: number; text: string; json: unknown }): void {
  expect(answer.status).toBe(500);
  expect(answer.json).toEqual(GENERIC_500);
  expect(answer.text).not.toMatch(DRIVER_TEXT);
}

/** The process (or app) still serves: liveness, and a list of the table the models and the schema agree on. */
async function expectServing(url: string): Promise<void> {
  expect((await send(`${url}/healthz`, 'GET')).status).toBe(200);
  const shelves = await send(`${url}/api/shelf/`, 'GET');
  expect(shelves.status).toBe(200);
  expect((shelves.json as { count: number }).count).toBeGreaterThanOrEqual(1);
}

describe.each(BACKENDS)('$backend, in process: a model ahead of its table', ({ backend, skip }) => {
  let app: PorticoApp;
  let url: string;
  let drop: () => Promise<void> = async () => undefined;
  const logger = new CollectingLogger();

  beforeAll(async () => {
    if (skip) return;
    const db = await databaseBefore(backend, 'in-process');
    drop = db.drop;
    app = buildApp(db.url, 'after', logger);
    ({ url } = await app.listen(0));
  });
  afterAll(async () => {
    await app?.close();
    await drop();
  });

  it.skipIf(skip)('a REST create or update carrying the missing column answers 500 with the generic body; the driver error is logged; the next request is served', async () => {
    expectGeneric500(await send(`${url}/api/book/`, 'POST', { title: 'new', pages: 3 }));
    expectGeneric500(await send(`${url}/api/book/1`, 'PATCH', { pages: 4 }));
    await expectServing(url);
    const failed = logger.errors.filter((e) => e.msg === 'request failed');
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect(String((failed[0]?.obj.err as Error | undefined)?.message)).toMatch(/pages/);
  });

  it.skipIf(skip)('the same write sent eight times at once: every one answers 500, none waits forever', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => send(`${url}/api/book/`, 'POST', { title: `at once ${i}`, pages: i })));
    for (const answer of answers) expectGeneric500(answer);
    await expectServing(url);
  });

  it.skipIf(skip)('a read or a write of a model whose table does not exist answers 500 with the generic body', async () => {
    expectGeneric500(await send(`${url}/api/review/`, 'GET'));
    expectGeneric500(await send(`${url}/api/review/`, 'POST', { body: 'new' }));
    await expectServing(url);
  });

  it.skipIf(skip)('reads of the table answer (a row, or 500 with the generic body) and the next request is served', async () => {
    for (const path of ['/api/book/', '/api/book/?pages__gt=1', '/api/book/1']) {
      const answer = await send(`${url}${path}`, 'GET');
      if (answer.status !== 200) expectGeneric500(answer);
      if (backend === 'postgresql') expect(answer.status, path).toBe(500);
    }
    await expectServing(url);
  });

  it.skipIf(skip)('a GraphQL mutation carrying the missing column answers INTERNAL_SERVER_ERROR without driver text', async () => {
    const answer = await send(`${url}/graphql`, 'POST', { query: 'mutation { createBook(data: { title: "by graphql", pages: 3 }) { id } }' });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ data: { createBook: null }, errors: [{ message: 'An unexpected error occurred.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    expect(answer.text).not.toMatch(DRIVER_TEXT);
    await expectServing(url);
  });

  it.skipIf(skip)('a task writing the missing column ends as a dead job, and the worker runs the next job', async () => {
    const { id } = await app.tasks.enqueue('write_pages');
    expect(await settled(app, id)).toMatchObject({ state: 'dead', lastError: expect.stringMatching(/pages/) });
    const next = await app.tasks.enqueue('write_shelf');
    expect(await settled(app, next.id)).toMatchObject({ state: 'succeeded' });
    await expectServing(url);
  });
});

/** The job once the worker is done with it (dead or succeeded). */
async function settled(app: PorticoApp, id: number): Promise<{ state: string; lastError: string | null }> {
  for (;;) {
    const job = await app.tasks.get(id);
    if (job && (job.state === 'dead' || job.state === 'succeeded')) return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a committed listener that throws', () => {
  it('is logged where it is called; the listeners after it still hear the event, the write answers 201, the app serves on', async () => {
    const logger = new CollectingLogger();
    const app = buildApp('sqlite::memory:', 'before', logger);
    const { url } = await app.listen(0);
    try {
      const heard: string[] = [];
      app.events.onCommitted('post_save', 'shelf', () => {
        throw new Error('a committed listener failed');
      });
      app.events.onCommitted('post_save', 'shelf', (e) => void heard.push(`shelf:${String(e.row.name)}`));
      app.events.onCommitted('post_save', '*', (e) => void heard.push(`any:${e.table}`));
      const created = await send(`${url}/api/shelf/`, 'POST', { name: 'listened' });
      expect(created.status).toBe(201);
      expect(heard).toEqual(['shelf:listened', 'any:shelf']);
      expect(logger.errors).toEqual([{ obj: { err: new Error('a committed listener failed') }, msg: 'post_save on shelf failed after commit' }]);
      await expectServing(url);
    } finally {
      await app.close();
    }
  });
});

/** A started host process (tests/support/drifted-host.mjs) and its log lines. */
interface Host {
  readonly child: ChildProcess;
  readonly url: string;
  /** The JSON log lines printed so far. */
  logs(): LogLine[];
}
interface LogLine {
  readonly level: number;
  readonly msg?: string;
  readonly err?: { readonly message?: string; readonly code?: string };
}

async function startHost(database: string, stage: 'before' | 'after', env: NodeJS.ProcessEnv = {}): Promise<Host> {
  const { child, match, output } = await startNode([HOST, database, stage], /listening: (http:\/\/\S+)/, 30_000, { LOG_LEVEL: 'error', ...env });
  const logs = (): LogLine[] => output().split('\n').flatMap((line) => (line.startsWith('{"level"') ? [JSON.parse(line) as LogLine] : []));
  return { child, url: match[1] as string, logs };
}

/** The log line whose error carries `message`, once the host has printed it (the host must stay up meanwhile). */
async function loggedError(host: Host, message: string): Promise<LogLine> {
  for (;;) {
    const line = host.logs().find((l) => l.err?.message === message);
    if (line) return line;
    if (host.child.exitCode !== null || host.child.signalCode !== null) throw new Error(`the host exited (${String(host.child.exitCode ?? host.child.signalCode)}) before logging "${message}"`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const UNCAUGHT = 'uncaught exception (the process keeps serving)';
const UNHANDLED = 'unhandled promise rejection (the process keeps serving)';

describe.each(BACKENDS)('$backend, a host process: the write that used to end it', ({ backend, skip }) => {
  it.skipIf(skip)('answers 500 with the generic body, the process serves the next requests and stops cleanly', async () => {
    const db = await databaseBefore(backend, 'host-process');
    const host = await startHost(db.url, 'after');
    try {
      expectGeneric500(await send(`${host.url}/api/book/`, 'POST', { title: 'new', pages: 3 }));
      expectGeneric500(await send(`${host.url}/api/book/1`, 'PATCH', { pages: 4 }));
      expectGeneric500(await send(`${host.url}/api/review/`, 'GET'));
      const mutation = await send(`${host.url}/graphql`, 'POST', { query: 'mutation { createBook(data: { title: "g", pages: 1 }) { id } }' });
      expect(mutation.json).toMatchObject({ errors: [{ extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
      await expectServing(host.url);
      // Answered where it arose: the driver error is the request's, not the process guard's.
      expect(host.logs().filter((l) => l.msg === 'request failed').length).toBeGreaterThanOrEqual(2);
      expect(host.logs().filter((l) => l.msg === UNCAUGHT || l.msg === UNHANDLED)).toEqual([]);
    } finally {
      expect(await stop(host.child)).toBe(0);
      await db.drop();
    }
  });
});

describe('the process guard, in a host process', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost('sqlite::memory:', 'before');
  });
  afterAll(async () => {
    expect(await stop(host.child)).toBe(0);
  });

  it('a committed listener that throws is logged as the delivery that failed; the write answers 201', async () => {
    expect((await send(`${host.url}/api/shelf/`, 'POST', { name: 'listener throws' })).status).toBe(201);
    expect(await loggedError(host, 'a committed listener failed')).toMatchObject({ level: 50, msg: 'post_save on shelf failed after commit' });
    await expectServing(host.url);
  });

  it('a rejection nobody handles is logged at error level, with the error, and the process keeps serving', async () => {
    expect((await send(`${host.url}/api/shelf/`, 'POST', { name: 'unhandled rejection' })).status).toBe(201);
    expect(await loggedError(host, 'a rejection nobody handles')).toMatchObject({ level: 50, msg: UNHANDLED });
    await expectServing(host.url);
  });

  it('an exception thrown outside every promise chain (a listener\'s timer) is logged, and the process keeps serving', async () => {
    expect((await send(`${host.url}/api/shelf/`, 'POST', { name: 'uncaught exception' })).status).toBe(201);
    expect(await loggedError(host, 'an exception nobody catches')).toMatchObject({ level: 50, msg: UNCAUGHT });
    await expectServing(host.url);
  });
});

describe('processGuard: false', () => {
  it("leaves the process to Node's default: the same unhandled rejection ends it", async () => {
    const host = await startHost('sqlite::memory:', 'before', { PROCESS_GUARD: 'off' });
    const exited = new Promise<number | null>((resolve) => {
      if (host.child.exitCode !== null) resolve(host.child.exitCode);
      else host.child.once('exit', (code) => resolve(code));
    });
    // The process may end before it answers.
    await send(`${host.url}/api/shelf/`, 'POST', { name: 'unhandled rejection' }).catch(() => undefined);
    expect(await exited).toBe(1);
    expect(host.logs().filter((l) => l.msg === UNHANDLED)).toEqual([]);
  });
});
