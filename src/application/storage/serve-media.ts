import { DomainError } from '../../domain/errors/domain-error.js';
import { INLINE_TYPES } from '../../domain/storage/media-rules.js';
import { StorageUnavailableError, type ByteRange, type FileContent, type FileStorage } from '../../ports/file-storage.js';
import type { MediaLinkParts, MediaLinks } from './media-links.js';

/** What a `Range` header asks of a file of `size` bytes: a range, the whole file, or nothing it holds. */
export type RangeChoice = ByteRange | 'whole' | 'unsatisfiable';

/** How to answer a media link: the file (or the range asked for), or a range it cannot serve. */
export type MediaAnswer =
  | { readonly kind: 'file'; readonly file: FileContent; readonly name: string; readonly inline: boolean; readonly secondsLeft: number }
  | { readonly kind: 'unsatisfiable'; readonly size: number }
  | { readonly kind: 'unchanged'; readonly secondsLeft: number };

/** A stored file's entity tag: keys are written once, so the key names the bytes for good. */
export function mediaTag(key: string): string {
  return `"${key.slice(key.lastIndexOf('/') + 1)}"`;
}

/** True when an `If-None-Match` header names `tag` (or is `*`); weak tags compare by their opaque part. */
function matchesTag(header: string, tag: string): boolean {
  return header.split(',').some((t) => {
    const one = t.trim();
    return one === '*' || one === tag || one === `W/${tag}`;
  });
}

/**
 * Answers a signed media URL (issue 51): a link that was changed or has expired is `forbidden`
 * (403) before the storage is touched; a file that is gone is `not_found`; a storage that cannot
 * be reached is `storage_unavailable` (503). Images of the allowlist are shown inline, anything
 * else downloads.
 */
export class ServeMedia {
  constructor(
    private readonly storage: FileStorage,
    private readonly links: MediaLinks,
  ) {}

  /**
   * `range` reads what a `Range` header asks of the file's size; `ifNoneMatch` is the request's
   * header: when it names the file's tag, the answer is `unchanged` (304) once the file is known
   * to exist, without reading its bytes.
   */
  async execute(parts: MediaLinkParts, range?: (size: number) => RangeChoice, ifNoneMatch?: string): Promise<MediaAnswer> {
    if (!this.links.valid(parts)) throw new DomainError('forbidden', 'this file link was changed or has expired');
    const revalidating = ifNoneMatch !== undefined && matchesTag(ifNoneMatch, mediaTag(parts.key));
    let file: FileContent | null;
    try {
      const found = range || revalidating ? await this.storage.stat(parts.key) : undefined;
      if (found && revalidating) return { kind: 'unchanged', secondsLeft: this.links.secondsLeft(parts.expires) };
      const choice: RangeChoice = found && range ? range(found.size) : 'whole';
      if (found && choice === 'unsatisfiable') return { kind: 'unsatisfiable', size: found.size };
      if (found === null) file = null;
      else if (choice === 'whole' || choice === 'unsatisfiable') file = await this.storage.get(parts.key);
      else file = await this.storage.get(parts.key, choice);
    } catch (error) {
      if (error instanceof StorageUnavailableError) throw new DomainError('storage_unavailable', 'the file storage cannot be reached; try again');
      throw error;
    }
    if (!file) throw new DomainError('not_found', 'no such file');
    return { kind: 'file', file, name: parts.name, inline: INLINE_TYPES.has(file.contentType), secondsLeft: this.links.secondsLeft(parts.expires) };
  }
}
