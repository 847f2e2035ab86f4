import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReferenceApp } from '../../examples/reference/app.js';
import { createApp, health, MemoryMailer, tasks, type MailMessage, type PorticoApp } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { ManualClock } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference } from '../support/reference-server.js';
import { startNode, stop } from '../support/spawn-node.js';

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
    process.env.PORTICO_TASK_WORKER = '0';
    let app: PorticoApp;
    try {
      app = buildReferenceApp({ database: db, logRequests: false, env: { THROTTLE: 'off' }, mailer: new MemoryMailer() });
      await app.start();
    } finally {
      delete process.env.PORTICO_TASK_WORKER;
    }
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
