import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { MemoryThrottleStore } from '../../src/adapters/throttle/memory-throttle-store.js';
import { RedisThrottleStore } from '../../src/adapters/throttle/redis-throttle-store.js';
import { SqlThrottleStore } from '../../src/adapters/throttle/sql-throttle-store.js';
import { ManualClock, openTestDatabase } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';
import { connectRedis, deleteRedisPrefix, freshRedisPrefix, redisAvailable } from '../support/redis.js';
import { throttleStoreContract, type ThrottleFixture } from './throttle-store.contract.js';

const pg = await postgresAvailable();
const redis = await redisAvailable();

async function openSql(backend: 'sqlite' | 'postgresql'): Promise<ThrottleFixture> {
  const t = await openTestDatabase(backend);
  const knex = t.db.sql!.knex;
  return {
    store: new SqlThrottleStore(knex, backend, t.clock),
    peer: new SqlThrottleStore(knex, backend, t.clock),
    advance: async (ms) => t.clock.advance(ms),
    close: () => t.close(),
  };
}

async function openRedis(): Promise<ThrottleFixture> {
  const prefix = freshRedisPrefix();
  const a = connectRedis();
  const b = connectRedis();
  await Promise.all([a.connect(), b.connect()]);
  return {
    store: new RedisThrottleStore(a, prefix),
    peer: new RedisThrottleStore(b, prefix),
    // Redis times windows with its own clock: wait it out, with a margin for expiry precision.
    advance: (ms) => sleep(ms + 25),
    async close() {
      try {
        await deleteRedisPrefix(a, prefix);
      } finally {
        await Promise.all([a.quit(), b.quit()]);
      }
    },
  };
}

describe('ThrottleStore contract: in-memory', () =>
  throttleStoreContract(async () => {
    const clock = new ManualClock();
    return { store: new MemoryThrottleStore(clock), advance: async (ms) => clock.advance(ms), close: async () => undefined };
  }, { peers: false }));
describe('ThrottleStore contract: SQLite', () => throttleStoreContract(() => openSql('sqlite')));
describe.skipIf(!pg)('ThrottleStore contract: PostgreSQL', () => throttleStoreContract(() => openSql('postgresql')));
describe.skipIf(!redis)('ThrottleStore contract: Redis', () => throttleStoreContract(openRedis));

/** Housekeeping that only the SQL store offers (public through src/index.ts; nothing in Portico schedules it). */
async function deleteExpiredRemovesEndedWindowsOnly(backend: 'sqlite' | 'postgresql'): Promise<void> {
  const t = await openTestDatabase(backend);
  try {
    const store = new SqlThrottleStore(t.db.sql!.knex, backend, t.clock);
    await store.hit('short', 1_000);
    await store.hit('long', 60_000);
    t.clock.advance(1_000);
    expect(await store.deleteExpired()).toBe(1);
    expect(await store.hit('long', 60_000)).toMatchObject({ count: 2 });
    expect(await store.hit('short', 1_000)).toMatchObject({ count: 1 });
  } finally {
    await t.close();
  }
}
describe('SqlThrottleStore.deleteExpired', () => {
  it('SQLite: removes the rows whose window has ended, keeps the others', () => deleteExpiredRemovesEndedWindowsOnly('sqlite'));
  it.skipIf(!pg)('PostgreSQL: removes the rows whose window has ended, keeps the others', () => deleteExpiredRemovesEndedWindowsOnly('postgresql'));
});
