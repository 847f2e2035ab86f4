import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../ports/password-hasher.js';

/** argon2id with the OWASP parameters: m=19456 KiB, t=2, p=1 (DESIGN §1). */
// algorithm 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

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
