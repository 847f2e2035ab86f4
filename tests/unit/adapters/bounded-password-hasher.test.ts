import { describe, expect, it } from 'vitest';
import { BoundedPasswordHasher, HasherOverloaded } from '../../../src/adapters/crypto/bounded-password-hasher.js';
import type { PasswordHasher } from '../../../src/ports/password-hasher.js';

class GatedHasher implements PasswordHasher {
  running = 0;
  peak = 0;
  private readonly gates: (() => void)[] = [];
  async hash(p: string): Promise<string> {
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    this.running--;
    return p;
  }
  async verify(): Promise<boolean> {
    return this.hash('').then(() => true);
  }
  releaseAll(): void {
    for (const g of this.gates.splice(0)) g();
  }
}

describe('BoundedPasswordHasher', () => {
  it('runs at most `concurrency` at once, queues up to `queue`, refuses the rest with 503 overloaded', async () => {
    const inner = new GatedHasher();
    const bounded = new BoundedPasswordHasher(inner, { concurrency: 2, queue: 3 });
    const accepted = Array.from({ length: 5 }, (_, i) => bounded.hash(String(i)));
    await expect(bounded.hash('over')).rejects.toBeInstanceOf(HasherOverloaded);
    await expect(bounded.verify('h', 'p')).rejects.toMatchObject({ code: 'overloaded', retryAfterSeconds: 1 });
    let settled = false;
    const all = Promise.all(accepted).finally(() => (settled = true));
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      inner.releaseAll();
    }
    expect(await all).toEqual(['0', '1', '2', '3', '4']);
    expect(inner.peak).toBe(2);
    const again = bounded.hash('again');
    await new Promise((resolve) => setImmediate(resolve));
    inner.releaseAll();
    expect(await again).toBe('again');
  });
});
