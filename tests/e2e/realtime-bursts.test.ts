import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as portico from '../../src/index.js';
import type { PorticoApp } from '../../src/index.js';
import { burstApp } from '../support/burst-app.mjs';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { RawWebSocket } from '../support/raw-websocket.js';
import { REDIS_URL, redisAvailable } from '../support/redis.js';
import { RealtimeSocket, SseStream } from '../support/realtime-clients.js';
import { startNode, stop } from '../support/spawn-node.js';

const pg = await postgresAvailable();
const redis = await redisAvailable();

/** Where subscribers connect, and the app that writes and publishes (the same one in one process; another process's otherwise). */
interface Setup {
  readonly listenUrl: string;
  readonly writer: PorticoApp;
  readonly writerUrl: string;
}

/**
 * Issue 47, "a burst cuts every subscriber": a burst is not a slow consumer. Every event of a
 * 300-row bulk create (announced per row after commit) and of a 10 000-event burst reaches every
 * reading subscriber; a client that stops reading is cut, and only it. Across processes the
 * subscribers are on a host process and the writer is this test's app.
 */
function bursts(setup: () => Setup): void {
  it('a 300-row bulk create, announced per row after commit, reaches a WebSocket and an SSE subscriber whole', async () => {
    const { listenUrl, writerUrl } = setup();
    const sse = await SseStream.open(`${listenUrl}/realtime/events?channel=items`);
    const ws = await RealtimeSocket.open(`${listenUrl.replace('http://', 'ws://')}/realtime/ws`);
    expect(await ws.subscribe('items')).toEqual({ type: 'subscribed', channel: 'items' });
    const rows = Array.from({ length: 300 }, (_, i) => ({ name: `item ${i}` }));
    const res = await fetch(`${writerUrl}/api/item/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rows) });
    expect(res.status).toBe(201);
    const ids = ((await res.json()) as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toHaveLength(300);
    const overSse = (await sse.take(300)).map((e) => (JSON.parse(e.data) as { id: number }).id);
    const overWs: number[] = [];
    for (let i = 0; i < 300; i++) overWs.push(((await ws.next('event', 30_000)).data as { id: number }).id);
    expect([...overSse].sort((a, b) => a - b)).toEqual(ids);
    expect([...overWs].sort((a, b) => a - b)).toEqual(ids);
    await sse.close();
    ws.close();
  }, 60_000);

  it('a 10 000-event burst reaches 100 subscribers whole', async () => {
    const { listenUrl, writer } = setup();
    const wsUrl = `${listenUrl.replace('http://', 'ws://')}/realtime/ws`;
    const readers = await Promise.all(Array.from({ length: 100 }, () => RawWebSocket.open(wsUrl)));
    for (const client of readers) client.send({ type: 'subscribe', channel: 'burst' });
    await Promise.all(readers.map((client) => client.received(1)));
    const published: Promise<string>[] = [];
    for (let n = 0; n < 10_000; n++) published.push(writer.realtime.publish('burst', { n }));
    await Promise.all(published);
    await Promise.all(readers.map((client) => client.received(1 + 10_000, 120_000)));
    for (const client of readers) {
      expect(client.texts).toBe(1 + 10_000);
      expect(JSON.parse(client.last)).toMatchObject({ type: 'event', channel: 'burst' });
      client.destroy();
    }
  }, 180_000);

  it('a client that stops reading is cut as a slow consumer, and a reading one still gets everything', async () => {
    const { listenUrl, writer } = setup();
    const wsUrl = `${listenUrl.replace('http://', 'ws://')}/realtime/ws`;
    const reader = await RawWebSocket.open(wsUrl);
    const stalled = await RawWebSocket.open(wsUrl);
    for (const client of [reader, stalled]) client.send({ type: 'subscribe', channel: 'burst' });
    await Promise.all([reader, stalled].map((client) => client.received(1)));
    stalled.pause(); // stops reading: the kernel buffers fill, then the server's queue for it
    // 200 events of 256 KiB, 50 MiB, past the 16 MiB bound of one connection; in steps of 2 MiB
    // that the reader takes before the next (a burst past the hard bound would cut it too).
    const data = 'x'.repeat(256 * 1024);
    for (let n = 0; n < 200; n++) {
      await writer.realtime.publish('burst', { n, data });
      if (n % 8 === 7) await reader.received(1 + n + 1, 60_000);
    }
    await reader.received(1 + 200, 60_000);
    expect(reader.texts).toBe(1 + 200);
    stalled.resume();
    // Told why when it reads the close frame in time; else the server has ended the socket (1006 here).
    expect([{ code: 1008, reason: 'slow consumer' }, { code: 1006, reason: '' }]).toContainEqual(await stalled.closed);
    expect(stalled.texts).toBeLessThan(1 + 200);
    reader.destroy();
  }, 120_000);
}

describe('realtime bursts in one process (in-memory bus)', () => {
  let app: PorticoApp;
  let url: string;
  beforeAll(async () => {
    app = burstApp(portico, 'sqlite::memory:', 'memory');
    ({ url } = await app.listen(0));
  });
  afterAll(async () => app?.close());
  bursts(() => ({ listenUrl: url, writer: app, writerUrl: url }));
});

/** Subscribers on a host process; the writer, the test's own app, reaches them through the bus. */
function acrossProcesses(bus: 'postgresql' | 'redis'): void {
  const schema = freshPgSchema();
  let host: ChildProcess | undefined;
  let hostUrl: string;
  let writer: PorticoApp;
  let writerUrl: string;
  beforeAll(async () => {
    const started = await startNode(['tests/support/burst-host.mjs', schema.url, bus === 'redis' ? REDIS_URL : 'postgresql'], /listening: (http:\/\/\S+)/, 30_000);
    host = started.child;
    hostUrl = started.match[1] as string;
    writer = burstApp(portico, schema.url, bus === 'redis' ? { redis: REDIS_URL } : 'postgresql', true);
    ({ url: writerUrl } = await writer.listen(0));
  }, 60_000);
  afterAll(async () => {
    await writer?.close();
    if (host) await stop(host);
    await schema.drop();
  });
  bursts(() => ({ listenUrl: hostUrl, writer, writerUrl }));
}

describe.skipIf(!pg)('realtime bursts across two processes on the PostgreSQL bus', () => acrossProcesses('postgresql'));
describe.skipIf(!pg || !redis)('realtime bursts across two processes on the Redis bus', () => acrossProcesses('redis'));
