import { textProblem } from '../../domain/model/values.js';
import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import { CODE_MAX_ATTEMPTS, isWellFormedCode } from '../../domain/auth/verification-code.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { RecordStore } from '../../ports/record-store.js';
import { codeHash } from './issue-verification-code.js';
import { sameSecret } from './secrets.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface VerifyEmailInput {
  readonly email: unknown;
  readonly code: unknown;
  readonly ip: string;
}

/** The one detail every verification failure shares (SPEC: same body shape for all). */
export const INVALID_CODE = 'invalid or expired code';

const refused = (): DomainError => new DomainError('invalid_code', INVALID_CODE);

export interface VerifyEmailDeps {
  readonly store: RecordStore;
  readonly clock: Clock;
  readonly throttle: ThrottleGate;
  readonly secret: string;
}

/**
 * Confirms an address with its code (SPEC "States and transitions"). Succeeds only for the
 * active code of that user, unexpired, unused, under the attempt cap. A wrong guess counts an
 * attempt with a compare-and-set (no lost increments under concurrency); the fifth wrong guess
 * burns the code; consuming the code is a compare-and-set too, so two concurrent correct
 * verifies succeed once. Every failure throws the same DomainError `invalid_code`.
 */
export class VerifyEmail {
  constructor(private readonly deps: VerifyEmailDeps) {}

  async execute(input: VerifyEmailInput): Promise<void> {
    const email = typeof input.email === 'string' ? input.email.trim() : '';
    await this.deps.throttle.consume(`verify:${input.ip}:${email.toLowerCase()}`, AUTH_RATES.verification);
    // Every failure answers alike (SPEC): an address no account can have is simply not found.
    if (!email || textProblem(email) || !isWellFormedCode(input.code)) throw refused();
    const code = input.code;
    const { store, clock } = this.deps;
    const [user] = await store.find('auth_user', { where: { column: 'email', op: 'iexact', value: email }, limit: 1 });
    if (!user) throw refused();
    const active = await this.activeCode(user.id ?? null);
    if (!active) throw refused();
    if (!sameSecret(String(active.code_hash), codeHash(this.deps.secret, user.id, code))) {
      await this.countWrongGuess(active);
      throw refused();
    }
    // A lost claim returns false rather than throwing inside the transaction: it commits (nothing), never rolls back.
    const verified = await store.transaction(async (tx) => {
      const now = clock.now();
      const claimed = await tx.updateWhere(
        'auth_email_code',
        {
          all: [
            { column: 'id', op: 'eq', value: active.id ?? null },
            { column: 'used_at', op: 'isnull', value: true },
            { column: 'invalidated_at', op: 'isnull', value: true },
            { column: 'attempts', op: 'lt', value: CODE_MAX_ATTEMPTS },
            { column: 'expires_at', op: 'gt', value: now },
          ],
        },
        { used_at: now },
      );
      if (claimed.length !== 1) return false;
      await tx.update('auth_user', user.id ?? null, { email_verified_at: now });
      return true;
    });
    if (!verified) throw refused();
  }

  /** The newest code of the user that is neither used, invalidated, expired nor burned. */
  private async activeCode(userId: Value): Promise<Row | undefined> {
    const [code] = await this.deps.store.find('auth_email_code', {
      where: {
        all: [
          { column: 'user_id', op: 'eq', value: userId },
          { column: 'used_at', op: 'isnull', value: true },
          { column: 'invalidated_at', op: 'isnull', value: true },
          { column: 'attempts', op: 'lt', value: CODE_MAX_ATTEMPTS },
          { column: 'expires_at', op: 'gt', value: this.deps.clock.now() },
        ],
      },
      orderBy: [{ column: 'id', direction: 'desc' }],
      limit: 1,
    });
    return code;
  }

  /** attempts + 1 as a compare-and-set, retried when a concurrent guess got there first. */
  private async countWrongGuess(code: Row): Promise<void> {
    let seen = Number(code.attempts);
    for (let tries = 0; tries < CODE_MAX_ATTEMPTS * 2 && seen < CODE_MAX_ATTEMPTS; tries++) {
      const done = await this.deps.store.updateWhere(
        'auth_email_code',
        { all: [{ column: 'id', op: 'eq', value: code.id ?? null }, { column: 'attempts', op: 'eq', value: seen }] },
        { attempts: seen + 1 },
      );
      if (done.length === 1) return;
      const fresh = await this.deps.store.getById('auth_email_code', code.id ?? null);
      seen = Number(fresh?.attempts ?? CODE_MAX_ATTEMPTS);
    }
  }
}
