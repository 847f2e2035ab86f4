import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore, Write } from '../../ports/record-store.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface LogInInput {
  readonly username: string;
  readonly password: string;
  /** The client address, for the throttle key. */
  readonly ip: string;
  /**
   * The write that grants access once the credentials hold (a bearer token's row): made with the
   * `last_login` stamp as one atomic step, so neither stands without the other.
   */
  readonly grant?: (user: Row) => Write;
}

/** The `detail` of the two refusals (one text for every credential failure). */
const INVALID_CREDENTIALS = 'invalid username or password';
const EMAIL_UNVERIFIED = 'verify your email address before logging in';

export interface LogInDeps {
  readonly store: RecordStore;
  readonly hasher: PasswordHasher;
  readonly throttle: ThrottleGate;
  readonly clock: Clock;
  /** SPEC "Authentication" 4: refuse unverified addresses when on. */
  readonly requireVerifiedEmail: boolean;
  /** A hash of a random password, verified against when the user does not exist. */
  readonly dummyHash: () => Promise<string>;
}

/**
 * Checks credentials (SPEC "Authentication" 1, DESIGN §3 "login throttle", "enumeration
 * safety"). Every attempt spends the IP+username throttle (Throttled when over); an unknown
 * user still costs one argon2 verify against a dummy hash, so timing does not tell whether the
 * user exists; success clears the throttle and stamps `last_login` (with the caller's grant, in
 * one atomic write), and returns the user.
 *
 * Refusals are thrown as DomainError: `invalid_credentials` for an unknown user, a wrong
 * password and an inactive account alike (enumeration safety); `email_unverified` only after a
 * correct password while verification is required. Neither clears the throttle.
 *
 * @example
 * const user = await logIn.execute({ username: 'alice', password: '…', ip: '203.0.113.9' });
 * startSession(user.id); // a refusal never gets here
 */
export class LogIn {
  constructor(private readonly deps: LogInDeps) {}

  async execute(input: LogInInput): Promise<Row> {
    const { store, hasher, throttle } = this.deps;
    const key = `login:${input.ip}:${input.username.toLowerCase()}`;
    await throttle.consume(key, AUTH_RATES.login);
    const [user] = input.username
      ? await store.find('auth_user', { where: { column: 'username', op: 'iexact', value: input.username }, limit: 1 })
      : [];
    const hash = typeof user?.password_hash === 'string' ? user.password_hash : await this.deps.dummyHash();
    const matches = await hasher.verify(hash, input.password);
    if (!user || !matches || user.is_active !== true || typeof user.password_hash !== 'string') {
      throw new DomainError('invalid_credentials', INVALID_CREDENTIALS);
    }
    if (this.deps.requireVerifiedEmail && user.email_verified_at === null) throw new DomainError('email_unverified', EMAIL_UNVERIFIED);
    // The stamp and the grant are one write (one round trip on PostgreSQL), the throttle's reset
    // independent of them: sent together. A login that fails here has granted nothing.
    const stamp: Write = { update: 'auth_user', id: user.id ?? null, changes: { last_login: this.deps.clock.now() } };
    const writes = input.grant ? [stamp, input.grant(user)] : [stamp];
    const [, [stamped]] = await Promise.all([throttle.reset(key), store.writeTogether(writes)]);
    return stamped ?? user;
  }
}
