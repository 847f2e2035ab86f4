/**
 * Static files (issue 51, "Benchmark"): `GET /static/site.css` and a 1 MB file from Portico's
 * staticFiles() against Koa with `send` (bench/static-files/send-server.ts), each server in its
 * own process, measured with autocannon (bench/measure.ts) one after the other in one run;
 * requests per second and the ratio. Goal: ≥ 0.9×.
 *
 *   npm run build && node dist/bench/static-files/run.js
 *
 * Writes bench/results/static-files.md.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChildServer } from '../child-server.js';
import { measure, type Measurement } from '../measure.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'portico-static-bench-'));
copyFileSync(fileURLToPath(new URL('../../../examples/reference/static/site.css', import.meta.url)), join(dir, 'site.css'));
writeFileSync(join(dir, 'big.bin'), randomBytes(1024 * 1024));

const rows: string[] = [];
try {
  for (const [label, file] of [
    ['site.css', 'site.css'],
    ['1 MB file', 'big.bin'],
  ] as const) {
    const results: Record<string, Measurement> = {};
    for (const [name, script] of [
      ['portico', 'portico-server.js'],
      ['send', 'send-server.js'],
    ] as const) {
      const server = await startChildServer(join(here, script), ':memory:', { STATIC_DIR: dir });
      try {
        results[name] = await measure(`${name} ${label}`, `${server.url}/static/${file}`);
      } finally {
        await server.stop();
      }
    }
    const p = results.portico as Measurement;
    const s = results.send as Measurement;
    rows.push(`| ${label} | ${p.requestsPerSecond.toFixed(0)} | ${s.requestsPerSecond.toFixed(0)} | ${(p.requestsPerSecond / s.requestsPerSecond).toFixed(3)} | ${p.latencyP99Ms} / ${s.latencyP99Ms} |`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const table = ['| file | Portico req/s | Koa + send req/s | ratio | p99 ms (Portico / send) |', '|---|---|---|---|---|', ...rows].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/static-files.md', `# Static files\n\nautocannon, 10 connections, Node ${process.version} (\`node dist/bench/static-files/run.js\`). Goal: ≥ 0.9×.\n\n${table}\n`);
