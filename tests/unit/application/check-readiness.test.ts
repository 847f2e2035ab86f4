import { describe, expect, it } from 'vitest';
import { CheckReadiness, type NamedCheck } from '../../../src/application/check-readiness.js';

const run = (checks: NamedCheck[], options: { timeoutMs?: number; draining?: boolean; errors?: unknown[] } = {}) =>
  new CheckReadiness(
    () => checks,
    options.timeoutMs ?? 1000,
    () => options.draining ?? false,
    (_name, error) => options.errors?.push(error),
  ).execute();

describe('CheckReadiness', () => {
  it('is ok when every check passes', async () => {
    expect(await run([{ name: 'database', check: async () => undefined }])).toEqual({ status: 'ok', checks: { database: { status: 'ok' } } });
  });

  it('fails a throwing check with the generic reason and keeps the error out of the report', async () => {
    const errors: unknown[] = [];
    const report = await run(
      [
        { name: 'database', check: async () => { throw new Error('password authentication failed for user "admin" at db.internal:5432'); } },
        { name: 'cache', check: async () => undefined },
      ],
      { errors },
    );
    expect(report).toEqual({ status: 'fail', checks: { database: { status: 'fail', reason: 'unavailable' }, cache: { status: 'ok' } } });
    expect(JSON.stringify(report)).not.toMatch(/password|internal|5432/);
    expect(errors).toHaveLength(1);
  });

  it('passes on a reason the check names itself', async () => {
    const report = await run([{ name: 'migrations', check: async () => ({ status: 'fail', reason: '2 migrations pending' }) }]);
    expect(report).toEqual({ status: 'fail', checks: { migrations: { status: 'fail', reason: '2 migrations pending' } } });
  });

  it('fails a check that overruns its timeout with "timed out"', async () => {
    const report = await run([{ name: 'slow', check: () => new Promise(() => undefined) }], { timeoutMs: 30 });
    expect(report).toEqual({ status: 'fail', checks: { slow: { status: 'fail', reason: 'timed out' } } });
  });

  it('runs the checks in parallel', async () => {
    const started: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = run([
      { name: 'a', check: async () => { started.push('a'); await gate; } },
      { name: 'b', check: async () => { started.push('b'); await gate; } },
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    release();
    expect((await pending).status).toBe('ok');
  });

  it('reports draining without running any check', async () => {
    let ran = false;
    const report = await run([{ name: 'database', check: async () => void (ran = true) }], { draining: true });
    expect(report).toEqual({ status: 'draining' });
    expect(ran).toBe(false);
  });
});
