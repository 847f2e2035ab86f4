import { Throttled } from '../../domain/errors/domain-error.js';
import type { Rate } from '../../domain/auth/throttle-rates.js';
import type { ThrottleStore } from '../../ports/throttle-store.js';

/**
 * Spends one unit of `rate` on `key`; throws Throttled (429 with Retry-After) once the budget
 * is spent. A gate built with `enabled: false` lets everything through (THROTTLE=off).
 */
export class ThrottleGate {
  constructor(
    private readonly store: ThrottleStore,
    private readonly enabled = true,
  ) {}

  async consume(key: string, rate: Rate): Promise<void> {
    if (!this.enabled) return;
    const hit = await this.store.hit(key, rate.windowMs);
    if (hit.count > rate.limit) throw new Throttled(hit.resetInMs / 1000);
  }

  /** True when `key` still has budget; spends one unit either way. */
  async allows(key: string, rate: Rate): Promise<boolean> {
    if (!this.enabled) return true;
    return (await this.store.hit(key, rate.windowMs)).count <= rate.limit;
  }

  async reset(key: string): Promise<void> {
    if (this.enabled) await this.store.reset(key);
  }
}
