import { DomainError } from '../../domain/errors/domain-error.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** The hash queue is full: 503 with Retry-After, never unbounded memory. */
export class HasherOverloaded extends DomainError {
  override readonly name = 'HasherOverloaded';
  readonly retryAfterSeconds = 1;
  constructor() {
    super('overloaded', 'the server is busy; try again shortly');
  }
}

export interface HasherBounds {
  /** Hashes running at once (argon2id at 19 MiB each). */
  readonly concurrency: number;
  /** Calls allowed to wait; beyond that, HasherOverloaded. */
  readonly queue: number;
}

/**
 * Bounds argon2 work: at most `concurrency` hashes run at once and at most `queue` wait.
 * Memory stays bounded under a login flood, and callers past the bound get a 503 at once.
 */
export class BoundedPasswordHasher implements PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly inner: PasswordHasher,
    private readonly bounds: HasherBounds = { concurrency: 4, queue: 64 },
  ) {}

  hash(password: string): Promise<string> {
    return this.run(() => this.inner.hash(password));
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.run(() => this.inner.verify(hash, password));
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.bounds.concurrency) {
      if (this.waiting.length >= this.bounds.queue) throw new HasherOverloaded();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const nextInLine = this.waiting.shift();
      if (nextInLine) nextInLine();
      else this.running--;
    }
  }
}
