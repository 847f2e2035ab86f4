import { resolve } from 'node:path';
import { mediaRoutes } from '../../adapters/http-koa/index.js';
import { DiskFileStorage } from '../../adapters/storage/disk-file-storage.js';
import { MemoryFileStorage } from '../../adapters/storage/memory-file-storage.js';
import { S3FileStorage } from '../../adapters/storage/s3-file-storage.js';
import { MediaLinks } from '../../application/storage/media-links.js';
import { ServeMedia } from '../../application/storage/serve-media.js';
import { StoreUpload } from '../../application/storage/store-upload.js';
import { StoredFiles } from '../../application/storage/stored-files.js';
import { fileTypeSniffer } from '../../adapters/storage/file-type-sniffer.js';
import { MEDIA_URL_SECONDS } from '../../domain/storage/media-rules.js';
import { parseStorageUrl } from '../../domain/storage/storage-url.js';
import type { FileStorage } from '../../ports/file-storage.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface StorageOptions {
  /** `file:<dir>` (default `file:./data/media`), `s3://<bucket>?endpoint=<url>&region=<r>` or `memory:`. */
  readonly url?: string;
  /** S3 credentials; default: the SDK's chain (`AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` of the process, …). */
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** A backend of the host's own, in place of `url`. */
  readonly backend?: FileStorage;
  /** Where signed file links are served (default `/media/`). */
  readonly prefix?: string;
  /** How long a file link works, in seconds (default 3600). */
  readonly linkSeconds?: number;
}

/** The backend `url` names (S3 credentials from the SDK's chain: `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY`). */
function backendOf(url: string, credentials: StorageOptions['credentials']): FileStorage {
  const choice = parseStorageUrl(url);
  if (choice.kind === 'memory') return new MemoryFileStorage();
  if (choice.kind === 'file') return new DiskFileStorage(resolve(choice.dir));
  return new S3FileStorage({ bucket: choice.bucket, ...(choice.endpoint ? { endpoint: choice.endpoint } : {}), ...(choice.region ? { region: choice.region } : {}), ...(credentials ? { credentials } : {}) });
}

/**
 * File storage (issue 51): the backend (`app.storage`, a FileStorage: the disk, S3 or memory)
 * and signed links to its files (`app.mediaUrl(key, name)`), served at `/media/<key>` on every
 * backend with `nosniff`, a sandboxing CSP and `Content-Disposition: attachment` unless the file
 * is an allowlisted image; a changed or expired link is 403. It also keeps the files of file
 * columns (`c.file`): uploads through REST (`multipart/form-data`), answers on every surface as
 * `{name, size, content_type, url}`, and the old file removed after a replace or delete commits.
 *
 * @example
 * app.use(storage({ url: process.env.STORAGE_URL ?? 'file:./data/media' }));
 */
export function storage(options: StorageOptions = {}): Plugin {
  const prefix = options.prefix ?? '/media/';
  if (!/^\/(?:[A-Za-z0-9_-]+\/)+$/.test(prefix)) throw new Error(`storage: prefix is a path with both slashes such as /media/, got ${JSON.stringify(prefix)}`);
  return {
    name: 'storage',
    install(ctx) {
      const backend = options.backend ?? backendOf(options.url ?? 'file:./data/media', options.credentials);
      ctx.bind(TOKENS.FileStorage, backend);
      ctx.bindFactory(TOKENS.MediaLinks, (get) => new MediaLinks(get(TOKENS.Settings).secret, get(TOKENS.Clock), prefix, options.linkSeconds ?? MEDIA_URL_SECONDS));
      ctx.bindFactory(TOKENS.ServeMedia, (get) => new ServeMedia(get(TOKENS.FileStorage), get(TOKENS.MediaLinks)));
      ctx.bindFactory(TOKENS.StoredFiles, (get) => new StoredFiles(get(TOKENS.FileStorage), new StoreUpload(get(TOKENS.FileStorage), fileTypeSniffer, ctx.random), get(TOKENS.MediaLinks), ctx.logger));
      ctx.get(TOKENS.StoredFiles).follow(ctx.registry, ctx.events);
      if (backend instanceof S3FileStorage) ctx.onClose(async () => backend.close());
      for (const route of mediaRoutes({ prefix, serve: ctx.get(TOKENS.ServeMedia) })) ctx.route(route);
    },
  };
}
