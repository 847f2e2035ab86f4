/**
 * Seals short secrets for storage (a queued mail carrying a verification code): authenticated
 * encryption, so a stored row reveals nothing and a changed one fails to open.
 *
 * @example
 * const sealed = box.seal('{"code":"123456"}'); // opaque text
 * box.open(sealed); // '{"code":"123456"}'
 */
export interface SecretBox {
  /** Encrypts `plain`; the result is text safe to store. */
  seal(plain: string): string;
  /** Decrypts what `seal` made; throws when it was changed or sealed with another key. */
  open(sealed: string): string;
}
