import { Redis } from 'ioredis';

/** The Redis server tests use. */
export const REDIS_URL = process.env.PORTICO_TEST_REDIS ?? 'redis://127.0.0.1:6379';
const REQUIRED = process.env.PORTICO_REQUIRE_REDIS === '1';

/** A connection to the test Redis that fails fast instead of retrying forever. */
export function connectRedis(): Redis {
  return new Redis(REDIS_URL, { connectTimeout: 3000, maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
}

/**
 * Whether Redis answers. Without it the Redis cases are skipped with a loud notice, unless
 * PORTICO_REQUIRE_REDIS=1 (CI), where this throws and the test file fails.
 */
export async function redisAvailable(): Promise<boolean> {
  const client = connectRedis();
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    if (REQUIRED) throw new Error(`PORTICO_REQUIRE_REDIS=1 but Redis at ${REDIS_URL} is unreachable: ${String(error)}`);
    console.warn(`\n*** Redis at ${REDIS_URL} is unreachable: Redis cases are SKIPPED ***\n`);
    return false;
  } finally {
    client.disconnect();
  }
}

let counter = 0;

/** A key prefix unique to this test run and call, so concurrent runs on one Redis do not collide. */
export function freshRedisPrefix(): string {
  return `portico:test:${process.pid}:${Date.now().toString(36)}:${counter++}:`;
}

/** Deletes every key under `prefix` (test cleanup). */
export async function deleteRedisPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
