/**
 * The rules of the task queue that need no I/O (docs/tasks.md): job states, how long to wait
 * before a retry, and what of an error may be stored.
 */

/** A job's state: `failed` is a failed attempt waiting for its retry; `succeeded` and `dead` are final. */
export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'dead';
/** Every state of a job, in the order a job passes through them. */
export const JOB_STATES: readonly JobState[] = ['queued', 'running', 'failed', 'succeeded', 'dead'];

/** The states a unique key is unique among (an unfinished job). */
export const UNFINISHED_STATES: readonly JobState[] = ['queued', 'running', 'failed'];

/** Whether `value` names a job state (a URL parameter, a CLI flag). */
export const isJobState = (value: unknown): value is JobState => typeof value === 'string' && (JOB_STATES as readonly string[]).includes(value);

/** Whether a job in `state` may be queued again with fresh attempts (`retry`): only a dead one; a failed one retries by itself. */
export const canRetry = (state: JobState): boolean => state === 'dead';

/** Exponential backoff between attempts: `baseMs · 2^(attempt−1)`, capped at `maxMs`, with jitter. */
export interface Backoff {
  /** The wait after the first failed attempt (default 1000 ms). */
  readonly baseMs?: number;
  /** The longest wait (default one hour). */
  readonly maxMs?: number;
  /** Randomise the wait between half and all of it, so failed jobs do not retry in lockstep (default true). */
  readonly jitter?: boolean;
}

/**
 * Milliseconds to wait after failed attempt number `attempt` (1 for the first).
 *
 * @example
 * retryDelayMs(3, { baseMs: 100, jitter: false }, Math.random); // 400
 */
export function retryDelayMs(attempt: number, backoff: Backoff, random01: () => number): number {
  const base = backoff.baseMs ?? 1000;
  const max = backoff.maxMs ?? 3_600_000;
  const full = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  if (backoff.jitter === false) return Math.round(full);
  return Math.round(full / 2 + (random01() * full) / 2);
}

/** The longest error message kept in `last_error`. */
const MAX_ERROR_LENGTH = 1000;

/**
 * What of a handler's error is stored in `last_error`: its message only (no stack, no cause, no
 * properties), with credentials in URLs (`smtp://user:pass@host`) and `password=`/`token=`-style
 * pairs masked, cut to 1000 characters.
 */
export function storableError(error: unknown): string {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const masked = raw
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]*(:[^\s/@]*)?@/gi, '$1***@')
    .replace(/\b(pass(word)?|pwd|secret|token|api[_-]?key|authorization)(["']?\s*[=:]\s*["']?)[^\s"',;&]+/gi, '$1$3***');
  return masked.length > MAX_ERROR_LENGTH ? `${masked.slice(0, MAX_ERROR_LENGTH - 1)}…` : masked;
}
