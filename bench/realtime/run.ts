// Realtime bench (issue "realtime across processes"): on one server process, how many idle SSE and
// WebSocket subscribers it holds and the memory each costs, and the time from a REST write to its
// delivery (p50, p99) at 1 000 and 10 000 subscribers. Half the subscribers use SSE, half
// WebSocket, all from this client process. Results in bench/results/realtime.{json,md}.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.BENCH_REALTIME_SIZES ?? '1000,10000').split(',').map(Number);
/** `sse` or `ws` to measure one transport alone (default: half and half). */
const ONLY = process.env.BENCH_REALTIME_ONLY;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
}

interface Subscriber {
  close(): void;
}

type OnData = (data: { id: number; t: number }) => void;

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, ['--expose-gc', ...flags, join(here, 'server.js')], { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${String(code)}`)));
  });
  return { child, url };
}

const memory = async (url: string): Promise<Memory> => (await (await fetch(`${url}/bench/memory`)).json()) as Memory;

function openSse(url: string, onData: OnData): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/realtime/events?channel=news`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE answered ${String(res.statusCode)}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (buffer === '' && chunk.startsWith(':')) resolve({ close: () => req.destroy() }); // ": connected"
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) onData(JSON.parse(data.slice(6)) as { id: number; t: number });
        }
      });
    });
    req.on('error', reject);
  });
}

function openWs(url: string, onData: OnData): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http://', 'ws://')}/realtime/ws`);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', channel: 'news' })));
    ws.on('message', (raw: WebSocket.RawData) => {
      const m = JSON.parse(raw.toString()) as { type: string; data?: { id: number; t: number } };
      if (m.type === 'subscribed') resolve({ close: () => ws.terminate() });
      else if (m.type === 'event' && m.data) onData(m.data);
    });
    ws.on('error', reject);
  });
}

/** Opens `n` subscribers, half SSE and half WebSocket, 250 at a time. */
async function openAll(url: string, n: number, onData: OnData): Promise<Subscriber[]> {
  const out: Subscriber[] = [];
  for (let i = 0; i < n; i += 250) {
    const sse = (k: number) => (ONLY ? ONLY === 'sse' : (i + k) % 2 === 0);
    const batch = Array.from({ length: Math.min(250, n - i) }, (_, k) => (sse(k) ? openSse(url, onData) : openWs(url, onData)));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

async function measure(n: number) {
  const { child, url } = await startServer();
  try {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = await memory(url);
    let current = -1;
    let started = 0;
    let got = 0;
    const latencies: number[] = [];
    const subscribers = await openAll(url, n, (data) => {
      if (data.t !== current) return;
      latencies.push(performance.now() - started);
      got++;
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = await memory(url);
    const writes = n >= 10_000 ? 10 : 30;
    const clientCpu = process.cpuUsage();
    for (let i = 0; i < writes; i++) {
      current = i;
      got = 0;
      started = performance.now();
      const res = await fetch(`${url}/api/item/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ t: i }) });
      if (res.status !== 201) throw new Error(`write answered ${res.status}`);
      const deadline = Date.now() + 15_000;
      while (got < n && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
      if (got < n) throw new Error(`write ${i}: ${got} of ${n} deliveries`);
    }
    const { user, system } = process.cpuUsage(clientCpu);
    const fanOut = ((await (await fetch(`${url}/bench/fan-out`)).json()) as { ms: number[] }).ms.sort((a, b) => a - b);
    if (fanOut.length !== writes) throw new Error(`${fanOut.length} fan-outs timed for ${writes} writes`);
    for (const s of subscribers) s.close();
    latencies.sort((a, b) => a - b);
    return {
      subscribers: n,
      sse: ONLY ? (ONLY === 'sse' ? n : 0) : Math.ceil(n / 2),
      websocket: ONLY ? (ONLY === 'ws' ? n : 0) : Math.floor(n / 2),
      rssPerConnectionKb: (idle.rss - before.rss) / n / 1024,
      heapPerConnectionKb: (idle.heapUsed + idle.external - before.heapUsed - before.external) / n / 1024,
      serverRssMb: idle.rss / 1024 / 1024,
      writes,
      deliveries: latencies.length,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      fanOutMedianMs: quantile(fanOut, 0.5),
      fanOutMaxMs: fanOut[fanOut.length - 1] ?? NaN,
      clientCpuPerWriteMs: (user + system) / 1000 / writes,
    };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const results = [];
for (const n of SIZES) {
  const r = await measure(n);
  results.push(r);
  console.log(
    `${r.subscribers} subscribers (${r.sse} SSE + ${r.websocket} WebSocket): ${r.rssPerConnectionKb.toFixed(1)} KB RSS (${r.heapPerConnectionKb.toFixed(1)} KB heap) per idle connection; ` +
      `write → delivery p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms over ${r.deliveries} deliveries; ` +
      `the server's fan-out of a write ${r.fanOutMedianMs.toFixed(1)} ms (median), ${r.fanOutMaxMs.toFixed(1)} ms (max); ` +
      `this client's CPU to receive a write ${r.clientCpuPerWriteMs.toFixed(1)} ms`,
  );
}
agent.destroy();
const md = [
  '| subscribers | RSS per idle connection | heap per idle connection | server RSS | write → delivery p50 | p99 | server fan-out median | max | client CPU per write |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    (r) =>
      `| ${r.subscribers} (${r.sse} SSE + ${r.websocket} WS) | ${r.rssPerConnectionKb.toFixed(1)} KB | ${r.heapPerConnectionKb.toFixed(1)} KB | ${r.serverRssMb.toFixed(0)} MB | ${r.p50Ms.toFixed(1)} ms | ${r.p99Ms.toFixed(1)} ms | ${r.fanOutMedianMs.toFixed(1)} ms | ${r.fanOutMaxMs.toFixed(1)} ms | ${r.clientCpuPerWriteMs.toFixed(1)} ms |`,
  ),
].join('\n');
const out = join(here, '../../../bench/results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'realtime.json'), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
writeFileSync(join(out, 'realtime.md'), `${md}\n`);
console.log(`\n${md}`);
process.exit(0);
