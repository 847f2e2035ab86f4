/** Verification-code rules (SPEC "Verification code"). */
export const CODE_LENGTH = 6;
export const CODE_LIFETIME_MS = 15 * 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

const SIX_DIGITS = /^\d{6}$/;

/** True for a well-formed code (exactly six decimal digits). */
export function isWellFormedCode(code: unknown): code is string {
  return typeof code === 'string' && SIX_DIGITS.test(code);
}

/** Formats a number in [0, 10^6) as a six-digit code with leading zeros. */
export function formatCode(n: number): string {
  return String(n).padStart(CODE_LENGTH, '0');
}
