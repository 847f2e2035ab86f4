/** The state of one throttle key after a hit. */
export interface ThrottleHit {
  /** Hits recorded in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the current window ends and the count starts again from zero. */
  readonly resetInMs: number;
}

/**
 * Counts hits per key in fixed windows, shared by every process that uses the same backing
 * store (memory: one process; database or Redis: several). Used by the login, signup and
 * verification throttles and by resource throttles. Each `hit` is atomic.
 *
 * @example
 * const { count, resetInMs } = await throttle.hit('login:203.0.113.9:alice', 5 * 60_000);
 * if (count > 5) answer429(Math.ceil(resetInMs / 1000));
 */
export interface ThrottleStore {
  /** Records one hit on `key` in a window of `windowMs` (the window starts at the first hit) and returns the count so far. */
  hit(key: string, windowMs: number): Promise<ThrottleHit>;
  /** Forgets every hit on `key` (a successful login clears its budget). */
  reset(key: string): Promise<void>;
}
