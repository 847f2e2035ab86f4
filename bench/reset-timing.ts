/**
 * Password reset request timing (issue 50, "Benchmark"): `POST /api/auth/password-reset` for a
 * known address against an unknown one, 60 alternating pairs (after 10 warm-up pairs), on the
 * reference app over SQLite with its in-memory outbox; the medians and their ratio are reported.
 * The route answers 202 before it looks the address up, so the two must be within 5 %; each
 * request starts 30 ms after the one before, once its background work is done (back to back, the
 * request after a known address pays for that address's lookup, write and queued mail). A last
 * row times a JSON login against the same server for scale.
 *
 *   npm run build && node dist/bench/reset-timing.js
 *
 * Writes bench/results/reset-timing.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildReferenceApp } from '../examples/reference/app.js';
import { MemoryMailer } from '../src/index.js';
import { median } from './stats.js';

const PAIRS = 60;
const WARMUP = 10;
/** Between requests: what a request leaves to do after its answer is done before the next one. */
const GAP_MS = 30;


async function timed(url: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 202 && res.status !== 200) throw new Error(`unexpected ${res.status}`);
  return ms;
}

async function main(): Promise<void> {
  const app = buildReferenceApp({ database: 'sqlite::memory:', logRequests: false, env: { THROTTLE: 'off' }, mailer: new MemoryMailer() });
  const { url } = await app.listen(0);
  const known: number[] = [];
  const unknown: number[] = [];
  const logins: number[] = [];
  try {
    for (let i = 0; i < WARMUP + PAIRS; i++) {
      // Alternate which goes first, so neither always follows the other's background work.
      const first = i % 2 === 0;
      const a = await timed(`${url}/api/auth/password-reset`, { email: first ? 'alice@example.com' : `nobody${i}@example.com` });
      // The known address's work (a lookup, a write, a queued mail) runs after its answer: let it end.
      await new Promise((r) => setTimeout(r, GAP_MS));
      const b = await timed(`${url}/api/auth/password-reset`, { email: first ? `nobody${i}@example.com` : 'alice@example.com' });
      if (i >= WARMUP) {
        known.push(first ? a : b);
        unknown.push(first ? b : a);
      }
      await new Promise((r) => setTimeout(r, GAP_MS));
    }
    for (let i = 0; i < 20; i++) logins.push(await timed(`${url}/api/auth/login`, { username: 'bob', password: 'bob-password-1' }));
  } finally {
    await app.close();
  }
  const k = median(known);
  const u = median(unknown);
  const table = [
    '| request | median ms | |',
    '|---|---|---|',
    `| password-reset, known address | ${k.toFixed(2)} | |`,
    `| password-reset, unknown address | ${u.toFixed(2)} | ratio known/unknown ${(k / u).toFixed(3)} (${Math.abs(k / u - 1) < 0.05 ? 'within' : 'NOT within'} 5 %) |`,
    `| JSON login, for scale | ${median(logins).toFixed(2)} | |`,
  ].join('\n');
  console.log(table);
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/reset-timing.md', `# Password reset request timing\n\n${PAIRS} pairs after ${WARMUP} warm-up pairs, reference app on SQLite (\`node dist/bench/reset-timing.js\`).\n\n${table}\n`);
}

void main();
