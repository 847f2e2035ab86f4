import type { FileWatcher, WatchErrorHandler } from '../../ports/file-watcher.js';

/** The open pages of the app (the HTTP adapter's event streams): each is told to reload. */
export interface OpenPages {
  /** Tells every open page to reload; `changed` names the changed paths. */
  reload(changed: readonly string[]): void;
}

/** What {@link ReloadOnChange} watches and tells. */
export interface ReloadOnChangeDeps {
  readonly watcher: FileWatcher;
  /** The folders watched, each with everything under it. */
  readonly folders: readonly string[];
  readonly pages: OpenPages;
  /** Quiet time after the last change before the pages reload, in milliseconds (default 50). */
  readonly debounceMs?: number;
  /** A folder's watch failed; watching goes on for the others. */
  readonly onError?: WatchErrorHandler;
}

/**
 * The reload decision of live reload: any change under a watched folder reloads every open page
 * (a template or a static file may be used by any of them), once, after the changes have been
 * quiet for `debounceMs`: saving a file (truncate, then write) or several at once is one reload,
 * naming every changed path.
 *
 * @example
 * const reloading = new ReloadOnChange({ watcher, folders: ['/app/templates'], pages });
 * reloading.check(); // at start: a missing folder fails it
 * const stop = reloading.start();
 */
export class ReloadOnChange {
  constructor(private readonly deps: ReloadOnChangeDeps) {}

  /** Throws, naming it, when a folder cannot be watched (it does not exist). */
  check(): void {
    try {
      this.deps.watcher.check(this.deps.folders);
    } catch (error) {
      throw new Error(`liveReload: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Starts watching; returns the function that stops it (a pending reload is dropped). */
  start(): () => void {
    const debounceMs = this.deps.debounceMs ?? 50;
    const changed = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const paths = [...changed];
      changed.clear();
      this.deps.pages.reload(paths);
    };
    const stopWatching = this.deps.watcher.watch(
      this.deps.folders,
      (path) => {
        changed.add(path);
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, debounceMs);
      },
      this.deps.onError,
    );
    return () => {
      stopWatching();
      if (timer) clearTimeout(timer);
      timer = undefined;
      changed.clear();
    };
  }
}
