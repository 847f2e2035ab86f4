import { textProblem } from '../../domain/model/values.js';
import { AUTH_RATES } from '../../domain/auth/throttle-rates.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { IssueVerificationCode } from './issue-verification-code.js';
import type { ThrottleGate } from './throttle-gate.js';

/**
 * Sends a fresh code to an existing, unverified account (SPEC: resend always answers 202).
 * Unknown, verified or over-budget addresses do nothing, and the caller cannot tell which.
 */
export class ResendVerification {
  constructor(
    private readonly store: RecordStore,
    private readonly throttle: ThrottleGate,
    private readonly issue: IssueVerificationCode,
  ) {}

  async execute(input: { email: unknown; ip: string }): Promise<void> {
    const email = typeof input.email === 'string' ? input.email.trim() : '';
    // No account's address holds NUL or a lone surrogate: nothing to look up (and the answer stays 202).
    if (!email || email.length > 254 || textProblem(email)) return;
    if (!(await this.throttle.allows(`resend:${input.ip}:${email.toLowerCase()}`, AUTH_RATES.verification))) return;
    const [user] = await this.store.find('auth_user', { where: { column: 'email', op: 'iexact', value: email }, limit: 1 });
    if (!user || user.email_verified_at !== null || user.is_active !== true) return;
    await this.issue.execute(user);
  }
}
