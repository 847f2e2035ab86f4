import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DistributedEventBus } from '../../src/adapters/events/distributed-event-bus.js';
import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import { PostgresTransport } from '../../src/adapters/events/postgres-transport.js';
import { RedisTransport } from '../../src/adapters/events/redis-transport.js';
import { BUILTIN_MIGRATIONS } from '../../src/domain/model/builtin-tables.js';
import type { BusGap, EventBus, SignalEvent } from '../../src/ports/event-bus.js';
import { freshPgSchema, PG_URL, postgresAvailable } from '../support/postgres.js';
import { connectRedis, REDIS_URL, redisAvailable } from '../support/redis.js';

const hasPg = await postgresAvailable();
const hasRedis = await redisAvailable();
type Backend = 'memory' | 'postgresql' | 'redis';

/** Two processes' buses (on memory, one bus: there is no other process) and a way to cut one's listener. */
interface Pair {
  readonly a: EventBus;
  readonly b: EventBus;
  /** Kills b's listening connection from the server side; resolves once b reports it down. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

const errors: unknown[] = [];
const report = (error: unknown) => void errors.push(error);

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function postgresPair(): Promise<Pair> {
  const schema = freshPgSchema();
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema "${schema.schema}"`);
  const ddl = BUILTIN_MIGRATIONS.find((m) => m.name === 'portico_0003_event_payloads')?.sql?.postgresql ?? [];
  for (const sql of ddl) await admin.query(`set search_path to "${schema.schema}"; ${sql}`);
  const name = `portico-events-test-${randomUUID().slice(0, 8)}`;
  const a = new DistributedEventBus(new PostgresTransport(schema.url.replace(/[?&]schema=.*/, ''), schema.schema), report);
  const b = new DistributedEventBus(new PostgresTransport(schema.url.replace(/[?&]schema=.*/, ''), schema.schema, name), report);
  await Promise.all([a.start(), b.start()]);
  return {
    a,
    b,
    async kill() {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]);
      await until('b to notice', () => !b.state().up);
    },
    async close() {
      await Promise.all([a.close(), b.close()]);
      await admin.end();
      await schema.drop();
    },
  };
}

async function redisPair(): Promise<Pair> {
  const channel = `portico:events:test:${randomUUID()}`;
  const a = new DistributedEventBus(new RedisTransport(REDIS_URL, channel), report);
  const transport = new RedisTransport(REDIS_URL, channel, `portico-events-${randomUUID().slice(0, 8)}`);
  const b = new DistributedEventBus(transport, report);
  await Promise.all([a.start(), b.start()]);
  const admin = connectRedis();
  await admin.connect();
  return {
    a,
    b,
    async kill() {
      const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
      const ids = list.split('\n').filter((line) => line.includes(`name=${transport.subscriberName} `)).map((line) => /id=(\d+)/.exec(line)?.[1]);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) await admin.call('CLIENT', 'KILL', 'ID', String(id));
      await until('b to notice', () => !b.state().up);
    },
    async close() {
      await Promise.all([a.close(), b.close()]);
      admin.disconnect();
    },
  };
}

function memoryPair(): Pair {
  const bus = new MemoryEventBus(report);
  return { a: bus, b: bus, kill: async () => undefined, close: async () => undefined };
}

const open: Record<Backend, () => Pair | Promise<Pair>> = { memory: memoryPair, postgresql: postgresPair, redis: redisPair };

function eventBusContract(backend: Backend): void {
  let pair: Pair;
  beforeEach(async () => {
    errors.length = 0;
    pair = await open[backend]();
  });
  afterEach(async () => {
    await pair.close();
    expect(errors).toEqual([]);
  });

  const received = () => {
    const got: unknown[] = [];
    return { got, handler: (payload: unknown) => void got.push(payload) };
  };

  it('EB-1 delivers a topic\'s payloads in the order they were published', async () => {
    const { got, handler } = received();
    pair.b.subscribe('orders', handler);
    for (let i = 0; i < 200; i++) await pair.a.publish('orders', { n: i });
    await until('200 payloads', () => got.length >= 200);
    expect(got).toEqual(Array.from({ length: 200 }, (_, n) => ({ n })));
  });

  it('EB-2 a committed signal reaches onCommitted handlers with the row as written (Dates stay Dates)', async () => {
    const got: SignalEvent[] = [];
    pair.b.onCommitted('post_save', 'post', (e) => void got.push(e));
    const row = { id: 7, title: 'ünïcødé 𝄞', created_at: new Date('2026-03-04T05:06:07.089Z'), tags: { nested: [1, 'two'] } };
    await pair.a.unitOfWork(() => pair.a.emit({ signal: 'post_save', table: 'post', row, created: true }));
    await until('the signal', () => got.length === 1);
    expect(got[0]).toEqual({ signal: 'post_save', table: 'post', row, created: true });
    expect(got[0]?.row.created_at).toBeInstanceOf(Date);
  });

  it('EB-9 an updates-only save handler hears updates, never inserts, and does not count for an insert', async () => {
    const heard: (boolean | undefined)[] = [];
    expect(pair.a.listens('pre_save', 'post')).toBe(false);
    const off = pair.a.on('pre_save', 'post', (e) => void heard.push(e.created), { updatesOnly: true });
    expect(pair.a.listens('pre_save', 'post')).toBe(true);
    expect(pair.a.listens('pre_save', 'post', true)).toBe(false);
    await pair.a.emit({ signal: 'pre_save', table: 'post', row: { id: 1 }, created: true });
    await pair.a.emit({ signal: 'pre_save', table: 'post', row: { id: 1 }, created: false, changes: { title: 'x' } });
    expect(heard).toEqual([false]);
    pair.a.on('pre_save', 'post', () => undefined);
    expect(pair.a.listens('pre_save', 'post', true)).toBe(true);
    off();
  });

  it('EB-3 nothing of a rolled-back unit is delivered, signals or topics', async () => {
    const topics = received();
    const signals: SignalEvent[] = [];
    pair.b.subscribe('orders', topics.handler);
    pair.b.onCommitted('post_save', 'post', (e) => void signals.push(e));
    await expect(
      pair.a.unitOfWork(async () => {
        await pair.a.emit({ signal: 'post_save', table: 'post', row: { id: 1 }, created: true });
        await pair.a.publish('orders', 'rolled back');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await pair.a.publish('orders', 'after');
    await until('the payload after', () => topics.got.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(topics.got).toEqual(['after']);
    expect(signals).toEqual([]);
  });

  it('EB-4 a large payload arrives whole', async () => {
    const { got, handler } = received();
    pair.b.subscribe('big', handler);
    const payload = { text: 'x'.repeat(50_000), n: 1 };
    await pair.a.publish('big', payload);
    await pair.a.publish('big', { n: 2 });
    await until('both payloads', () => got.length >= 2);
    expect(got).toEqual([payload, { n: 2 }]);
  });

  it('EB-6 a burst sent without waiting arrives whole and in order: repeated payloads stay separate messages, a large one keeps its place, the sender hears each once', async () => {
    const far = received();
    const near = received();
    pair.b.subscribe('burst', far.handler);
    pair.a.subscribe('burst', near.handler);
    const payloads: unknown[] = [];
    for (let i = 0; i < 300; i++) payloads.push(i % 50 === 7 ? 'same' : i === 150 ? { big: 'y'.repeat(20_000) } : { n: i });
    await Promise.all(payloads.map((payload) => pair.a.publish('burst', payload)));
    await until('300 payloads', () => far.got.length >= payloads.length);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(far.got).toEqual(payloads);
    expect(near.got).toEqual(payloads);
  });

  if (backend !== 'memory') {
    it('EB-5 a listener whose connection is killed reconnects and hears what is published after', async () => {
      const { got, handler } = received();
      pair.b.subscribe('orders', handler);
      await pair.kill();
      const b = pair.b as DistributedEventBus;
      expect(b.state()).toMatchObject({ up: false });
      await until('b to reconnect', () => b.state().up);
      await pair.a.publish('orders', 'after the outage');
      await until('the payload', () => got.length >= 1);
      expect(got).toEqual(['after the outage']);
    });

    it('EB-7 a killed listener opens a gap at once and closes it when it listens again', async () => {
      const gaps: BusGap[] = [];
      pair.b.onGap?.((gap) => void gaps.push(gap));
      await pair.kill();
      await until('b to reconnect', () => (pair.b as DistributedEventBus).state().up);
      await until('the gap to close', () => gaps.length >= 2);
      expect(gaps).toEqual([
        { ongoing: true, reason: 'the event bus connection is down' },
        { ongoing: false, reason: expect.stringMatching(/reconnected/) },
      ]);
    });

    it('EB-8 what a process publishes while its connection is down reaches the others once it is back, in order', async () => {
      const { got, handler } = received();
      pair.a.subscribe('orders', handler);
      await pair.kill();
      await Promise.all([1, 2, 3].map((n) => pair.b.publish('orders', n)));
      await until('the payloads', () => got.length >= 3);
      expect(got).toEqual([1, 2, 3]);
    });
  }
}

describe('a distributed bus whose server is unreachable at start', () => {
  it.each([
    ['postgresql', () => new PostgresTransport('postgres://postgres@127.0.0.1:1/test')],
    ['redis', () => new RedisTransport('redis://127.0.0.1:1', `portico:events:test:${randomUUID()}`)],
  ] as const)('%s: starts anyway, reports the listener down, and closes cleanly', async (_name, transport) => {
    const bus = new DistributedEventBus(transport(), report);
    await bus.start();
    expect(bus.state()).toEqual({ up: false, reason: 'listener cannot connect' });
    const got: unknown[] = [];
    bus.subscribe('t', (p) => void got.push(p));
    await bus.publish('t', 1); // local subscribers still hear it; the relay is dropped and reported
    expect(got).toEqual([1]);
    await bus.close();
    expect(bus.state().up).toBe(false);
    expect(errors.length).toBeLessThanOrEqual(1);
    errors.length = 0;
  });
});

describe('event bus contract: memory', () => eventBusContract('memory'));
describe.skipIf(!hasPg)('event bus contract: PostgreSQL LISTEN/NOTIFY', () => eventBusContract('postgresql'));
describe.skipIf(!hasRedis)('event bus contract: Redis pub/sub', () => eventBusContract('redis'));
