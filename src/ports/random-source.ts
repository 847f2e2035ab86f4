/** Cryptographically secure randomness; injected so tests can fix it. */
export interface RandomSource {
  /** A random RFC 4122 version-4 UUID. */
  uuid(): string;
  /** `size` random bytes. */
  bytes(size: number): Uint8Array;
  /** A uniformly random integer in [0, max). */
  int(max: number): number;
}
