import type { Clock } from '../../ports/clock.js';
import type { ThrottleHit, ThrottleStore } from '../../ports/throttle-store.js';

interface Window {
  hits: number;
  endsAt: number;
}

/** Sweeps never run more often than once per this many hits, so small maps are not swept on every call. */
const MIN_HITS_BETWEEN_SWEEPS = 1024;

/**
 * ThrottleStore for a single process: fixed windows kept in a Map, timed by the injected Clock
 * so tests can move time. A window starts at the first hit on a key and ends `windowMs` later;
 * the first hit at or after its end starts a new one.
 *
 * Expired entries are swept once the number of hits since the last sweep reaches the number of
 * keys that sweep left (and at least MIN_HITS_BETWEEN_SWEEPS). A sweep costs O(size) and is paid
 * for by as many hits, so `hit` stays O(1) amortised; and since only that many keys can be added
 * between sweeps, the map never holds more than about twice the keys live at the last sweep plus
 * the minimum, however many distinct keys pass through.
 */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly windows = new Map<string, Window>();
  private hitsSinceSweep = 0;
  private hitsBeforeSweep = MIN_HITS_BETWEEN_SWEEPS;

  constructor(private readonly clock: Clock) {}

  async hit(key: string, windowMs: number): Promise<ThrottleHit> {
    checkWindow(windowMs);
    const now = this.clock.now().getTime();
    if (++this.hitsSinceSweep >= this.hitsBeforeSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.hits += 1;
    return { count: window.hits, resetInMs: window.endsAt - now };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  /** Number of keys held, expired ones included until the next sweep (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.endsAt <= now) this.windows.delete(key);
    }
    this.hitsSinceSweep = 0;
    this.hitsBeforeSweep = Math.max(MIN_HITS_BETWEEN_SWEEPS, this.windows.size);
  }
}

function checkWindow(windowMs: number): void {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`windowMs must be a positive integer of milliseconds, got ${windowMs}`);
  }
}
