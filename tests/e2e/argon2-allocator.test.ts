import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The purge delay is read by the allocator inside @node-rs/argon2's native addon (mimalloc), once,
 * when the addon loads; only a process of its own shows what it read: mimalloc prints its options
 * at load when MIMALLOC_VERBOSE is set. The built package is what a host imports.
 */
function purgeDelayOfPackage(env: Record<string, string>): { delay: string | undefined; envAfter: string } {
  const { MIMALLOC_PURGE_DELAY: _unset, ...rest } = process.env;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('./dist/src/index.js'); console.log(`env after: ${process.env.MIMALLOC_PURGE_DELAY}`)"], {
    cwd: ROOT,
    env: { ...rest, MIMALLOC_VERBOSE: '1', ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return { delay: /option 'purge_delay': (-?\d+)/.exec(run.stderr)?.[1], envAfter: /env after: (.*)/.exec(run.stdout)?.[1] ?? '' };
}

describe('the argon2 addon is loaded with a purge delay of a second (docs/decisions.md, "The hash\'s memory")', () => {
  it('runs with 1000 ms, and leaves the environment as it found it', () => {
    expect(purgeDelayOfPackage({})).toEqual({ delay: '1000', envAfter: 'undefined' });
  });

  it("keeps the host's MIMALLOC_PURGE_DELAY", () => {
    expect(purgeDelayOfPackage({ MIMALLOC_PURGE_DELAY: '25' })).toEqual({ delay: '25', envAfter: '25' });
  });
});
