/**
 * Uploads (issue 51, "Benchmark"): 100 files of 1 MB sent as multipart/form-data, 10 at a time,
 * to Portico's upload path into the disk storage (bench/uploads/portico-server.ts) and to busboy
 * piping to disk by hand (busboy-server.ts), each server in its own process, one after the other
 * in one run: files per second, the ratio, and the server's peak RSS. Goals: ≥ 0.8× throughput,
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

const FILES = 100;
const IN_FLIGHT = 10;
const SIZE = 1024 * 1024;
const here = fileURLToPath(new URL('.', import.meta.url));
// A PDF signature, then random bytes: the sniffer names it application/pdf.
const body = new Uint8Array(Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(SIZE - 9)]));

async function send(url: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([body], { type: 'application/pdf' }), 'report.pdf');
  const res = await fetch(url, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
}

async function measure(script: string): Promise<{ filesPerSecond: number; peakMb: number; idleMb: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'portico-upload-bench-'));
  const server = await startChildServer(join(here, script), ':memory:', { UPLOAD_DIR: dir });
  try {
    const idle = server.peakRssBytes() ?? 0;
    for (let i = 0; i < 10; i++) await send(server.url);
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < FILES) {
          next++;
          await send(server.url);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return { filesPerSecond: FILES / seconds, peakMb: (server.peakRssBytes() ?? 0) / 2 ** 20, idleMb: idle / 2 ** 20 };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const portico = await measure('portico-server.js');
const baseline = await measure('busboy-server.js');
const row = (name: string, m: typeof portico) => `| ${name} | ${m.filesPerSecond.toFixed(1)} | ${m.idleMb.toFixed(1)} | ${m.peakMb.toFixed(1)} | ${(m.peakMb - m.idleMb).toFixed(1)} |`;
const table = [
  '| server | files/s | idle RSS MB | peak RSS MB | peak above idle MB |',
  '|---|---|---|---|---|',
  row('Portico upload path', portico),
  row('busboy to disk', baseline),
  `| ratio | ${(portico.filesPerSecond / baseline.filesPerSecond).toFixed(3)} | | | |`,
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/uploads.md', `# Uploads\n\n${FILES} files of 1 MB, ${IN_FLIGHT} in flight, Node ${process.version} (\`node dist/bench/uploads/run.js\`). Goals: ≥ 0.8× files/s; peak RSS above idle under 2× the bytes in flight (${2 * IN_FLIGHT} MB).\n\n${table}\n`);
