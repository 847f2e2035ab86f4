import type { JsonValue } from '../model/types.js';

/**
 * What the cache keeps for one key (issue 52), as bytes every backend stores alike: a version
 * byte, when it was stored and when it expires (epoch milliseconds of the app's clock, so expiry
 * reads the same on every backend and in tests), the kind of value, then the value (the bytes
 * as given, or JSON text). A backend's own expiry only reclaims space.
 */
export interface CacheEntry {
  readonly value: Uint8Array | JsonValue;
  readonly storedAt: number;
  readonly expiresAt: number;
}

const VERSION = 1;
const BYTES = 0x62; // 'b'
const JSON_TEXT = 0x6a; // 'j'
const HEAD = 1 + 8 + 8 + 1;

/** The longest key kept as it is; a longer one is stored under its digest. */
export const MAX_KEY_BYTES = 250;

/** The bytes of an entry. */
export function encodeEntry(entry: CacheEntry): Uint8Array {
  const bytes = entry.value instanceof Uint8Array;
  const body = bytes ? (entry.value as Uint8Array) : new TextEncoder().encode(JSON.stringify(entry.value));
  const out = new Uint8Array(HEAD + body.byteLength);
  const view = new DataView(out.buffer);
  view.setUint8(0, VERSION);
  view.setFloat64(1, entry.storedAt);
  view.setFloat64(9, entry.expiresAt);
  view.setUint8(17, bytes ? BYTES : JSON_TEXT);
  out.set(body, HEAD);
  return out;
}

/** The entry of stored bytes, or undefined for bytes that are not one (corrupt, truncated, another version): a miss. */
export function decodeEntry(stored: Uint8Array): CacheEntry | undefined {
  if (stored.byteLength < HEAD) return undefined;
  const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
  if (view.getUint8(0) !== VERSION) return undefined;
  const storedAt = view.getFloat64(1);
  const expiresAt = view.getFloat64(9);
  if (!Number.isFinite(storedAt) || !Number.isFinite(expiresAt)) return undefined;
  const kind = view.getUint8(17);
  const body = stored.subarray(HEAD);
  if (kind === BYTES) return { value: Uint8Array.from(body), storedAt, expiresAt };
  if (kind !== JSON_TEXT) return undefined;
  try {
    return { value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as JsonValue, storedAt, expiresAt };
  } catch {
    return undefined;
  }
}

/** A TTL a cache write may take: a positive, finite number of seconds (anything else throws, naming `what`). */
export function checkTtl(ttlSeconds: number, what: string): number {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new RangeError(`${what}: the TTL must be a positive number of seconds, got ${String(ttlSeconds)}`);
  return ttlSeconds;
}
