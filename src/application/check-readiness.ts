import type { HealthCheck } from '../ports/health-check.js';

/** A readiness check under its name in the report. */
export interface NamedCheck {
  readonly name: string;
  readonly check: HealthCheck;
}

export type CheckStatus = { readonly status: 'ok' } | { readonly status: 'fail'; readonly reason: string };

/** The readiness report (DESIGN §3 "health"). */
export type ReadinessReport =
  | { readonly status: 'ok' | 'fail'; readonly checks: Readonly<Record<string, CheckStatus>> }
  | { readonly status: 'draining' };

/** The generic reasons a check can fail with when it does not name its own. */
export const REASON_UNAVAILABLE = 'unavailable';
export const REASON_TIMED_OUT = 'timed out';

/**
 * Runs every readiness check in parallel, each bounded by `timeoutMs`, and folds them into
 * one report. A check that throws fails with the generic reason "unavailable" (its error goes
 * to `onError`, never into the report); one that overruns fails with "timed out". While the
 * process drains (after SIGTERM) the report is "draining" without running any check.
 *
 * @example
 * const report = await new CheckReadiness(() => checks, 5000, () => false).execute();
 * report.status; // 'ok' | 'fail' | 'draining'
 */
export class CheckReadiness {
  constructor(
    private readonly checks: () => readonly NamedCheck[],
    private readonly timeoutMs: number,
    private readonly isDraining: () => boolean,
    private readonly onError: (name: string, error: unknown) => void = () => undefined,
  ) {}

  async execute(): Promise<ReadinessReport> {
    if (this.isDraining()) return { status: 'draining' };
    const results = await Promise.all(this.checks().map(async ({ name, check }) => [name, await this.run(name, check)] as const));
    const checks = Object.fromEntries(results);
    return { status: results.every(([, r]) => r.status === 'ok') ? 'ok' : 'fail', checks };
  }

  private async run(name: string, check: HealthCheck): Promise<CheckStatus> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckStatus>((resolve) => {
      timer = setTimeout(() => resolve({ status: 'fail', reason: REASON_TIMED_OUT }), this.timeoutMs);
    });
    const attempt = (async (): Promise<CheckStatus> => {
      try {
        const result = await check();
        return result && result.status === 'fail' ? { status: 'fail', reason: result.reason } : { status: 'ok' };
      } catch (error) {
        this.onError(name, error);
        return { status: 'fail', reason: REASON_UNAVAILABLE };
      }
    })();
    try {
      return await Promise.race([attempt, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
