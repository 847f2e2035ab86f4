import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a bearer or session token, hex: what the database stores instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A keyed hash (HMAC-SHA-256, hex) so a stolen table does not reveal short secrets such as codes. */
export function keyedHash(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Constant-time comparison of two strings. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A URL-safe random token of `bytes` random bytes. */
export function encodeToken(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
