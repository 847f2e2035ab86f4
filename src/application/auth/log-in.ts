import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import type { Row } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface LogInInput {
  readonly username: string;
  readonly password: string;
  /** The client address, for the throttle key. */
  readonly ip: string;
}

/** `invalid` covers unknown user, wrong password and inactive account alike (enumeration safety). */
export type LogInResult = { readonly ok: true; readonly user: Row } | { readonly ok: false; readonly reason: 'invalid' | 'unverified' };

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
 * user exists; success clears the throttle and stamps `last_login`.
 *
 * @example
 * const r = await logIn.execute({ username: 'alice', password: '…', ip: '203.0.113.9' });
 * if (r.ok) startSession(r.user.id);
 */
export class LogIn {
  constructor(private readonly deps: LogInDeps) {}

  async execute(input: LogInInput): Promise<LogInResult> {
    const { store, hasher, throttle } = this.deps;
    const key = `login:${input.ip}:${input.username.toLowerCase()}`;
    await throttle.consume(key, AUTH_RATES.login);
    const [user] = input.username
      ? await store.find('auth_user', { where: { column: 'username', op: 'iexact', value: input.username }, limit: 1 })
      : [];
    const hash = typeof user?.password_hash === 'string' ? user.password_hash : await this.deps.dummyHash();
    const matches = await hasher.verify(hash, input.password);
    if (!user || !matches || user.is_active !== true || typeof user.password_hash !== 'string') return { ok: false, reason: 'invalid' };
    if (this.deps.requireVerifiedEmail && user.email_verified_at === null) return { ok: false, reason: 'unverified' };
    await throttle.reset(key);
    const stamped = await store.update('auth_user', user.id ?? null, { last_login: this.deps.clock.now() });
    return { ok: true, user: stamped ?? user };
  }
}
