import { ConstraintViolation, DomainError, IdempotencyInProgress } from '../../domain/errors/domain-error.js';
import type { Row } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { Clock } from '../../ports/clock.js';
import type { RecordStore } from '../../ports/record-store.js';

/** An answer worth replaying: its status, content type and body text, and the ETag of a one-row answer. */
export interface StoredAnswer {
  readonly status: number;
  readonly type: string;
  readonly body: string;
  readonly etag?: string;
}

/** What to do with a request that carries an Idempotency-Key. */
export type IdempotencyDecision = { readonly kind: 'proceed' } | { readonly kind: 'replay'; readonly answer: StoredAnswer };

/** DESIGN §3 "idempotency": keys are remembered for 24 hours. */
const KEPT_MS = 24 * 3600 * 1000;
/** A first request that has not answered after this long is taken as lost (its process died), and the key freed. */
const ABANDONED_MS = 60 * 1000;

/**
 * POST, PATCH and DELETE with an `Idempotency-Key` (DESIGN §3 "idempotency"): the first request
 * with a key runs and its answer is kept (table `idempotency_key`, so every process sees it); a
 * retry with the same key and the same request within 24 hours gets that answer instead of a
 * second write; the same key with another request answers 422 `idempotency_key_reused`; a retry
 * while the first still runs answers 409 `idempotency_in_progress`. Keys are scoped per caller
 * (credentials), so no one replays another caller's answer.
 *
 * @example
 * const decision = await requests.begin(key, scope, fingerprint);
 * if (decision.kind === 'replay') return decision.answer;
 * try { const answer = await run(); await requests.finish(key, scope, answer); } catch (e) { await requests.abandon(key, scope); throw e; }
 */
export class IdempotentRequests {
  constructor(
    private readonly store: RecordStore,
    private readonly clock: Clock,
  ) {}

  async begin(key: string, scope: string, fingerprint: string): Promise<IdempotencyDecision> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const existing = await this.find(key, scope);
      if (!existing) {
        try {
          await this.store.insert('idempotency_key', { key, scope, fingerprint });
          return { kind: 'proceed' };
        } catch (error) {
          if (error instanceof ConstraintViolation && error.kind === 'unique') continue; // a concurrent first request won
          throw error;
        }
      }
      const age = this.clock.now().getTime() - (existing.created_at as Date).getTime();
      const done = existing.status !== null;
      if (age > KEPT_MS || (!done && age > ABANDONED_MS)) {
        await this.store.delete('idempotency_key', existing.id as number);
        continue;
      }
      if (existing.fingerprint !== fingerprint) {
        throw new DomainError('idempotency_key_reused', 'this Idempotency-Key was used for a different request; use a new key for a new request');
      }
      if (!done) throw new IdempotencyInProgress();
      return { kind: 'replay', answer: existing.response as unknown as StoredAnswer };
    }
    throw new IdempotencyInProgress();
  }

  /** Keeps the answer of the first request (a 5xx is not kept: the key is freed for a retry). */
  async finish(key: string, scope: string, answer: StoredAnswer): Promise<void> {
    if (answer.status >= 500) return this.abandon(key, scope);
    await this.store.updateWhere('idempotency_key', keyed(key, scope), {
      status: answer.status,
      response: { status: answer.status, type: answer.type, body: answer.body, ...(answer.etag ? { etag: answer.etag } : {}) },
    });
  }

  /** Frees the key after a failure, so that a retry runs again. */
  async abandon(key: string, scope: string): Promise<void> {
    const existing = await this.find(key, scope);
    if (existing && existing.status === null) await this.store.delete('idempotency_key', existing.id as number);
  }

  private async find(key: string, scope: string): Promise<Row | undefined> {
    const [row] = await this.store.find('idempotency_key', { where: keyed(key, scope), limit: 1 });
    return row;
  }
}

/** The row of one key for one caller. */
const keyed = (key: string, scope: string): Condition => ({ all: [{ column: 'key', op: 'eq', value: key }, { column: 'scope', op: 'eq', value: scope }] });
