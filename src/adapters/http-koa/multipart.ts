import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { UploadPart } from '../../application/storage/store-upload.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { UploadedFile } from '../../domain/storage/file-value.js';

export interface MultipartOptions {
  /** The form fields that carry a file; a file in any other is refused. */
  readonly fileFields: ReadonlySet<string>;
  /** Keeps one file (sniffs, counts, stores); its refusal ends the parse. */
  readonly onFile: (part: UploadPart) => Promise<UploadedFile>;
  /** Removes files kept before a later part failed (the request writes nothing). */
  readonly discard: (files: readonly UploadedFile[]) => Promise<void>;
  /** At most this many text fields (default 100) of at most `fieldBytes` each (default 64 KiB). */
  readonly maxFields?: number;
  readonly fieldBytes?: number;
  /** The CSRF token the body's first field (`csrf_token`) must carry; checked before any file is kept. */
  readonly csrf?: { readonly field: string; readonly matches: (submitted: string) => boolean };
}

/** The text fields and kept files of a `multipart/form-data` body. */
export interface MultipartBody {
  readonly fields: Readonly<Record<string, string>>;
  readonly files: Readonly<Record<string, UploadedFile>>;
}

const invalid = (field: string, message: string): DomainError => new DomainError('invalid_input', `${field}: ${message}`, [{ field, message }]);

/** The check of a body's first field against the CSRF token it must carry (none: nothing pending). */
function csrfGate(csrf: MultipartOptions['csrf']): { readonly pending: boolean; check(name: string, value: string): DomainError | undefined; refusal(): DomainError } {
  const refusal = (): DomainError => new DomainError('csrf_failed', `CSRF token missing or incorrect: send it in the X-CSRF-Token header or as the form's first field (${csrf?.field ?? ''})`);
  let pending = csrf !== undefined;
  return {
    get pending() {
      return pending;
    },
    check(name, value) {
      pending = false;
      return name === csrf?.field && csrf.matches(value) ? undefined : refusal();
    },
    refusal,
  };
}

/**
 * Reads a `multipart/form-data` request with busboy (issue 51), streaming each file to `onFile`
 * as it arrives (busboy waits while it is kept: nothing is buffered whole). Refused, with every
 * file kept so far discarded: a file in a field that takes none, two files in one field, a
 * repeated text field, a field over its size (busboy's truncation is checked, never let through),
 * more fields or files than allowed (413), a malformed body (400), and a body that ends early.
 */
export function readMultipart(req: IncomingMessage, options: MultipartOptions): Promise<MultipartBody> {
  const fieldBytes = options.fieldBytes ?? 64 * 1024;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fields: options.maxFields ?? 100, fieldSize: fieldBytes, files: options.fileFields.size + 1, parts: (options.maxFields ?? 100) + options.fileFields.size + 1 } });
    } catch {
      reject(new DomainError('invalid_input', 'the multipart body has no boundary'));
      return;
    }
    const fields: Record<string, string> = {};
    const files: Record<string, UploadedFile> = {};
    const seen = new Set<string>();
    const pending: Promise<void>[] = [];
    const active = new Set<NodeJS.ReadableStream & { destroy(error?: Error): void }>();
    let failure: unknown;
    let settled = false;
    const finish = async (): Promise<void> => {
      if (settled) return;
      settled = true;
      await Promise.allSettled(pending);
      if (failure === undefined) return resolve({ fields, files });
      await options.discard(Object.values(files)).catch(() => undefined);
      reject(failure);
    };
    /** The first refusal wins; the body stops being read, a file in flight is abandoned (its put removes what it wrote). */
    const fail = (error: unknown): void => {
      if (failure !== undefined) return;
      failure = error;
      req.unpipe(parser);
      req.resume();
      for (const stream of active) stream.destroy(new Error('the upload was refused'));
      void finish();
    };
    const csrf = csrfGate(options.csrf);
    parser.on('field', (name, value, info) => {
      if (csrf.pending) {
        const refused = csrf.check(name, value);
        if (refused) fail(refused);
        return;
      }
      if (info.valueTruncated) fail(new DomainError('payload_too_large', `${name}: longer than ${fieldBytes} bytes`, [{ field: name, message: `longer than ${fieldBytes} bytes` }]));
      else if (options.fileFields.has(name)) fail(invalid(name, 'send a file in this field'));
      else if (name in fields) fail(invalid(name, 'given twice'));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      // A file input left empty: browsers send a part without a file name (and no bytes): no file.
      if (failure !== undefined || !info.filename) return void stream.resume();
      const refusal = csrf.pending ? csrf.refusal() : !options.fileFields.has(name) ? invalid(name, 'takes no file') : seen.has(name) ? invalid(name, 'one file per field') : undefined;
      if (refusal) {
        stream.resume();
        return fail(refusal);
      }
      seen.add(name);
      active.add(stream);
      const kept = options.onFile({ field: name, filename: info.filename ?? '', body: stream }).then(
        (value) => {
          files[name] = value;
        },
        (error: unknown) => fail(error),
      );
      pending.push(
        kept.finally(() => {
          active.delete(stream);
          stream.resume();
        }),
      );
    });
    parser.on('fieldsLimit', () => fail(new DomainError('payload_too_large', 'the form has too many fields')));
    parser.on('filesLimit', () => fail(new DomainError('payload_too_large', 'the form has too many files')));
    parser.on('partsLimit', () => fail(new DomainError('payload_too_large', 'the form has too many parts')));
    parser.on('error', (error: Error) => fail(new DomainError('invalid_input', `the multipart body is malformed: ${error.message}`)));
    parser.on('close', () => {
      if (csrf.pending) fail(csrf.refusal());
      void finish();
    });
    req.on('aborted', () => fail(new DomainError('invalid_input', 'the request body ended early')));
    req.pipe(parser);
  });
}
