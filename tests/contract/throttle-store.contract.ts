import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThrottleStore } from '../../src/ports/throttle-store.js';

/** What a contract run needs from an adapter. */
export interface ThrottleFixture {
  /** The store under test, on a fresh, empty backing store. */
  readonly store: ThrottleStore;
  /**
   * A second store instance on the same backing store (another connection or object), to show
   * that instances share one budget; absent where sharing means the same object (memory).
   */
  readonly peer?: ThrottleStore;
  /** Moves time forward by at least `ms` as the store sees it (a manual clock, or a real sleep). */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Slack allowed between the window length and the reported `resetInMs` of a fresh window (real clocks). */
const SLACK_MS = 150;
/** A window long enough that no test reaches its end unless it advances past it. */
const LONG = 60_000;
/** A window short enough for a real-clock adapter to outlive in a test (Redis sleeps through it). */
const SHORT = 300;

/**
 * The ThrottleStore contract, written once and run against every adapter (STYLE guideline 8).
 * Case ids are stable: TS-<n>; every case here is a MUST.
 */
export function throttleStoreContract(open: () => Promise<ThrottleFixture>, options: { peers: boolean } = { peers: true }): void {
  let f: ThrottleFixture;
  let store: ThrottleStore;

  beforeEach(async () => {
    f = await open();
    store = f.store;
  });
  afterEach(async () => {
    await f.close();
  });

  const expectFreshWindow = (resetInMs: number, windowMs: number) => {
    expect(resetInMs).toBeLessThanOrEqual(windowMs);
    expect(resetInMs).toBeGreaterThan(windowMs - SLACK_MS);
  };

  describe('TS', () => {
    it('TS-1 the first hit on a key counts 1 and its window lasts windowMs', async () => {
      const hit = await store.hit('login:203.0.113.9:alice', LONG);
      expect(hit.count).toBe(1);
      expectFreshWindow(hit.resetInMs, LONG);
    });

    it('TS-2 hits within the window count up and do not extend it', async () => {
      expect((await store.hit('k', 1000)).count).toBe(1);
      await f.advance(400);
      const second = await store.hit('k', 1000);
      expect(second.count).toBe(2);
      expect(second.resetInMs).toBeLessThanOrEqual(600);
      expect(second.resetInMs).toBeGreaterThan(0);
      const third = await store.hit('k', 1000);
      expect(third.count).toBe(3);
      expect(third.resetInMs).toBeLessThanOrEqual(second.resetInMs);
    });

    it('TS-3 separate keys are counted independently', async () => {
      await store.hit('a', LONG);
      await store.hit('a', LONG);
      const b = await store.hit('b', LONG);
      expect(b.count).toBe(1);
      expectFreshWindow(b.resetInMs, LONG);
      expect((await store.hit('a', LONG)).count).toBe(3);
    });

    it('TS-4 once the window has passed the count restarts at 1 with a fresh window', async () => {
      await store.hit('k', SHORT);
      await store.hit('k', SHORT);
      await f.advance(SHORT);
      const next = await store.hit('k', SHORT);
      expect(next.count).toBe(1);
      expectFreshWindow(next.resetInMs, SHORT);
      expect((await store.hit('k', SHORT)).count).toBe(2);
    });

    it('TS-5 reset forgets the hits of one key only; resetting an unknown key is a no-op', async () => {
      await store.hit('k', LONG);
      await store.hit('k', LONG);
      await store.hit('other', LONG);
      await store.reset('k');
      await store.reset('never-hit');
      const after = await store.hit('k', LONG);
      expect(after.count).toBe(1);
      expectFreshWindow(after.resetInMs, LONG);
      expect((await store.hit('other', LONG)).count).toBe(2);
    });

    it('TS-6 50 concurrent hits on one key get the counts 1..50, each once (hit is atomic)', async () => {
      const hits = await Promise.all(Array.from({ length: 50 }, () => store.hit('burst', LONG)));
      expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      for (const h of hits) expect(h.resetInMs).toBeLessThanOrEqual(LONG);
    });

    // A memory store has no second instance on the same backing store: the case does not apply there.
    const shared = options.peers ? it : () => undefined;
    shared('TS-7 two store instances on one backing store share one budget, also concurrently', async () => {
      const peer = f.peer;
      if (!peer) throw new Error('this fixture must provide a peer store');
      expect((await store.hit('shared', LONG)).count).toBe(1);
      expect((await peer.hit('shared', LONG)).count).toBe(2);
      const hits = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? store : peer).hit('shared', LONG)));
      expect(hits.map((h) => h.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 3));
      await peer.reset('shared');
      expect((await store.hit('shared', LONG)).count).toBe(1);
    });

    it('TS-8 keys are opaque text: separators, quotes, wildcards and non-ASCII are kept apart', async () => {
      const keys = ["login:203.0.113.9:o'brien", 'login:203.0.113.9:o"brien', 'login:*', 'login:%', 'signup:ünïcødé 😀', ''];
      for (const key of keys) expect((await store.hit(key, LONG)).count).toBe(1);
      for (const key of keys) expect((await store.hit(key, LONG)).count).toBe(2);
    });

    it('TS-9 a window that is not a positive integer of milliseconds is refused', async () => {
      for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(store.hit('k', bad)).rejects.toBeInstanceOf(RangeError);
      }
      expect((await store.hit('k', LONG)).count).toBe(1);
    });
  });
}
