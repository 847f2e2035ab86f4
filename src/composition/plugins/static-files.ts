import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { staticFilesMiddleware } from '../../adapters/http-koa/index.js';
import { MANIFEST_FILE, readManifest } from '../../domain/storage/static-manifest.js';
import type { Plugin } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface StaticFilesOptions {
  /** The folder of source files (`./static`). */
  readonly dir: string;
  /** The URL prefix (default `/static/`). */
  readonly prefix?: string;
  /** Where `portico collectstatic` writes hashed and compressed copies and the manifest (default: `staticfiles` beside `dir`). */
  readonly root?: string;
}

/** What staticFiles() serves, for `portico collectstatic` and for links to hashed names. */
export interface StaticFilesSettings {
  readonly source: string;
  readonly root: string;
  readonly prefix: string;
  /** The URL of `name`: its hashed name once collected (cached for a year), else the plain one. */
  url(name: string): string;
}

/**
 * Static files at `/static/` (issue 51): ETag, Last-Modified and 304, byte ranges, precompressed
 * `.br`/`.gz`, and, once `portico collectstatic` has written the collected folder, hashed names
 * served immutable for a year (`app.staticUrl('site.css')` gives the hashed URL). Without a
 * collected folder the source folder is served as it is (development).
 *
 * @example
 * app.use(staticFiles({ dir: new URL('./static', import.meta.url).pathname }));
 */
export function staticFiles(options: StaticFilesOptions): Plugin {
  const prefix = options.prefix ?? '/static/';
  if (!/^\/(?:[A-Za-z0-9_-]+\/)+$/.test(prefix)) throw new Error(`staticFiles: prefix is a path with both slashes such as /static/, got ${JSON.stringify(prefix)}`);
  const source = resolve(options.dir);
  const root = resolve(options.root ?? join(dirname(source), 'staticfiles'));
  return {
    name: 'static-files',
    install(ctx) {
      let text: string | undefined;
      try {
        text = readFileSync(join(root, MANIFEST_FILE), 'utf8');
      } catch {
        text = undefined;
      }
      const manifest = text === undefined ? undefined : readManifest(text);
      if (text !== undefined && !manifest) throw new Error(`staticFiles: ${join(root, MANIFEST_FILE)} is not a manifest portico collectstatic wrote; run it again`);
      const settings: StaticFilesSettings = { source, root, prefix, url: (name) => `${prefix}${manifest?.paths[name] ?? name}` };
      ctx.bind(TOKENS.StaticFiles, settings);
      ctx.middleware(staticFilesMiddleware({ prefix, root: { dir: manifest ? root : source, manifest } }));
    },
  };
}
