import { describe, expect, it } from 'vitest';
import { canRetry, isJobState, JOB_STATES, retryDelayMs, storableError } from '../../../src/domain/tasks/task-policy.js';

describe('retryDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    const plain = { baseMs: 100, maxMs: 1000, jitter: false };
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, plain, Math.random))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });
  it('jitters between half and all of the wait', () => {
    expect(retryDelayMs(3, { baseMs: 100 }, () => 0)).toBe(200);
    expect(retryDelayMs(3, { baseMs: 100 }, () => 1)).toBe(400);
  });
});

describe('storableError', () => {
  it('keeps the message and masks credentials', () => {
    const text = storableError(new Error('login to smtp://bob:s3cret@mail.example:587 failed; password=s3cret token: abc'));
    expect(text).toBe('Error: login to smtp://***@mail.example:587 failed; password=*** token: ***');
  });
  it('keeps no stack and cuts long messages', () => {
    const text = storableError(new Error('x'.repeat(5000)));
    expect(text.length).toBe(1000);
    expect(text).not.toContain('\n    at ');
  });
});

describe('job states', () => {
  it('isJobState knows the five states and nothing else', () => {
    expect(JOB_STATES.every(isJobState)).toBe(true);
    for (const other of ['', 'Dead', 'lost', 'toString', '__proto__']) expect(isJobState(other), other).toBe(false);
  });
  it('only a dead job can be retried', () => {
    expect(JOB_STATES.filter(canRetry)).toEqual(['dead']);
  });
});
