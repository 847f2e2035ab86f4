/** A watch failed after it started (its folder was removed, too many watches, …); the other paths stay watched. */
export type WatchErrorHandler = (error: Error, path: string) => void;

/**
 * Watching folders for changes (live reload). A path is a folder, watched with everything under
 * it; a relative path is resolved against the working directory, and changes are reported with
 * absolute paths. One contract suite (`tests/contract/file-watcher.test.ts`) runs over every
 * adapter.
 *
 * @example
 * const stop = watcher.watch(['templates'], (path) => console.log('changed', path));
 * stop();
 */
export interface FileWatcher {
  /** Throws an Error naming the first of `paths` that cannot be watched (missing, or not a folder): what `watch` would throw. */
  check(paths: readonly string[]): void;
  /**
   * Watches `paths` and calls `onChange` with the path of each change as it is seen: no batching,
   * a burst is several calls, a path may be reported more than once. Throws (watching nothing)
   * when a path cannot be watched. Returns the function that stops watching: once it returns,
   * `onChange` and `onError` are not called again.
   */
  watch(paths: readonly string[], onChange: (path: string) => void, onError?: WatchErrorHandler): () => void;
}
