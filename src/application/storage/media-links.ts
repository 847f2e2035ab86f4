import { createHmac } from 'node:crypto';
import { MEDIA_URL_SECONDS, safeDisplayName } from '../../domain/storage/media-rules.js';
import { isFileKey } from '../../domain/storage/file-key.js';
import type { Clock } from '../../ports/clock.js';
import { sameSecret } from '../auth/secrets.js';

/** What a signed media URL carries besides its key. */
export interface MediaLinkParts {
  readonly key: string;
  readonly name: string;
  /** Epoch seconds after which the link is refused. */
  readonly expires: number;
  readonly signature: string;
}

/**
 * Signed URLs of stored files, served by Portico on every backend (`/media/<key>?name=&expires=
 * &signature=`): an HMAC-SHA-256 with the app secret over the key, the display name and the
 * expiry, so none of them can be changed and no link outlives its expiry.
 */
export class MediaLinks {
  constructor(
    private readonly secret: string,
    private readonly clock: Clock,
    private readonly prefix: string,
    private readonly seconds: number = MEDIA_URL_SECONDS,
  ) {}

  private sign(key: string, name: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`media\n${key}\n${name}\n${expires}`).digest('base64url');
  }

  /** A link to `key` shown as `name`, valid for the configured lifetime (or `seconds`). */
  url(key: string, name: string, seconds = this.seconds): string {
    const display = safeDisplayName(name);
    const expires = Math.floor(this.clock.now().getTime() / 1000) + seconds;
    const query = new URLSearchParams({ name: display, expires: String(expires), signature: this.sign(key, display, expires) });
    return `${this.prefix}${key}?${query.toString()}`;
  }

  /** Seconds until a link expiring at `expires` (epoch seconds) stops working. */
  secondsLeft(expires: number): number {
    return Math.max(0, expires - Math.floor(this.clock.now().getTime() / 1000));
  }

  /** True when the parts are a link this app made and it has not expired. */
  valid(parts: MediaLinkParts): boolean {
    if (!isFileKey(parts.key) || !Number.isSafeInteger(parts.expires)) return false;
    if (parts.expires * 1000 <= this.clock.now().getTime()) return false;
    return sameSecret(parts.signature, this.sign(parts.key, parts.name, parts.expires));
  }
}
