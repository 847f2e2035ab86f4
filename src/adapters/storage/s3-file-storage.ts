import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import { assertFileKey } from '../../domain/storage/file-key.js';
import { FileExistsError, StorageUnavailableError, type ByteRange, type FileContent, type FileStorage, type StoredFile } from '../../ports/file-storage.js';

export interface S3StorageSettings {
  readonly bucket: string;
  /** An S3-compatible server's address (`http://127.0.0.1:4568`); AWS's own when omitted. */
  readonly endpoint?: string;
  readonly region?: string;
  /** Credentials; default: the SDK's chain (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`, …). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** True when the service answered (a status), false for a network failure or a timeout. */
function answered(error: unknown): error is S3ServiceException {
  return error instanceof S3ServiceException && typeof error.$metadata?.httpStatusCode === 'number' && error.$metadata.httpStatusCode < 500;
}

const notFound = (error: unknown): boolean => answered(error) && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/** A failure that is not the service refusing this request: the caller answers 503. */
function unavailable(error: unknown, what: string): Error {
  if (answered(error)) return error;
  return new StorageUnavailableError(`S3 ${what} failed: ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`);
}

/**
 * Files in an S3 bucket through `@aws-sdk/client-s3` and `@aws-sdk/lib-storage` (a streamed,
 * multipart upload for large bodies), path-style so S3-compatible servers work, checksums only
 * where required (non-AWS servers reject the SDK's default trailers). A put never overwrites: the
 * key is checked first and the upload is conditional (`If-None-Match: *`); a body that fails
 * aborts the upload, so no object appears. A server that cannot be reached is a
 * StorageUnavailableError within a few seconds.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3StorageSettings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      forcePathStyle: true,
      region: settings.region ?? 'us-east-1',
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
    });
  }

  async put(key: string, body: AsyncIterable<Uint8Array>, options: { readonly contentType: string }): Promise<StoredFile> {
    assertFileKey(key);
    if (await this.stat(key)) throw new FileExistsError(`${key} is stored already`);
    // The body's own failure (a client gone, a limit the caller counts) is the caller's to see, not an outage.
    let bodyError: { error: unknown } | undefined;
    async function* watched(): AsyncIterable<Uint8Array> {
      try {
        yield* body;
      } catch (error) {
        bodyError = { error };
        throw error;
      }
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: Readable.from(watched()), ContentType: options.contentType, IfNoneMatch: '*' },
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      if (bodyError) throw bodyError.error;
      if (answered(error) && error.$metadata.httpStatusCode === 412) throw new FileExistsError(`${key} is stored already`);
      throw unavailable(error, 'upload');
    }
    const stored = await this.stat(key);
    if (!stored) throw new StorageUnavailableError(`S3 upload of ${key} is not readable back`);
    return stored;
  }

  async get(key: string, range?: ByteRange): Promise<FileContent | null> {
    assertFileKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      const body = answer.Body as Readable | undefined;
      if (!body) return null;
      const total = range ? Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1] ?? answer.ContentLength ?? 0) : Number(answer.ContentLength ?? 0);
      return { key, size: total, contentType: answer.ContentType ?? 'application/octet-stream', lastModified: answer.LastModified ?? new Date(0), body, ...(range ? { range } : {}) };
    } catch (error) {
      if (notFound(error)) return null;
      throw unavailable(error, 'read');
    }
  }

  async stat(key: string): Promise<StoredFile | null> {
    assertFileKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: Number(head.ContentLength ?? 0), contentType: head.ContentType ?? 'application/octet-stream', lastModified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (notFound(error)) return null;
      throw unavailable(error, 'stat');
    }
  }

  async delete(key: string): Promise<boolean> {
    if (!(await this.stat(key))) return false;
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      throw unavailable(error, 'delete');
    }
  }

  async keys(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
        for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw unavailable(error, 'list');
    }
    return keys;
  }

  directUrl(key: string, seconds: number): Promise<string> {
    assertFileKey(key);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: seconds });
  }

  /** Closes the client's sockets. */
  close(): void {
    this.client.destroy();
  }
}
