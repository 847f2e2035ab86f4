import { DomainError } from '../../domain/errors/domain-error.js';
import { newFileKey } from '../../domain/storage/file-key.js';
import { UploadedFile } from '../../domain/storage/file-value.js';
import { safeDisplayName } from '../../domain/storage/media-rules.js';
import { typeProblem, type FileRule } from '../../domain/storage/upload-rules.js';
import type { ContentSniffer } from '../../ports/content-sniffer.js';
import { StorageUnavailableError, type FileStorage } from '../../ports/file-storage.js';
import type { RandomSource } from '../../ports/random-source.js';

/** One uploaded file as a transport hands it over: its form field, the client's file name, and its bytes as they arrive. */
export interface UploadPart {
  readonly field: string;
  readonly filename: string;
  readonly body: AsyncIterable<Uint8Array>;
}

class OverLimit extends Error {}

/**
 * Keeps one uploaded file (issue 51). The first bytes are read and sniffed (`ContentSniffer`),
 * never trusting the client's type: markup is refused whatever it claims, as is a type outside
 * the rule's `accept` (415 `unsupported_media_type`), and an empty file (400). The rest streams
 * into the storage under a new key (a UUID and the type's extension; the client's name is only
 * kept, made safe, as `name`), counted as it goes: past `maxBytes` the put is abandoned (413
 * `payload_too_large`) and nothing is stored. A storage that cannot be reached is 503.
 */
export class StoreUpload {
  constructor(
    private readonly storage: FileStorage,
    private readonly sniffer: ContentSniffer,
    private readonly random: RandomSource,
  ) {}

  async execute(part: UploadPart, rule: FileRule, folder: string): Promise<UploadedFile> {
    const { field } = part;
    const refuse = (code: 'invalid_input' | 'unsupported_media_type' | 'payload_too_large', message: string): DomainError => new DomainError(code, `${field}: ${message}`, [{ field, message }]);
    const source = part.body[Symbol.asyncIterator]();
    const head: Uint8Array[] = [];
    let headLength = 0;
    let ended = false;
    while (headLength < this.sniffer.headBytes) {
      const next = await source.next();
      if (next.done) {
        ended = true;
        break;
      }
      head.push(next.value);
      headLength += next.value.byteLength;
    }
    if (headLength === 0) throw refuse('invalid_input', 'the file is empty');
    if (headLength > rule.maxBytes) throw refuse('payload_too_large', `the file is larger than ${rule.maxBytes} bytes`);
    const first = Buffer.concat(head);
    const sniffed = await this.sniffer.sniff(first.subarray(0, this.sniffer.headBytes));
    const problem = typeProblem(rule, sniffed, first.subarray(0, this.sniffer.headBytes));
    if (problem) throw refuse('unsupported_media_type', `the file ${problem.message}`);
    const type = sniffed ?? 'text/plain';
    const key = newFileKey(this.random.uuid(), type, folder);
    let size = 0;
    async function* counted(): AsyncIterable<Uint8Array> {
      size = first.byteLength;
      yield first;
      if (ended) return;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        size += next.value.byteLength;
        if (size > rule.maxBytes) throw new OverLimit();
        yield next.value;
      }
    }
    try {
      await this.storage.put(key, counted(), { contentType: type });
    } catch (error) {
      if (error instanceof OverLimit) throw refuse('payload_too_large', `the file is larger than ${rule.maxBytes} bytes`);
      if (error instanceof StorageUnavailableError) throw new DomainError('storage_unavailable', 'the file storage cannot be reached; try again');
      throw error;
    }
    return new UploadedFile(key, safeDisplayName(part.filename), size, type);
  }
}
