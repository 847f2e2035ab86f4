import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { TokenCipher } from '../../ports/token-cipher.js';

/** One key of the set: its id (written into every value it seals) and 32 bytes. */
export interface TokenKey {
  readonly kid: string;
  readonly key: Uint8Array;
}

const VERSION = 't1';
const KID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Reads a key set written as `kid:<base64 of 32 bytes>,kid2:<…>` (the first one seals; every one
 * opens). Throws one line naming `variable` when it is empty or any entry is malformed.
 */
export function parseTokenKeys(text: string | undefined, variable = 'TOKEN_KEYS'): TokenKey[] {
  const hint = `${variable} must be "kid:<base64 of 32 random bytes>" entries separated by commas (e.g. k1:$(openssl rand -base64 32))`;
  if (!text || !text.trim()) throw new Error(`${variable} is not set: ${hint}`);
  const keys: TokenKey[] = [];
  for (const entry of text.split(',')) {
    const at = entry.indexOf(':');
    const kid = entry.slice(0, at).trim();
    const encoded = entry.slice(at + 1).trim();
    const key = at > 0 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
    if (!KID.test(kid) || key.length !== 32) throw new Error(`${variable} is malformed at entry ${keys.length + 1}: ${hint}`);
    if (keys.some((k) => k.kid === kid)) throw new Error(`${variable} names key id ${kid} twice: ${hint}`);
    keys.push({ kid, key });
  }
  return keys;
}

/**
 * AES-256-GCM with a random 96-bit nonce per value and the context as associated data. The
 * envelope is `t1.<kid>.<nonce>.<tag>.<ciphertext>` (base64url): versioned, and naming the key
 * that opens it, so keys rotate without a flag day.
 */
export class KeyringTokenCipher implements TokenCipher {
  private readonly keys: ReadonlyMap<string, Uint8Array>;
  private readonly current: TokenKey;

  constructor(keys: readonly TokenKey[]) {
    const [first] = keys;
    if (!first) throw new Error('a token cipher needs at least one key');
    this.current = first;
    this.keys = new Map(keys.map((k) => [k.kid, k.key]));
  }

  seal(plain: string, context: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, this.current.kid, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, kid, nonce, tag, body, extra] = sealed.split('.');
    if (version !== VERSION || kid === undefined || nonce === undefined || tag === undefined || body === undefined || extra !== undefined) throw new Error('not a sealed token');
    const key = this.keys.get(kid);
    if (!key) throw new Error(`the key ${kid} that sealed this token is not configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), { authTagLength: 16 });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`${VERSION}.${this.current.kid}.`);
  }
}
