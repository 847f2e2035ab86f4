// Burst bench (issue 47): a burst of 10 000 events on one channel fanned out to 100 WebSocket
// subscribers, Portico's realtime() (bench/realtime/server.ts) against a hand-written `ws` server
// (raw-burst-server.ts) in the same run, 3 alternating rounds on fresh servers. Reports events
// delivered per second (100 × 10 000 over the time from the burst's request to the last frame
// received) and each server's peak RSS (VmHWM). Results in bench/results/realtime-burst.{json,md}.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = dirname(fileURLToPath(import.meta.url));
const EVENTS = Number(process.env.BENCH_BURST_EVENTS ?? 10_000);
const SUBSCRIBERS = Number(process.env.BENCH_BURST_SUBSCRIBERS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
type Side = 'raw' | 'portico';

async function start(side: Side): Promise<{ child: ChildProcess; url: string }> {
  const script = join(here, side === 'raw' ? 'raw-burst-server.js' : 'server.js');
  const child = spawn(process.execPath, [script], { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve((m[1] as string).replace(/\/$/, ''));
    });
    child.on('exit', (code) => reject(new Error(`${side} server exited with ${String(code)}`)));
  });
  return { child, url };
}

/** A subscriber that counts event frames (without parsing them) and resolves once it has `EVENTS`. */
function subscribe(url: string): Promise<{ all: Promise<number>; close(): void }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http://', 'ws://')}/realtime/ws`);
    let events = 0;
    let done!: (at: number) => void;
    const all = new Promise<number>((r) => (done = r));
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', channel: 'news' })));
    ws.on('message', (raw: WebSocket.RawData) => {
      const text = raw.toString();
      if (text.startsWith('{"type":"subscribed"')) resolve({ all, close: () => ws.terminate() });
      else if (text.startsWith('{"type":"event"') && ++events === EVENTS) done(performance.now());
    });
    ws.on('close', (code, reason) => {
      done(Number.NaN);
      reject(new Error(`closed ${code} ${String(reason)}`));
    });
    ws.on('error', reject);
  });
}

async function round(side: Side): Promise<{ eventsPerSecond: number; peakRssMb: number }> {
  const { child, url } = await start(side);
  try {
    const subscribers = await Promise.all(Array.from({ length: SUBSCRIBERS }, () => subscribe(url)));
    const started = performance.now();
    const res = await fetch(`${url}/bench/burst?n=${EVENTS}`, { method: 'POST' });
    if (res.status !== 200) throw new Error(`${side}: the burst answered ${res.status}`);
    const last = Math.max(...(await Promise.all(subscribers.map((s) => s.all))));
    if (!Number.isFinite(last)) throw new Error(`${side}: a subscriber was cut before it had every event`);
    const peak = ((await (await fetch(`${url}/bench/peak`)).json()) as { peakRss: number }).peakRss;
    for (const s of subscribers) s.close();
    return { eventsPerSecond: (EVENTS * SUBSCRIBERS) / ((last - started) / 1000), peakRssMb: peak / 1024 / 1024 };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const rounds: { raw: Awaited<ReturnType<typeof round>>; portico: Awaited<ReturnType<typeof round>>; ratio: number }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  // Alternating which side goes first, so a drift of the machine weighs on both.
  const first: Side = i % 2 === 0 ? 'raw' : 'portico';
  const a = await round(first);
  const b = await round(first === 'raw' ? 'portico' : 'raw');
  const [raw, portico] = first === 'raw' ? [a, b] : [b, a];
  rounds.push({ raw, portico, ratio: portico.eventsPerSecond / raw.eventsPerSecond });
  console.log(`round ${i + 1}: raw ${raw.eventsPerSecond.toFixed(0)} events/s (peak RSS ${raw.peakRssMb.toFixed(0)} MB), Portico ${portico.eventsPerSecond.toFixed(0)} (${portico.peakRssMb.toFixed(0)} MB): ${(portico.eventsPerSecond / raw.eventsPerSecond).toFixed(2)}`);
}
const ratio = median(rounds.map((r) => r.ratio));
const md = [
  `Burst of ${EVENTS} events × ${SUBSCRIBERS} WebSocket subscribers, ${ROUNDS} alternating rounds on fresh servers; events delivered per second, peak RSS (VmHWM)`,
  '',
  '| round | raw events/s | raw peak RSS | Portico events/s | Portico peak RSS | Portico/raw |',
  '|---:|---:|---:|---:|---:|---:|',
  ...rounds.map((r, i) => `| ${i + 1} | ${r.raw.eventsPerSecond.toFixed(0)} | ${r.raw.peakRssMb.toFixed(0)} MB | ${r.portico.eventsPerSecond.toFixed(0)} | ${r.portico.peakRssMb.toFixed(0)} MB | ${r.ratio.toFixed(2)} |`),
  `| median | | | | | ${ratio.toFixed(2)} |`,
].join('\n');
const out = join(here, '../../../bench/results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'realtime-burst.json'), JSON.stringify({ date: new Date().toISOString(), events: EVENTS, subscribers: SUBSCRIBERS, rounds, ratio }, null, 2));
writeFileSync(join(out, 'realtime-burst.md'), `${md}\n`);
console.log(`\n${md}`);
process.exit(0);
