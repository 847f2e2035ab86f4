/** One-way password hashing (argon2id in production). */
export interface PasswordHasher {
  /** A self-describing hash of `password`. */
  hash(password: string): Promise<string>;
  /** Whether `password` matches `hash`; false (never a throw) for a malformed hash. */
  verify(hash: string, password: string): Promise<boolean>;
}
