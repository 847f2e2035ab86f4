import { describe, expect, it } from 'vitest';
import { DatabaseClock } from '../../../../src/application/tasks/database-clock.js';
import type { Logger } from '../../../../src/ports/logger.js';

const warnings: unknown[] = [];
const logger = { warn: (o: unknown) => void warnings.push(o), info: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

describe('DatabaseClock', () => {
  it("reads the database's time through the local clock: local time plus the offset at the round trip's midpoint", async () => {
    let local = 1_000_000;
    // The database is 40 s behind this process; the round trip takes 10 ms of local time.
    const clock = new DatabaseClock(
      async () => {
        local += 5;
        const t = new Date(local - 40_000);
        local += 5;
        return t;
      },
      { now: () => new Date(local) },
      logger,
    );
    await clock.sync();
    expect(clock.skewMs).toBe(-40_000);
    local += 1234;
    expect(clock.now().getTime()).toBe(local - 40_000);
  });

  it('warns at start when the skew passes a second, and refuses an answer that is no time', async () => {
    warnings.length = 0;
    const ahead = new DatabaseClock(async () => new Date(Date.now() + 5000), { now: () => new Date() }, logger);
    await ahead.start();
    ahead.stop();
    expect(warnings).toEqual([expect.objectContaining({ skewMs: expect.any(Number) })]);
    const broken = new DatabaseClock(async () => new Date(Number.NaN), { now: () => new Date() }, logger);
    await expect(broken.sync()).rejects.toThrow(/no time/);
    expect(broken.skewMs).toBe(0);
  });
});
