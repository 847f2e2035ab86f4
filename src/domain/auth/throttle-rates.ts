/** A budget of `limit` hits per `windowMs`. */
export interface Rate {
  readonly limit: number;
  readonly windowMs: number;
}

const MINUTE = 60_000;

/** The auth throttles of DESIGN §3 "login throttle". */
export const AUTH_RATES = {
  /** Per IP + username; every attempt counts, success clears. */
  login: { limit: 5, windowMs: 5 * MINUTE },
  /** Per IP. */
  signup: { limit: 10, windowMs: 60 * MINUTE },
  /** Per IP + email, for verify and for resend. */
  verification: { limit: 5, windowMs: 60 * MINUTE },
  /** Password reset requests, per address from any client (over budget: nothing is sent, the answer is the same). */
  resetRequest: { limit: 5, windowMs: 60 * MINUTE },
  /** Password reset requests and confirmations, per IP. */
  resetClient: { limit: 20, windowMs: 60 * MINUTE },
} as const satisfies Record<string, Rate>;

/** Parses `'100/min'`, `'10/hour'`, `'5/second'`, `'1000/day'` (also s, m, h, d). */
export function parseRate(text: string): Rate {
  const m = /^(\d+)\s*\/\s*(second|sec|s|minute|min|m|hour|h|day|d)$/.exec(text.trim());
  if (!m) throw new Error(`invalid rate "${text}" (use for example '100/min')`);
  const unit = m[2] as string;
  const ms = unit.startsWith('s') ? 1000 : unit.startsWith('m') ? MINUTE : unit.startsWith('h') ? 60 * MINUTE : 24 * 60 * MINUTE;
  return { limit: Number(m[1]), windowMs: ms };
}
