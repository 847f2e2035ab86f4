import type { Clock } from '../../ports/clock.js';

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };
