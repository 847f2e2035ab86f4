import { textProblem } from '../model/values.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 1024;

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** True when the password is the attribute, contains it, is contained in it, or is 70% alike. */
function tooSimilar(password: string, attribute: string): boolean {
  const p = password.toLowerCase();
  const a = attribute.toLowerCase();
  if (a.length < 3) return false;
  if (p.includes(a) || a.includes(p)) return true;
  if (Math.abs(p.length - a.length) > Math.max(p.length, a.length) * 0.5) return false;
  return 1 - levenshtein(p, a) / Math.max(p.length, a.length) >= 0.7;
}

/**
 * The signup password rules (DESIGN §3 "password rules"): 8 to 1024 characters, not all digits,
 * not a common password, not too similar to the username or email. Every failure is reported,
 * not only the first.
 */
export function passwordProblems(password: string, attributes: { username?: string; email?: string }): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN) problems.push(`must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) problems.push(`must be at most ${PASSWORD_MAX} characters`);
  if (/^\d+$/.test(password)) problems.push('must not be entirely numeric');
  if (COMMON_PASSWORDS.has(password.toLowerCase())) problems.push('is too common');
  const email = attributes.email ?? '';
  const candidates = [attributes.username ?? '', email, email.split('@')[0] ?? ''].filter((x) => x.length > 0);
  if (password.length <= PASSWORD_MAX && candidates.some((a) => tooSimilar(password, a))) problems.push('is too similar to the username or email');
  return problems;
}

const USERNAME = /^[A-Za-z0-9_.@+-]{1,150}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** Checks the signup username: 1 to 150 letters, digits and `_ . @ + -`. */
export function usernameProblems(username: string): string[] {
  return USERNAME.test(username) ? [] : ['must be 1 to 150 letters, digits or _ . @ + -'];
}

/** Checks the signup email's shape (delivery proves the rest). */
export function emailProblems(email: string): string[] {
  return email.length <= 254 && EMAIL.test(email) ? [] : ['must be a valid email address'];
}

/**
 * The problems of a new password given as any value (reset, change): `is required` for a
 * non-string, a NUL or lone surrogate refused, else the signup rules for that user.
 */
export function newPasswordProblems(password: unknown, user: { readonly username?: unknown; readonly email?: unknown }): string[] {
  if (typeof password !== 'string') return ['is required'];
  if (textProblem(password)) return ['must not hold NUL or a lone surrogate'];
  return passwordProblems(password, { username: String(user.username ?? ''), email: String(user.email ?? '') });
}
