import * as nodeCrypto from 'node:crypto';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Node's one-shot digest (`crypto.hash`, Node 20.12 and 21.7 on), when there: no Hash object to
 * build, 0.3-0.5 µs a token against 0.8 for `createHash` (every authenticated request hashes its
 * token). Read off the namespace because a named import of it fails to link on older Node 20s.
 */
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** SHA-256 of a bearer or session token, hex: what the database stores instead of the token. */
export const hashToken: (token: string) => string = oneShotHash
  ? (token) => oneShotHash('sha256', token, 'hex')
  : (token) => createHash('sha256').update(token).digest('hex');

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
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}
