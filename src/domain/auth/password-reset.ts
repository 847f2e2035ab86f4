/** Password reset rules (issue 50; REFERENCE-APP "Identity"). */

/** A reset token lives one hour. */
export const RESET_LIFETIME_MS = 60 * 60 * 1000;
/** Random bytes of a reset token: 256 bits, written as 43 base64url characters. */
export const RESET_TOKEN_BYTES = 32;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** True for text that can be a reset token (anything else names none, and is refused like one that does not). */
export function isWellFormedResetToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN.test(token);
}
