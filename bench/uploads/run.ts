/**
 * Uploads (issue 51, "Benchmark"): 100 files of 1 MB sent as multipart/form-data, 10 at a time,
 * to Portico's REST create of a row with a file column, stored on the disk
 * (bench/uploads/portico-server.ts), and to busboy
 * piping to disk by hand (busboy-server.ts), each server in its own process, in 5 alternating
 * batches: the median batch's files per second, the ratio, and each server's peak RSS. Goals: ≥ 0.8× throughput,
 * peak RSS above the idle server under 2× the bytes in flight (10 × 1 MB: 20 MB).
 *
 *   npm run build && node dist/bench/uploads/run.js
 *
 * Writes bench/results/uploads.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildServer } from '../child-server.js';
import { median } from '../stats.js';

const FILES = 100;
const IN_FLIGHT = 10;
const SIZE = 1024 * 1024;
const here = fileURLToPath(new URL('.', import.meta.url));
// A PDF signature, then random bytes: the sniffer names it application/pdf.
const body = new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(SIZE - 9)]));

async function send(url: string): Promise<void> {
  // The same request to both: Portico's REST create of an upload_doc row, busboy's one route.
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'application/pdf' }), 'report.pdf');
  const res = await fetch(url, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
}

/** One of the two servers, started once and kept for every round. */
async function serve(script: string, path: string) {
  const dir = mkdtempSync(join(tmpdir(), 'portico-upload-bench-'));
  const server = await startChildServer(join(here, script), ':memory:', { UPLOAD_DIR: dir });
  const url = `${server.url}${path}`;
  for (let i = 0; i < 10; i++) await send(url);
  const idle = server.peakRssBytes() ?? 0;
  return {
    /** Files per second of one batch of FILES, IN_FLIGHT at a time. */
    async batch(): Promise<number> {
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < FILES) {
            next++;
            await send(url);
          }
        }),
      );
      return FILES / ((performance.now() - started) / 1000);
    },
    memory: () => ({ peakMb: (server.peakRssBytes() ?? 0) / 2 ** 20, idleMb: idle / 2 ** 20 }),
    async stop(): Promise<void> {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Both servers up, then ROUNDS batches each, alternating, so drift on the machine falls on both; the median batch of each.
const ROUNDS = 5;
const servers = { portico: await serve('portico-server.js', '/api/upload_doc/'), baseline: await serve('busboy-server.js', '/') };
const rates = { portico: [] as number[], baseline: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  rates.portico.push(await servers.portico.batch());
  rates.baseline.push(await servers.baseline.batch());
}
const portico = { filesPerSecond: median(rates.portico), ...servers.portico.memory() };
const baseline = { filesPerSecond: median(rates.baseline), ...servers.baseline.memory() };
await servers.portico.stop();
await servers.baseline.stop();
const row = (name: string, m: typeof portico) => `| ${name} | ${m.filesPerSecond.toFixed(1)} | ${m.idleMb.toFixed(1)} | ${m.peakMb.toFixed(1)} | ${(m.peakMb - m.idleMb).toFixed(1)} |`;
const table = [
  '| server | files/s | idle RSS MB | peak RSS MB | peak above idle MB |',
  '|---|---|---|---|---|',
  row('Portico REST create with a file', portico),
  row('busboy to disk', baseline),
  `| ratio | ${(portico.filesPerSecond / baseline.filesPerSecond).toFixed(3)} | | | |`,
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/uploads.md', `# Uploads\n\n${FILES} files of 1 MB, ${IN_FLIGHT} in flight, median of ${ROUNDS} alternating batches, Node ${process.version} (\`node dist/bench/uploads/run.js\`). Goals: ≥ 0.8× files/s; peak RSS above idle under 2× the bytes in flight (${2 * IN_FLIGHT} MB).\n\n${table}\n`);
