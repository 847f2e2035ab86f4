import { describe, expect, it, vi } from 'vitest';
import { guardProcess } from '../../../src/composition/process-guard.js';
import type { Logger } from '../../../src/ports/logger.js';

/** A logger that keeps its error lines. */
function collecting(): Logger & { errors: { obj: object; msg: string | undefined }[] } {
  const errors: { obj: object; msg: string | undefined }[] = [];
  return { errors, debug: () => undefined, info: () => undefined, warn: () => undefined, error: (obj, msg) => void errors.push({ obj, msg }) };
}

/** The process handlers the guard added (those not there before). */
function added(event: 'unhandledRejection' | 'uncaughtException', before: readonly unknown[]): ((...args: unknown[]) => void)[] {
  const now: unknown[] = event === 'unhandledRejection' ? process.listeners('unhandledRejection') : process.listeners('uncaughtException');
  return now.filter((l) => !before.includes(l)) as ((...args: unknown[]) => void)[];
}

// The real events are the e2e test's (tests/e2e/driver-errors.test.ts, in a process of its own):
// here the handlers are called directly, so vitest's own handlers never see an error.
describe('guardProcess', () => {
  it('adds one pair of handlers for every guarded app, logs through each app, and removes them with the last', () => {
    const rejections = process.listeners('unhandledRejection');
    const exceptions = process.listeners('uncaughtException');
    const a = collecting();
    const b = collecting();
    const unguardA = guardProcess(a);
    const unguardB = guardProcess(b);
    const [onRejection, ...moreRejection] = added('unhandledRejection', rejections);
    const [onException, ...moreException] = added('uncaughtException', exceptions);
    expect(moreRejection).toEqual([]);
    expect(moreException).toEqual([]);

    const reason = new Error('nobody handled me');
    onRejection?.(reason, Promise.resolve());
    const thrown = new Error('nobody caught me');
    onException?.(thrown, 'uncaughtException');
    const expected = [
      { obj: { err: reason }, msg: 'unhandled promise rejection (the process keeps serving)' },
      { obj: { err: thrown }, msg: 'uncaught exception (the process keeps serving)' },
    ];
    expect(a.errors).toEqual(expected);
    expect(b.errors).toEqual(expected);

    unguardA();
    unguardA(); // a second removal changes nothing
    expect(added('unhandledRejection', rejections)).toHaveLength(1);
    onRejection?.(reason, Promise.resolve());
    expect(a.errors).toHaveLength(2);
    expect(b.errors).toHaveLength(3);
    unguardB();
    expect(added('unhandledRejection', rejections)).toEqual([]);
    expect(added('uncaughtException', exceptions)).toEqual([]);
  });

  it('a logger that throws does not make the guard throw', () => {
    const rejections = process.listeners('unhandledRejection');
    const unguard = guardProcess({
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => {
        throw new Error('the logger is broken');
      },
    });
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const [onRejection] = added('unhandledRejection', rejections);
      expect(() => onRejection?.(new Error('lost'), Promise.resolve())).not.toThrow();
      expect(printed.mock.calls).toEqual([['portico: unhandled promise rejection (the process keeps serving)', new Error('lost')]]);
    } finally {
      printed.mockRestore();
      unguard();
    }
  });
});
