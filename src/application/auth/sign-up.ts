import { emailProblems, passwordProblems, usernameProblems } from '../../domain/auth/password-rules.js';
import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import { ConstraintViolation, DomainError, type FieldError } from '../../domain/errors/domain-error.js';
import type { Row } from '../../domain/model/types.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { IssueVerificationCode } from './issue-verification-code.js';
import type { ThrottleGate } from './throttle-gate.js';

export interface SignUpInput {
  readonly username: unknown;
  readonly email: unknown;
  readonly password: unknown;
  readonly ip: string;
}

/** `verificationPending`: a code was mailed and the account may not log in until it is used. */
export interface SignUpResult {
  readonly user: Row;
  readonly verificationPending: boolean;
}

/**
 * The refusal of a signup: `invalid_input` listing every field problem (detail
 * `"<field> <message>; …"`). Its own class so a caller can tell it from an `invalid_input` the
 * store raises for input no account could hold (that one is not a form problem to show back).
 */
export class SignUpRefused extends DomainError {
  override readonly name = 'SignUpRefused';
  constructor(errors: readonly FieldError[]) {
    super('invalid_input', errors.map((e) => `${e.field} ${e.message}`).join('; '), errors);
  }
}

/**
 * The signup rules for a new account (username, email and password checks, case-insensitive
 * uniqueness): throws SignUpRefused listing every problem.
 */
export async function refuseBadAccount(store: RecordStore, username: string, email: string, password: string): Promise<void> {
  const errors: FieldError[] = [
    ...usernameProblems(username).map((message) => ({ field: 'username', message })),
    ...emailProblems(email).map((message) => ({ field: 'email', message })),
    ...passwordProblems(password, { username, email }).map((message) => ({ field: 'password', message })),
  ];
  for (const field of ['username', 'email'] as const) {
    const value = field === 'username' ? username : email;
    if (errors.some((e) => e.field === field) || !value) continue;
    if ((await store.count('auth_user', { column: field, op: 'iexact', value })) > 0) errors.push({ field, message: `a user with this ${field} already exists` });
  }
  if (errors.length > 0) throw new SignUpRefused(errors);
}

/** A unique violation of the username or email column, as the signup refusal it is. */
export function duplicateAccount(error: unknown): SignUpRefused | undefined {
  if (error instanceof ConstraintViolation && error.kind === 'unique' && (error.column === 'username' || error.column === 'email')) {
    return new SignUpRefused([{ field: error.column, message: `a user with this ${error.column} already exists` }]);
  }
  return undefined;
}

export interface SignUpDeps {
  readonly store: RecordStore;
  readonly hasher: PasswordHasher;
  readonly throttle: ThrottleGate;
  readonly issueCode: IssueVerificationCode;
  readonly requireVerifiedEmail: boolean;
  /**
   * Runs in the transaction that inserts the user, with that transaction: what it writes (a
   * job enqueued with `tasks.enqueueIn(tx, …)`) exists iff the account does.
   */
  readonly afterSignUp?: (tx: RecordStore, user: Row) => Promise<unknown>;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Creates an account (SPEC "Form authentication", DESIGN §3 "uniqueness", "password rules"):
 * every rule is checked and every failure reported together; username and email are unique
 * case-insensitively (a race is caught by the unique indexes); the password is stored only as
 * an argon2id hash. With verification enforced, a code is issued and mailed. Throws
 * SignUpRefused when any rule fails (nothing is written), Throttled when over budget.
 */
export class SignUp {
  constructor(private readonly deps: SignUpDeps) {}

  async execute(input: SignUpInput): Promise<SignUpResult> {
    await this.deps.throttle.consume(`signup:${input.ip}`, AUTH_RATES.signup);
    const username = text(input.username).trim();
    const email = text(input.email).trim();
    const password = text(input.password);
    await refuseBadAccount(this.deps.store, username, email, password);
    const passwordHash = await this.deps.hasher.hash(password);
    let user: Row;
    try {
      user = await this.insertUser({ username, email, password_hash: passwordHash });
    } catch (error) {
      throw duplicateAccount(error) ?? error;
    }
    return { user, verificationPending: this.deps.requireVerifiedEmail };
  }

  /**
   * The account, its `afterSignUp` work and its verification code (with the queued mail) in one
   * transaction: a failure of any leaves no account behind, and a mail server that is down fails
   * nothing (the mail job is retried).
   */
  private insertUser(row: Row): Promise<Row> {
    const { afterSignUp, requireVerifiedEmail } = this.deps;
    if (!afterSignUp && !requireVerifiedEmail) return this.deps.store.insert('auth_user', row);
    return this.deps.store.transaction(async (tx) => {
      const user = await tx.insert('auth_user', row);
      await afterSignUp?.(tx, user);
      if (requireVerifiedEmail) await this.deps.issueCode.execute(user, tx);
      return user;
    });
  }
}
