import { afterAll, describe, expect, it } from 'vitest';
import { auth, createApp, security, sessions, type PorticoApp } from '../../src/index.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { redisAvailable } from '../support/redis.js';

const pg = await postgresAvailable();
const redis = await redisAvailable();

/** Two app instances (as two processes would be) on one backing store share one login budget. */
async function twoApps(database: string, throttleStore: 'database' | { redis: string }): Promise<PorticoApp[]> {
  const make = () =>
    createApp({ database, autoMigrate: true, logRequests: false, throttleStore })
      .use(sessions())
      .use(security())
      .use(auth());
  const a = make();
  await a.listen(0);
  const b = make();
  await b.listen(0);
  return [a, b];
}

async function attempts(apps: PorticoApp[], username: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const app = apps[i % 2] as PorticoApp;
    const handler = await app.callback();
    const server = (await import('node:http')).createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'wrong-password' }),
    });
    statuses.push(res.status);
    await new Promise((resolve) => server.close(resolve));
  }
  return statuses;
}

describe('throttle budgets shared across app instances', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const fn of cleanups) await fn();
  });

  it.skipIf(!pg)('with the database store (PostgreSQL)', async () => {
    const schema = freshPgSchema();
    const apps = await twoApps(schema.url, 'database');
    cleanups.push(async () => {
      for (const app of apps) await app.close();
      await schema.drop();
    });
    expect(await attempts(apps, `shared-db-${Date.now()}`)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it.skipIf(!redis)('with the Redis store', async () => {
    const apps = await twoApps('memory:', { redis: process.env.PORTICO_TEST_REDIS ?? 'redis://127.0.0.1:6379' });
    cleanups.push(async () => {
      for (const app of apps) await app.close();
    });
    expect(await attempts(apps, `shared-redis-${Date.now()}-${Math.random()}`)).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('separate in-memory stores do not share', async () => {
    const apps = await Promise.all([0, 1].map(async () => {
      const app = createApp({ database: 'memory:', logRequests: false }).use(sessions()).use(security()).use(auth());
      await app.listen(0);
      return app;
    }));
    cleanups.push(async () => {
      for (const app of apps) await app.close();
    });
    expect(await attempts(apps, 'separate')).toEqual([401, 401, 401, 401, 401, 401]);
  });
});
