import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailable } from '../../src/domain/errors/domain-error.js';
import type { Row } from '../../src/domain/model/types.js';
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

  const order = (customer: string) =>
    timed('/api/shop_order/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ customer, items: [{ sku: 'a', qty: 1 }] }) });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('for a 20 s partition: in-flight requests answer 503 within the statement timeout, new ones and /ready within 5 s; then all recovers', { timeout: 60_000 }, async () => {
    // node-pg warns when a statement is sent on a connection that still holds another: a connection
    // a timed-out transaction left mid-BEGIN must never serve again (it would run the next
    // holder's statements inside that transaction).
    const queuedBehind: string[] = [];
    const onWarning = (warning: Error) => {
      if (/already executing a query/.test(warning.message)) queuedBehind.push(warning.message);
    };
    process.on('warning', onWarning);
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) if ((await create(`before-${i}`)).status === 201) acknowledged.push(`before-${i}`);
    expect((await order('before')).status).toBe(201); // a nested create: BEGIN, INSERTs, COMMIT
    expect(acknowledged).toHaveLength(5);

    // Open connections wait in the pool, so the fault meets statements on them, not only new connections.
    await Promise.all(Array.from({ length: 10 }, () => timed('/api/author/')));
    proxy.hold();
    const faultStarted = Date.now();
    // In flight when the traffic stops: a single-statement write, a transaction, a list and /ready.
    const inFlight = Promise.all([create('during'), order('during'), timed('/api/author/'), timed('/ready')]);
    // New requests all through the fault.
    const probes: Promise<{ status: number; ms: number }[]>[] = [];
    while (Date.now() - faultStarted < 20_000) {
      probes.push(Promise.all([create(`probe-${probes.length}`), order(`probe-${probes.length}`), timed('/api/author/1/'), timed('/ready')]));
      await sleep(2_500);
    }
    const [write, transaction, read, ready] = await inFlight;
    for (const answer of [write, transaction, read]) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(2_000 + 1_000 + 1_500); // statement timeout, the client's margin, scheduling
    }
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(5_500);
    for (const answers of await Promise.all(probes)) {
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.ms).toBeLessThan(5_500); // 5 s and scheduling on a busy machine
      }
    }
    expect((await timed('/healthz')).status).toBe(200);
    expect(Date.now() - faultStarted).toBeGreaterThanOrEqual(20_000);
    proxy.release();

    // Connections that timed out were discarded; fresh ones serve again at once.
    let status = 0;
    for (let i = 0; i < 25 && status !== 201; i++) {
      status = (await create('after')).status;
      if (status !== 201) await sleep(200);
    }
    expect(status).toBe(201);
    expect((await order('after')).status).toBe(201);
    expect((await timed('/ready')).status).toBe(200);
    const names = (await ref.app.store.find('author', {})).map((r) => r.name);
    for (const name of acknowledged) expect(names).toContain(name);
    process.off('warning', onWarning);
    expect(queuedBehind).toEqual([]);
  });

  it('a pipelined write (a login\'s stamp and token) cut off answers unavailable within the read deadline, made whole or not at all', { timeout: 30_000 }, async () => {
    const store = ref.app.store;
    const [first] = await store.find('author', { limit: 1 });
    const id = first?.id ?? null;
    // Open connections wait in the pool: the pipeline goes out on one of them.
    await Promise.all(Array.from({ length: 4 }, () => timed('/api/author/')));
    proxy.hold();
    const started = Date.now();
    const error = await store.writeTogether([{ update: 'author', id, changes: { name: 'held' } }, { insert: 'author', row: { name: 'held-new' } }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    const ms = Date.now() - started;
    proxy.release();
    expect(error).toBeInstanceOf(DatabaseUnavailable);
    expect(ms).toBeLessThan(2_000 + 1_000 + 1_500);
    // The connection that went silent was discarded: the next pipeline is answered, and the held one stood whole or not at all.
    let after: (Row | null)[] = [];
    for (let i = 0; i < 25 && after.length === 0; i++) after = await store.writeTogether([{ update: 'author', id, changes: { bio: 'after' } }, { insert: 'author', row: { name: 'after-new' } }]).catch(async () => (await sleep(200), []));
    expect(after[0]).toMatchObject({ id, bio: 'after' });
    const names = (await store.find('author', {})).map((r) => r.name);
    expect(names).toContain('after-new');
    expect(names.includes('held')).toBe(names.includes('held-new'));
  });
});
