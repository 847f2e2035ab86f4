import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTask, type TaskDefinition, type TaskPayload } from '../../../src/application/tasks/task-definition.js';
import { createApp, tasks, type Enqueued, type RecordStore, type TaskContext } from '../../../src/index.js';

// Issue "typed models": tasks typed by their payload. These tests run as the type checker reads
// them (`npm run typecheck`); each `@ts-expect-error` pins an error that must happen, so a
// widening that lets it compile fails the suite.

const sendWelcome = defineTask('send_welcome', async ({ userId }: { userId: number }, ctx) => {
  expectTypeOf(ctx).toEqualTypeOf<TaskContext>();
  return userId;
});
const mailOne = defineTask<{ to: string; cc?: string }>('mail_one', (payload) => {
  expectTypeOf(payload).toEqualTypeOf<{ to: string; cc?: string }>();
});
const report = defineTask('report', (_payload: { since?: string }) => undefined);
const legacy = defineTask('legacy', (payload, ctx) => void ctx.logger.info({ payload }, 'legacy'));

describe('defineTask', () => {
  it('takes the payload type from the handler, or as given, and keeps the name literal', () => {
    expectTypeOf(sendWelcome).toEqualTypeOf<TaskDefinition<{ userId: number }, 'send_welcome'>>();
    expectTypeOf(sendWelcome.name).toEqualTypeOf<'send_welcome'>();
    expectTypeOf<TaskPayload<typeof sendWelcome>>().toEqualTypeOf<{ userId: number }>();
    // Given explicitly, the name is inferred no more (TypeScript infers all or none of them).
    expectTypeOf(mailOne).toEqualTypeOf<TaskDefinition<{ to: string; cc?: string }, string>>();
    expectTypeOf<TaskPayload<typeof report>>().toEqualTypeOf<{ since?: string }>();
  });

  it('an unannotated handler keeps the untyped payload', () => {
    expectTypeOf<TaskPayload<typeof legacy>>().toBeAny();
    expectTypeOf(legacy.name).toEqualTypeOf<'legacy'>();
    // Every definition is still a TaskDefinition (what the plugin and the worker hold).
    expectTypeOf(sendWelcome).toExtend<TaskDefinition>();
  });

  it('the handler is checked against the given payload type', () => {
    // @ts-expect-error: the payload has no field `userId`
    defineTask<{ to: string }>('bad', ({ userId }) => userId);
  });

  it('tasks().define takes a definition as well as a name and a handler', () => {
    const plugin = tasks().define(sendWelcome).define(legacy).define('by_name', (_p: { n: number }) => undefined);
    expectTypeOf(plugin).toEqualTypeOf<ReturnType<typeof tasks>>();
  });
});

describe('enqueueing by a definition', () => {
  // Never opened: the checks below are read by the type checker, not run.
  const app = createApp({ database: 'memory:' }).use(tasks().define(sendWelcome).define(mailOne).define(report).define(legacy));

  it('checks the payload against the definition', () => {
    const check = async (tx: RecordStore) => {
      expectTypeOf(await app.tasks.enqueue(sendWelcome, { userId: 1 })).toEqualTypeOf<Enqueued>();
      await app.tasks.enqueue(sendWelcome, { userId: 1 }, { delay: 1_000, uniqueKey: 'welcome:1' });
      await app.tasks.enqueue(mailOne, { to: 'a@example.com' });
      await app.tasks.enqueue(mailOne, { to: 'a@example.com', cc: 'b@example.com' });
      expectTypeOf(await app.tasks.enqueueMany(sendWelcome, [{ userId: 1 }, { userId: 2 }])).toEqualTypeOf<number[]>();
      await app.tasks.enqueueIn(tx, sendWelcome, { userId: 1 }, { priority: 5 });

      // @ts-expect-error: userId is a number
      await app.tasks.enqueue(sendWelcome, { userId: '1' });
      // @ts-expect-error: userId is missing
      await app.tasks.enqueue(sendWelcome, {});
      // @ts-expect-error: no field `email` in the payload
      await app.tasks.enqueue(sendWelcome, { userId: 1, email: 'a@example.com' });
      // @ts-expect-error: the payload is required
      await app.tasks.enqueue(sendWelcome);
      // @ts-expect-error: options in place of the payload
      await app.tasks.enqueue(mailOne, { delay: 10 });

      // @ts-expect-error: userId is a number
      await app.tasks.enqueueMany(sendWelcome, [{ userId: 1 }, { userId: '2' }]);
      // @ts-expect-error: userId is missing
      await app.tasks.enqueueMany(sendWelcome, [{}]);
      // @ts-expect-error: no field `email` in the payload
      await app.tasks.enqueueMany(sendWelcome, [{ userId: 1, email: 'a@example.com' }]);
      // @ts-expect-error: the payloads are required
      await app.tasks.enqueueMany(sendWelcome);

      // @ts-expect-error: userId is a number
      await app.tasks.enqueueIn(tx, sendWelcome, { userId: '1' });
      // @ts-expect-error: userId is missing
      await app.tasks.enqueueIn(tx, sendWelcome, {});
      // @ts-expect-error: no field `email` in the payload
      await app.tasks.enqueueIn(tx, sendWelcome, { userId: 1, email: 'a@example.com' });
      // @ts-expect-error: the payload is required
      await app.tasks.enqueueIn(tx, sendWelcome);
    };
    expectTypeOf(check).toBeFunction();
  });

  it('a payload that {} satisfies may be left out; an untyped one takes anything', () => {
    const check = async (tx: RecordStore) => {
      await app.tasks.enqueue(report);
      await app.tasks.enqueue(report, {}, { delay: 10 });
      await app.tasks.enqueueIn(tx, report);
      await app.tasks.enqueue(legacy);
      await app.tasks.enqueue(legacy, { anything: [1, 2] });
      await app.tasks.enqueueMany(legacy, [1, 'two', { three: 3 }]);
      // @ts-expect-error: since is a string
      await app.tasks.enqueue(report, { since: 1 });
    };
    expectTypeOf(check).toBeFunction();
  });

  it('the name form stays untyped', () => {
    const check = async (tx: RecordStore) => {
      await app.tasks.enqueue('send_welcome', { userId: 'not checked' });
      await app.tasks.enqueue('send_welcome');
      await app.tasks.enqueueMany('send_welcome', [{ anything: true }]);
      await app.tasks.enqueueIn(tx, 'send_welcome', 42);
    };
    expectTypeOf(check).toBeFunction();
  });
});

describe('enqueueing by a definition at run time', () => {
  async function waitFor(check: () => boolean, what: string): Promise<void> {
    const end = Date.now() + 10_000;
    while (!check()) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('define(definition) checks it as define(name, handler, options) does', () => {
    expect(() => tasks().define(sendWelcome).define('send_welcome', () => undefined)).toThrow('tasks: send_welcome is defined twice');
    expect(() => tasks().define({ ...sendWelcome, name: 'not a name' })).toThrow('tasks: a task name is 1 to 100 letters, digits or _.:-, got "not a name"');
    expect(() => tasks().define({ ...sendWelcome, retries: -1 })).toThrow('tasks: send_welcome: retries must be a non-negative integer');
  });

  it('runs the registered task of the definition with the payload; a definition counts by its name', async () => {
    const seen: { userId: number; via: string }[] = [];
    const welcome = defineTask('welcome', ({ userId, via }: { userId: number; via: string }) => void seen.push({ userId, via }));
    const app = createApp({ database: 'memory:', logRequests: false }).use(tasks({ worker: true, pollMs: 50 }).define(welcome));
    await app.start();
    try {
      const { id, created } = await app.tasks.enqueue(welcome, { userId: 1, via: 'enqueue' });
      expect(created).toBe(true);
      expect((await app.tasks.get(id))?.name).toBe('welcome');
      await app.tasks.enqueueMany(welcome, [{ userId: 2, via: 'enqueueMany' }]);
      await app.store.transaction((tx) => app.tasks.enqueueIn(tx, welcome, { userId: 3, via: 'enqueueIn' }));
      // Another definition of the same name, never registered: the app's task of that name runs it.
      const twin = defineTask('welcome', (_p: { userId: number; via: string }) => {
        throw new Error('not the registered handler');
      });
      await app.tasks.enqueue(twin, { userId: 4, via: 'twin' });
      await waitFor(() => seen.length === 4, 'the four jobs');
      expect([...seen].sort((a, b) => a.userId - b.userId)).toEqual([
        { userId: 1, via: 'enqueue' },
        { userId: 2, via: 'enqueueMany' },
        { userId: 3, via: 'enqueueIn' },
        { userId: 4, via: 'twin' },
      ]);
      // A definition whose name the app does not know is refused as that name is.
      const stranger = defineTask('stranger', (_p: { n: number }) => undefined);
      const byName = await app.tasks.enqueue('stranger', { n: 1 }).catch((err: unknown) => err);
      const byDefinition = await app.tasks.enqueue(stranger, { n: 1 }).catch((err: unknown) => err);
      expect(byName).toBeInstanceOf(Error);
      expect(byDefinition).toEqual(byName);
      expect((byDefinition as Error).message).toBe('tasks: no task named "stranger" is defined (tasks().define(name, handler))');
      await expect(app.tasks.enqueueMany(stranger, [{ n: 1 }])).rejects.toThrow((byName as Error).message);
    } finally {
      await app.close();
    }
  });
});
