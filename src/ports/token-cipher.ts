/**
 * Seals stored credentials (a provider's access and refresh tokens) with a rotating key set:
 * authenticated encryption bound to a context (the row's provider and user), so a sealed value
 * copied to another row fails to open.
 *
 * @example
 * const sealed = cipher.seal('gho_abc', 'social_account:github:7');
 * cipher.open(sealed, 'social_account:github:7'); // 'gho_abc'
 * cipher.isCurrent(sealed); // false once a new first key is configured
 */
export interface TokenCipher {
  /** Encrypts `plain` with the first (current) key. */
  seal(plain: string, context: string): string;
  /** Decrypts with the key the value names; throws when it was changed, the context differs or the key is gone. */
  open(sealed: string, context: string): string;
  /** True when `sealed` was made with the current key (nothing for rotation to do). */
  isCurrent(sealed: string): boolean;
}
