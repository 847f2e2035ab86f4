import type { Redis } from 'ioredis';
import type { ThrottleHit, ThrottleStore } from '../../ports/throttle-store.js';

/**
 * Counts one hit and returns `{count, pttl}`. Runs atomically inside Redis, so concurrent hits
 * from any number of connections never lose a count. The expiry is set only when the key is new
 * (or, defensively, when some other writer left it without one), which makes the window fixed:
 * later hits do not extend it, and when the key expires the next hit starts a new window.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/**
 * ThrottleStore on Redis, shared by every process using the same Redis and prefix. Each hit is
 * one Lua script (INCR, then PEXPIRE on the first hit of a window), atomic on the server.
 *
 * Windows are timed by Redis's own clock through key expiry: the injected Clock of the other
 * adapters is not used here, so moving a test clock does not end a Redis window.
 * The connection belongs to the caller, who also quits it.
 */
export class RedisThrottleStore implements ThrottleStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'portico:throttle:',
  ) {}

  async hit(key: string, windowMs: number): Promise<ThrottleHit> {
    if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
      throw new RangeError(`windowMs must be a positive integer of milliseconds, got ${windowMs}`);
    }
    const reply = await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, windowMs);
    if (!Array.isArray(reply) || reply.length !== 2) throw new Error(`unexpected reply from the throttle script: ${JSON.stringify(reply)}`);
    return { count: Number(reply[0]), resetInMs: Math.max(0, Number(reply[1])) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/**
 * Connects to Redis at `url` and returns the throttle store with the function that closes the
 * connection. ioredis is loaded here, only by apps that choose the Redis store.
 */
export async function connectRedisThrottleStore(url: string): Promise<{ readonly store: RedisThrottleStore; close(): Promise<void> }> {
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, { lazyConnect: false, maxRetriesPerRequest: 2 });
  return { store: new RedisThrottleStore(redis), close: async () => void (await redis.quit()) };
}
