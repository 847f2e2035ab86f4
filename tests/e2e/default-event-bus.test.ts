import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { c, createApp, defineModel, health, type PorticoApp } from '../../src/index.js';
import type { SignalEvent } from '../../src/ports/event-bus.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';

const pg = await postgresAvailable();

const note = defineModel('note', { id: c.id(), body: c.text() });

/** The first value `listen` hands its callback, or a failure after `ms`. */
function first<T>(listen: (heard: (value: T) => void) => () => void, what: string, ms = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${what}: nothing arrived within ${ms} ms`));
    }, ms);
    const off = listen((value) => {
      clearTimeout(timer);
      off();
      resolve(value);
    });
  });
}

/**
 * Issue 45, item 5: two apps (as two processes would be: each its own pool and listening
 * connection) on one PostgreSQL schema, created without an `events` option, share the default
 * bus, LISTEN/NOTIFY on that database.
 */
describe.skipIf(!pg)('the default event bus on PostgreSQL reaches another app on the same database', () => {
  const schema = freshPgSchema();
  const apps: PorticoApp[] = [];
  let a: PorticoApp;
  let b: PorticoApp;
  const make = (options: { events?: 'memory' } = {}): PorticoApp => {
    const app = createApp({ database: schema.url, models: [note], autoMigrate: true, logRequests: false, ...options }).use(health());
    apps.push(app);
    return app;
  };

  beforeAll(async () => {
    a = make();
    await a.start(); // migrates first
    b = make();
    await b.start();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await schema.drop();
  });

  it("a write committed on B reaches an onCommitted subscriber on A; B's rolled-back write before it does not", async () => {
    const heard = first<SignalEvent>((fn) => a.events.onCommitted('post_save', 'note', fn), 'post_save on A');
    await expect(
      b.store.transaction(async (tx) => {
        await tx.insert('note', { body: 'rolled back on B' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const row = await b.store.transaction((tx) => tx.insert('note', { body: 'committed on B' }));
    // B's messages travel in its commit order: had the rollback been sent, it would arrive first.
    const event = await heard;
    expect(event.row).toMatchObject({ id: row.id, body: 'committed on B' });
    expect(event.created).toBe(true);
  });

  it('a topic published on A reaches a subscriber on B', async () => {
    const heard = first<unknown>((fn) => b.events.subscribe('note.announced', fn), 'topic on B');
    await a.events.publish('note.announced', { from: 'A' });
    expect(await heard).toEqual({ from: 'A' });
  });

  it("/ready reports the listening connection; events: 'memory' opts out (no cross-process bus, no check)", async () => {
    const local = make({ events: 'memory' });
    await local.start();
    const ready = async (app: PorticoApp) => (await (await fetch(`${(await app.listen(0)).url}/ready`)).json()) as { checks: Record<string, unknown> };
    expect((await ready(a)).checks).toEqual({ database: { status: 'ok' }, events: { status: 'ok' } });
    expect((await ready(local)).checks).toEqual({ database: { status: 'ok' } });
  });
});
