import { resolve } from 'node:path';
import { LiveReloadHub, liveReloadInjection, liveReloadRoutes, liveReloadTag } from '../../adapters/http-koa/index.js';
import { fsFileWatcher } from '../../adapters/system/fs-file-watcher.js';
import { ReloadOnChange } from '../../application/live-reload/reload-on-change.js';
import type { Plugin } from '../plugin.js';

/** Options of {@link liveReload}. */
export interface LiveReloadOptions {
  /** Folders watched, with everything under them (templates, static files); relative to the working directory. */
  readonly watch: readonly string[];
  /** Path of the event stream; the client script is served at `<path>/client.js` (default `/__portico/livereload`). */
  readonly path?: string;
}

/**
 * Live reload in development: watches `watch` and reloads every open page of the app when a file
 * there changes. HTML responses (string or Buffer bodies) get a `<script src>` before `</body>`
 * that listens on the server-sent events at `GET <path>` (`event: reload`, a comment heartbeat
 * every 15 s) and reloads the page; a page also reloads once its stream comes back after the
 * server restarted. Watching starts when the app listens and stops when it closes.
 *
 * In production (`production: true` or NODE_ENV=production) it installs nothing: no route (404),
 * no script, no watcher.
 *
 * @example
 * app.use(liveReload({ watch: ['templates', 'public'] }));
 */
export function liveReload(options: LiveReloadOptions): Plugin {
  const path = (options.path ?? '/__portico/livereload').replace(/\/+$/, '');
  if (!path.startsWith('/')) throw new Error(`liveReload: path must start with "/" (got "${options.path}")`);
  if (options.watch.length === 0) throw new Error('liveReload: watch names no folder');
  return {
    name: 'live-reload',
    install(ctx) {
      if (ctx.production) return;
      const folders = options.watch.map((folder) => resolve(folder));
      const hub = new LiveReloadHub();
      const reloading = new ReloadOnChange({
        watcher: fsFileWatcher,
        folders,
        pages: hub,
        onError: (err, folder) => ctx.logger.warn({ err, folder }, 'live reload: a folder watcher failed'),
      });
      reloading.check();
      for (const route of liveReloadRoutes(path, hub)) ctx.route(route);
      ctx.middleware(liveReloadInjection(liveReloadTag(path)));
      ctx.onListen(() => {
        const stop = reloading.start();
        ctx.logger.info({ folders, path }, 'live reload: watching');
        return async () => {
          stop();
          hub.close();
        };
      });
    },
  };
}
