/**
 * Reads a profile written by `allocation-sampler.ts` and prints the bytes allocated per request,
 * then the functions that allocated most (their own allocations, per request).
 *
 * Usage: `node dist/bench/allocation-report.js <profile.json> <requests> [how many functions, 25]`.
 */
import { readFileSync } from 'node:fs';

interface SampledNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SampledNode[];
}

const [file, requestsArg, topArg] = process.argv.slice(2);
const requests = Number(requestsArg);
if (!file || !(requests > 0)) throw new Error('usage: allocation-report <profile.json> <requests> [top]');
const top = Number(topArg ?? 25);

/** Where a frame's code lives: a package by name, the project's own files by path and line, Node's modules as they are. */
function place(frame: SampledNode['callFrame']): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg) return pkg[1] as string;
  const own = /\/dist[^/]*\/(.*)$/.exec(frame.url);
  if (own) return `${own[1]}:${frame.lineNumber + 1}`;
  return frame.url || '(native)';
}

const byFunction = new Map<string, number>();
let total = 0;
const pending: SampledNode[] = [(JSON.parse(readFileSync(file, 'utf8')) as { head: SampledNode }).head];
for (let node = pending.pop(); node; node = pending.pop()) {
  total += node.selfSize;
  if (node.selfSize > 0) {
    const key = `${node.callFrame.functionName || '(anonymous)'} ${place(node.callFrame)}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + node.selfSize);
  }
  pending.push(...node.children);
}

process.stdout.write(`${Math.round(total / requests)} bytes allocated per request (${requests} requests)\n`);
for (const [key, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${String(Math.round(bytes / requests)).padStart(8)}  ${key}\n`);
}
