import { createRequire } from 'node:module';
import type * as CronParser from 'cron-parser';

/** The slots of a cron expression. */
export interface CronSlots {
  /** The latest slot at or before `now`. */
  previous(now: Date): Date;
  /** The first slot after `now`. */
  next(now: Date): Date;
}

/**
 * Parses a cron expression (5 fields, or 6 with seconds first) with `cron-parser`, in UTC;
 * throws on a malformed one, so a bad schedule fails when the task is defined.
 *
 * @example
 * cronSlots('0 * * * *').next(new Date('2026-01-01T10:20:00Z')); // 2026-01-01T11:00:00Z
 */
export function cronSlots(expression: string): CronSlots {
  // cron-parser (and luxon, which it brings) is loaded by the first schedule: apps without one never hold it.
  const { CronExpressionParser } = createRequire(import.meta.url)('cron-parser') as typeof CronParser;
  const at = (now: Date) => CronExpressionParser.parse(expression, { currentDate: now, tz: 'UTC' });
  at(new Date());
  return {
    // `prev` is strictly before its start: start a millisecond later so a slot at `now` is found.
    previous: (now) => at(new Date(now.getTime() + 1)).prev().toDate(),
    next: (now) => at(now).next().toDate(),
  };
}
