import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPgSchema, PG_URL, postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const pg = await postgresAvailable();

/**
 * A silent network partition between the app and PostgreSQL (a loopback proxy holds every byte
 * for the fault's duration): requests end in 503 within the statement timeout instead of hanging,
 * /ready answers within its budget, and everything recovers with no acknowledged write lost.
 */
describe.skipIf(!pg)('a silent partition from PostgreSQL ends fast and recovers', () => {
  const target = new URL(PG_URL);
  const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
  const schema = freshPgSchema();
  let ref: RunningReference;
  const timed = async (path: string, init?: RequestInit): Promise<{ status: number; ms: number }> => {
    const started = Date.now();
    const res = await fetch(`${ref.url}${path}`, init);
    await res.arrayBuffer();
    return { status: res.status, ms: Date.now() - started };
  };
  const create = (name: string) => timed('/api/author/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });

  beforeAll(async () => {
    process.env.LOG_LEVEL ??= 'silent';
    const port = await proxy.start();
    const viaProxy = new URL(schema.url);
    viaProxy.port = String(port);
    viaProxy.searchParams.set('statement_timeout', '2000'); // short, to keep the test short
    ref = await startReference('postgresql', { database: viaProxy.toString(), env: { THROTTLE: 'off' } });
  });
  afterAll(async () => {
    proxy.release();
    await ref?.close();
    await proxy.cut();
    await schema.drop();
  });

  it('in-flight and new requests answer 503 within the statement timeout; /ready within its 5 s; then all recovers', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) if ((await create(`before-${i}`)).status === 201) acknowledged.push(`before-${i}`);
    expect(acknowledged).toHaveLength(5);

    proxy.hold();
    const [inFlight, fresh, ready] = await Promise.all([create('during'), timed('/api/author/'), timed('/ready')]);
    expect(inFlight.status).toBe(503);
    expect(inFlight.ms).toBeLessThan(2000 + 1000 + 1500); // statement timeout, the client's margin, scheduling
    expect(fresh.status).toBe(503);
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(6500);
    expect((await timed('/healthz')).status).toBe(200);
    proxy.release();

    // The pool drops the connections that timed out; fresh ones serve again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 201; i++) {
      status = (await create('after')).status;
      if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(201);
    const names = (await ref.app.store.find('author', {})).map((r) => r.name);
    for (const name of acknowledged) expect(names).toContain(name);
  });
});
