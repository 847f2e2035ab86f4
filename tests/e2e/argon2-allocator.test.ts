import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Issue 48: the argon2 addon loads without changing `process.env`. Its allocator (mimalloc) reads
 * its options once, at load; only a process of its own shows what it read: mimalloc prints them
 * when MIMALLOC_VERBOSE is set. The built package is what a host imports.
 */
function purgeDelayOfPackage(env: Record<string, string>): { delay: string | undefined; envAfter: string } {
  const { MIMALLOC_PURGE_DELAY: _unset, ...rest } = process.env;
  const script = "const before = JSON.stringify(process.env); await import('./dist/src/index.js'); console.log(`env same: ${JSON.stringify(process.env) === before}`)";
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, env: { ...rest, MIMALLOC_VERBOSE: '1', ...env }, encoding: 'utf8', timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  return { delay: /option 'purge_delay': (-?\d+)/.exec(run.stderr)?.[1], envAfter: /env same: (.*)/.exec(run.stdout)?.[1] ?? '' };
}

describe('the argon2 addon is loaded as the host runs it (docs/decisions.md, "The hash\'s memory")', () => {
  it("loading the package changes no environment variable: mimalloc keeps its own default", () => {
    expect(purgeDelayOfPackage({})).toEqual({ delay: '10', envAfter: 'true' });
  });

  it("takes the host's MIMALLOC_PURGE_DELAY", () => {
    expect(purgeDelayOfPackage({ MIMALLOC_PURGE_DELAY: '1000' })).toEqual({ delay: '1000', envAfter: 'true' });
  });
});
