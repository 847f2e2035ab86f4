import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from 'vitest';
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
