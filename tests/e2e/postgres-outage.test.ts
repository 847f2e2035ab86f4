import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, PG_URL, postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const pg = await postgresAvailable();

/** Polls `probe` until it returns true or `ms` elapse; returns the elapsed time or -1. */
async function within(ms: number, probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await probe()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return -1;
}

describe.skipIf(!pg)('readiness when PostgreSQL goes away and comes back (through a loopback proxy)', () => {
  const target = new URL(PG_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  const schema = freshPgSchema();
  let ref: RunningReference;

  beforeAll(async () => {
    process.env.LOG_LEVEL ??= 'silent';
    const port = await proxy.start();
    const viaProxy = new URL(schema.url);
    viaProxy.port = String(port);
    ref = await startReference('postgresql', viaProxy.toString());
  });
  afterAll(async () => {
    await ref?.close();
    await proxy.cut();
    await schema.drop();
  });

  it('answers 200 while the database is reachable', async () => {
    const res = await ref.get('/ready');
    expect(res.status).toBe(200);
  });

  it('answers 503 with a generic reason within 6 s of the cut, while /healthz stays 200', async () => {
    await proxy.cut();
    let body: unknown;
    const elapsed = await within(6000, async () => {
      const res = await ref.get('/ready');
      body = await res.json();
      return res.status === 503;
    });
    expect(elapsed).toBeGreaterThanOrEqual(0);
    expect(body).toMatchObject({ status: 'fail', checks: { database: { status: 'fail' } } });
    const reason = (body as { checks: { database: { reason: string } } }).checks.database.reason;
    expect(['unavailable', 'timed out']).toContain(reason);
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONN|postgres/i);
    const live = await ref.get('/healthz');
    expect(live.status).toBe(200);
  });

  it('returns to 200 once the proxy is restored', async () => {
    await proxy.restore();
    const elapsed = await within(10_000, async () => (await ref.get('/ready')).status === 200);
    expect(elapsed).toBeGreaterThanOrEqual(0);
  });
});
