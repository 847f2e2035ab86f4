import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, describe, expect, it } from 'vitest';
import appOfTasks from '../../bench/tasks-app.js';
import { buildReferenceApp } from '../../examples/reference/app.js';
import { createApp, health, MemoryMailer, tasks, type MailMessage } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { ManualClock } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference } from '../support/reference-server.js';
import { runNode, startNode, stop } from '../support/spawn-node.js';
import { startWithoutWorker } from '../support/without-worker.js';

const pg = await postgresAvailable();
const tmp = mkdtempSync(join(tmpdir(), 'portico-tasks-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${seq++}`;
const password = 'correct horse battery staple';

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const backends: ('sqlite' | 'postgresql')[] = pg ? ['sqlite', 'postgresql'] : ['sqlite'];
describe.each(backends)('reference app signup welcome mail: %s', (backend) => {
  it('signup enqueues send_welcome in its transaction; the worker mails "Welcome to Portico"; a refused signup enqueues nothing', async () => {
    const ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    try {
      const username = unique('w');
      const email = `${username}@example.com`;
      expect((await new HttpClient(ref.url).json('/api/auth/signup', 'POST', { username, email, password })).status).toBe(201);
      const mail = await ref.mailer.waitFor((m: MailMessage) => m.kind === 'Welcome' && m.to === email, 15_000);
      expect(mail.subject).toBe('Welcome to Portico');
      expect(mail.text).toContain(username);
      await waitFor(async () => (await ref.app.tasks.stats()).queues['default']?.succeeded === 1, 'the job to succeed');
      // The same username again: refused, nothing enqueued.
      expect((await new HttpClient(ref.url).json('/api/auth/signup', 'POST', { username, email: `x${email}`, password })).status).toBe(400);
      expect((await ref.app.tasks.stats()).queues).toEqual({ default: { succeeded: 1 } });
    } finally {
      await ref.close();
    }
  });
});

describe('task retries on the reference app', () => {
  it('an SMTP failure fails the attempt; the job retries after its backoff and the mail goes out', async () => {
    const clock = new ManualClock(new Date());
    const outbox = new MemoryMailer();
    let failures = 1;
    const mailer = {
      async send(message: MailMessage) {
        if (message.kind === 'Welcome' && failures-- > 0) throw new Error('421 smtp://relay:s3cret@mail.example: service not available');
        await outbox.send(message);
      },
    };
    const app = buildReferenceApp({ database: 'sqlite::memory:', logRequests: false, env: { THROTTLE: 'off' }, mailer, clock });
    const { url } = await app.listen(0);
    try {
      const username = unique('r');
      expect((await new HttpClient(url).json('/api/auth/signup', 'POST', { username, email: `${username}@example.com`, password })).status).toBe(201);
      await waitFor(async () => (await app.tasks.stats()).queues['default']?.failed === 1, 'the first attempt to fail');
      const [job] = (await app.db.sql!.knex('task_row').select('id')) as { id: number }[];
      const failed = await app.tasks.get(job!.id);
      expect(failed?.lastError).toContain('421');
      expect(failed?.lastError).not.toContain('s3cret');
      expect(outbox.outbox).toHaveLength(0);
      clock.advance(60_000);
      await outbox.waitFor((m) => m.kind === 'Welcome', 15_000);
      await waitFor(async () => (await app.tasks.get(job!.id))?.state === 'succeeded', 'the retry to succeed');
      expect((await app.tasks.get(job!.id))?.attempts).toBe(2);
    } finally {
      await app.close();
    }
  });
});

describe('sub-second delays', () => {
  it.each(backends)('%s: a retry due in 200 ms and a job delayed by 300 ms run then, not at the next poll (pollMs 60 s)', async (backend) => {
    const dir = mkdtempSync(join(tmp, 'subsecond-'));
    const database = backend === 'sqlite' ? `sqlite:${join(dir, 'app.db')}` : undefined;
    if (!database && !pg) return;
    const { freshPgSchema } = await import('../support/postgres.js');
    const schema = database ? undefined : freshPgSchema();
    let attempts = 0;
    const app = createApp({ database: database ?? (schema?.url as string), autoMigrate: true, logRequests: false }).use(
      tasks({ worker: true, pollMs: 60_000 })
        .define('flaky', () => {
          if (++attempts === 1) throw new Error('first attempt fails');
        }, { retries: 1, backoff: { baseMs: 200 } })
        .define('later', () => undefined),
    );
    await app.start();
    try {
      // The worker's first look finds nothing; only a timer at the due time can run these before the 60 s poll.
      const { id: flaky } = await app.tasks.enqueue('flaky', {});
      const { id: later } = await app.tasks.enqueue('later', {}, { delay: 300 });
      await waitFor(async () => (await app.tasks.get(flaky))?.state === 'succeeded' && (await app.tasks.get(later))?.state === 'succeeded', 'both jobs', 10_000);
      expect(await app.tasks.get(flaky)).toMatchObject({ attempts: 2 });
    } finally {
      await app.close();
      await schema?.drop();
    }
  });
});

describe('a task writing through the store', () => {
  it('a task that updates a post fires post_save, and a GraphQL postChanged subscriber receives the change', async () => {
    const ref = await startReference('sqlite', {
      env: { THROTTLE: 'off' },
      defineTasks: (plugin) => plugin.define<{ id: number; title: string }>('retitle_post', async ({ id, title }, ctx) => void (await ctx.store.update('post', id, { title }))),
    });
    const client = createSseClient({ url: `${ref.url}/graphql/sse`, singleConnection: false, retryAttempts: 0 });
    try {
      const received = new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no postChanged')), 15_000);
        const dispose = client.subscribe(
          { query: 'subscription { postChanged(id: "2") { id title } }' },
          {
            next: (v) => {
              clearTimeout(timer);
              dispose();
              resolve(v);
            },
            error: reject,
            complete: () => undefined,
          },
        );
      });
      await new Promise((r) => setTimeout(r, 300));
      await ref.app.tasks.enqueue('retitle_post', { id: 2, title: 'Retitled by a task' });
      expect(await received).toEqual({ data: { postChanged: { id: '2', title: 'Retitled by a task' } } });
    } finally {
      client.dispose();
      await ref.close();
    }
  });
});

describe('tasks readiness', () => {
  it('the tasks check fails once the oldest due job has waited longer than maxQueueDelayMs', async () => {
    const clock = new ManualClock(new Date());
    const app = createApp({ database: 'sqlite::memory:', autoMigrate: true, clock, logRequests: false })
      .use(tasks({ worker: false, maxQueueDelayMs: 60_000 }).define('noop', () => undefined))
      .use(health());
    const { url } = await app.listen(0);
    try {
      await app.tasks.enqueue('noop');
      expect((await fetch(`${url}/ready`)).status).toBe(200);
      clock.advance(61_000);
      const res = await fetch(`${url}/ready`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { checks: Record<string, unknown> }).checks['tasks']).toEqual({ status: 'fail', reason: 'the oldest due job has waited 61 s' });
    } finally {
      await app.close();
    }
  });
});

describe('periodic tasks', () => {
  it('two processes on one database enqueue each cron slot once', async () => {
    const file = join(tmp, 'cron.db');
    const ran: number[] = [];
    const build = () =>
      createApp({ database: `sqlite:${file}`, autoMigrate: true, logRequests: false }).use(
        tasks({ pollMs: 100 }).define('tick', (_p, ctx) => void ran.push(ctx.job.id), { cron: '* * * * * *' }),
      );
    const a = build();
    await a.start();
    const b = build();
    await b.start();
    await new Promise((r) => setTimeout(r, 3_200));
    await Promise.all([a.close(), b.close()]);
    const check = build();
    await check.open();
    try {
      const rows = (await check.db.sql!.knex('task_row').select('unique_key', 'state')) as { unique_key: string; state: string }[];
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(new Set(rows.map((r) => r.unique_key)).size).toBe(rows.length);
      expect(rows.every((r) => /^cron:tick:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/.test(r.unique_key))).toBe(true);
      expect(new Set(ran).size).toBe(ran.length);
    } finally {
      await check.close();
    }
  });
});

describe('portico worker', () => {
  it('runs the jobs of an app in a separate process and stops on SIGTERM', async () => {
    const db = `sqlite:${join(tmp, 'worker.db')}`;
    const app = await startWithoutWorker(() => buildReferenceApp({ database: db, logRequests: false, env: { THROTTLE: 'off' }, mailer: new MemoryMailer() }));
    try {
      const { id } = await app.store.transaction((tx) => app.tasks.enqueueIn(tx, 'send_welcome', { user_id: 1 }));
      await new Promise((r) => setTimeout(r, 300));
      expect((await app.tasks.get(id))?.state).toBe('queued');
      const worker = await startNode(['bin/portico.js', 'worker', '--app', 'dist/examples/reference/app.js', '--db', db], /portico worker: running/);
      try {
        await waitFor(async () => (await app.tasks.get(id))?.state === 'succeeded', 'the worker process to run the job');
        expect(worker.output()).toContain('Welcome to Portico');
      } finally {
        expect(await stop(worker.child)).toBe(0);
      }
    } finally {
      await app.close();
    }
  });
});

describe('portico jobs', () => {
  it('lists the newest jobs, cancels one that waits, retries a dead one, and refuses a bad state or id', async () => {
    const db = `sqlite:${join(tmp, 'jobs.db')}`;
    const app = await startWithoutWorker(() => appOfTasks(db));
    const cli = (...args: string[]) => runNode(['bin/portico.js', 'jobs', ...args, '--app', 'dist/bench/tasks-app.js', '--db', db]);
    try {
      const [first, second] = await app.tasks.enqueueMany('noop', [{}, {}]);
      let run = await cli('list');
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toBe('id\tname\tqueue\tstate\tattempts\trun at\tlast error');
      expect(lines.slice(1).map((line) => line.split('\t').slice(0, 5))).toEqual([
        [String(second), 'noop', 'default', 'queued', '0/4'],
        [String(first), 'noop', 'default', 'queued', '0/4'],
      ]);
      run = await cli('cancel', String(second));
      expect(run).toMatchObject({ code: 0, stdout: `job ${second}: cancelled\n` });
      expect(await app.tasks.get(second as number)).toMatchObject({ state: 'dead', lastError: 'cancelled' });
      expect((await cli('cancel', String(second))).code).toBe(1);
      expect((await cli('list', '--state', 'dead')).stdout.trim().split('\n').slice(1).map((line) => line.split('\t')[0])).toEqual([String(second)]);
      run = await cli('retry', String(second));
      expect(run).toMatchObject({ code: 0, stdout: `job ${second}: queued again\n` });
      expect(await app.tasks.get(second as number)).toMatchObject({ state: 'queued' });
      run = await cli('list', '--state', 'lost');
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/no job state "lost"/);
      run = await cli('cancel', 'x');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/jobs cancel takes a job id/);
    } finally {
      await app.close();
    }
  }, 60_000);
});
