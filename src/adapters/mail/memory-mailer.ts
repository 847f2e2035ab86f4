import type { MailMessage, Mailer } from '../../ports/mailer.js';

interface Waiter {
  readonly predicate: (message: MailMessage) => boolean;
  readonly resolve: (message: MailMessage) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * Keeps sent mail in memory, for tests: read `outbox`, or await a message with `waitFor`.
 *
 * @example
 * const mailer = new MemoryMailer();
 * const mail = mailer.waitFor((m) => m.to === 'a@b.c');
 * await signUp('a@b.c');
 * const code = (await mail).data?.code;
 */
export class MemoryMailer implements Mailer {
  /** Every message sent since construction or the last `clear()`, oldest first. */
  readonly outbox: MailMessage[] = [];
  private readonly waiters = new Set<Waiter>();

  async send(message: MailMessage): Promise<void> {
    this.outbox.push(message);
    for (const waiter of [...this.waiters]) {
      let matches: boolean;
      try {
        matches = waiter.predicate(message);
      } catch (err) {
        this.settle(waiter);
        waiter.reject(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      if (matches) {
        this.settle(waiter);
        waiter.resolve(message);
      }
    }
  }

  /**
   * Resolves with the first message matching `predicate`, already in the outbox or sent later;
   * rejects when none arrives within `timeoutMs`.
   */
  waitFor(predicate: (message: MailMessage) => boolean, timeoutMs = 2000): Promise<MailMessage> {
    try {
      const sent = this.outbox.find(predicate);
      if (sent) return Promise.resolve(sent);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return new Promise<MailMessage>((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          reject(new Error(`MemoryMailer.waitFor: no matching message within ${timeoutMs} ms (outbox holds ${this.outbox.length})`));
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Empties the outbox; pending `waitFor` calls keep waiting for future messages. */
  clear(): void {
    this.outbox.length = 0;
  }

  private settle(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
  }
}
