import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../ports/secret-box.js';

const VERSION = 'v1';

/**
 * AES-256-GCM with a random 96-bit nonce per message, the key derived from the app secret with
 * HKDF-SHA-256 for one purpose (`info`), so a key serves one kind of sealed data. The sealed form
 * is `v1.<nonce>.<tag>.<ciphertext>` in base64url.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly key: Buffer;

  constructor(secret: string, info: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'portico', info, 32));
  }

  seal(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, nonce.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split('.');
    if (version !== VERSION || nonce === undefined || tag === undefined || body === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(nonce, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
