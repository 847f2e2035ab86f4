import { createRequire } from 'node:module';
import type * as Argon2 from '@node-rs/argon2';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/**
 * Loaded at start, not on first use (which would save about 6 ms and 3.5 MB): a native addon that
 * fails to load must stop the app at start, not turn every later login into a refused password
 * (`verify` answers false on any error). Required rather than imported, as `commonjs-packages.ts`
 * explains.
 */
// The allocator inside the addon (mimalloc) reads its options from the environment, once, at load:
// Portico sets none (a host serving logins under load may set MIMALLOC_PURGE_DELAY=1000; see
// docs/decisions.md, "The hash's memory").
const { hash, verify } = createRequire(import.meta.url)('@node-rs/argon2') as typeof Argon2;

/** argon2id with the OWASP parameters: m=19456 KiB, t=2, p=1 (DESIGN §1). */
// algorithm 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Salt and digest lengths of the hashes `hash` produces (@node-rs/argon2's defaults). */
const SALT_BYTES = 16;
const DIGEST_BYTES = 32;

/** Hashes with @node-rs/argon2 (work runs on libuv's thread pool, not the event loop). */
export class Argon2PasswordHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password, ARGON2_OPTIONS);
  }
  async verify(encoded: string, password: string): Promise<boolean> {
    try {
      return await verify(encoded, password);
    } catch {
      return false;
    }
  }
}

/**
 * A hash no password matches, for a login naming an unknown user to verify against: the same
 * parameters as `hash` (so the verify costs what a real one costs), a random salt and a random
 * digest, in the PHC form `hash` produces. Nothing is hashed to make it: hashing a random
 * password at start ran argon2 with its 19 MiB of memory, which @node-rs/argon2's allocator keeps
 * for the life of the process (docs/performance.md).
 *
 * @example
 * unknownUserArgon2Hash(cryptoRandomSource.bytes); // '$argon2id$v=19$m=19456,t=2,p=1$…$…'
 */
export function unknownUserArgon2Hash(bytes: (size: number) => Uint8Array): string {
  const b64 = (size: number) => Buffer.from(bytes(size)).toString('base64').replace(/=+$/, '');
  const { memoryCost, timeCost, parallelism } = ARGON2_OPTIONS;
  return `$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$${b64(SALT_BYTES)}$${b64(DIGEST_BYTES)}`;
}
