// The server side of the realtime bench: one process, an in-memory store, a REST resource whose
// committed writes are published on the `news` channel, and realtime() with caps raised for
// thousands of subscribers from one address. Prints its URL; answers its memory at /bench/memory,
// its peak RSS at /bench/peak, and publishes a burst at POST /bench/burst?n=.
import { readFileSync } from 'node:fs';
import { AllowAny, c, createApp, defineModel, realtime, rest } from '../../src/index.js';

const gc = (globalThis as { gc?: () => void }).gc;
const peakRss = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const fanOutMs: number[] = [];
const app = createApp({ database: 'memory:', models: [defineModel('item', { id: c.id(), t: c.float() })], logRequests: false })
  .use(rest().resource({ table: 'item', permission: AllowAny }))
  .use(realtime({ maxConnectionsPerCaller: 100_000, heartbeatMs: 60_000 }).channel('news'))
  .use({
    name: 'bench',
    install(ctx) {
      // The process that commits the write publishes it (with one process, every subscriber is here).
      // The in-memory bus hands the event to the hub before `publish` resolves, so its time is the
      // server's fan-out: every subscriber's frame written to its socket (or queued when full).
      ctx.events.onCommitted('post_save', 'item', async (e) => {
        const started = performance.now();
        await app.realtime.publish('news', { id: e.row.id, t: e.row.t });
        fanOutMs.push(performance.now() - started);
      });
      ctx.route({ method: 'GET', path: '/bench/fan-out', handler: () => ({ status: 200, body: { ms: fanOutMs.splice(0) } }) });
      // A burst: `n` events published on `news` in one loop, as a bulk write's announcements are.
      ctx.route({
        method: 'POST',
        path: '/bench/burst',
        handler: async (req) => {
          const n = Number(req.query.n ?? 10_000);
          const sent: Promise<string>[] = [];
          for (let i = 0; i < n; i++) sent.push(app.realtime.publish('news', { id: i, t: -1 }));
          await Promise.all(sent);
          return { status: 200, body: { n } };
        },
      });
      // The most memory the process has held (VmHWM), in bytes.
      ctx.route({ method: 'GET', path: '/bench/peak', handler: async () => ({ status: 200, body: { peakRss: peakRss() } }) });
      ctx.route({
        method: 'GET',
        path: '/bench/memory',
        handler: () => {
          gc?.();
          const m = process.memoryUsage();
          return { status: 200, body: { rss: m.rss, heapUsed: m.heapUsed, external: m.external } };
        },
      });
    },
  });

const { url } = await app.listen(Number(process.env.PORT ?? 0));
console.log(`listening ${url}`);
process.on('SIGTERM', () => void app.close(0).then(() => process.exit(0)));
