import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';

export interface FolderWatchOptions {
  /** Quiet time after the last change before `onChange` runs, in milliseconds (default 50). */
  readonly debounceMs?: number;
  /** A watcher failed (its folder was removed, too many watches, …); watching goes on for the others. */
  readonly onError?: (error: Error, folder: string) => void;
}

/**
 * Watches `folders` and everything under them (`fs.watch` recursive, or one watcher per folder
 * where the platform has no recursive watching), and calls `onChange` with the changed paths
 * once changes have been quiet for `debounceMs`. Returns the function that stops watching.
 * Throws when a folder does not exist.
 */
export function watchFolders(folders: readonly string[], onChange: (paths: string[]) => void, options: FolderWatchOptions = {}): () => void {
  const debounceMs = options.debounceMs ?? 50;
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const paths = [...changed];
    changed.clear();
    onChange(paths);
  };
  const noted = (folder: string) => (_event: string, file: string | Buffer | null) => {
    changed.add(file === null ? folder : join(folder, file.toString()));
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const watchers: FSWatcher[] = [];
  try {
    for (const folder of folders.map((f) => resolve(f))) {
      if (!statSync(folder).isDirectory()) throw new Error(`cannot watch ${folder}: not a folder`);
      for (const w of watchTree(folder, noted)) {
        w.on('error', (error: Error) => options.onError?.(error, folder));
        watchers.push(w);
      }
    }
  } catch (error) {
    for (const w of watchers) w.close();
    throw error;
  }
  return () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const w of watchers.splice(0)) w.close();
  };
}

type Listener = (event: string, file: string | Buffer | null) => void;

/** One recursive watcher on `root`, or (no recursive watching on this platform) one per folder under it. */
function watchTree(root: string, noted: (folder: string) => Listener): FSWatcher[] {
  try {
    return [watch(root, { recursive: true }, noted(root))];
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM') throw error;
  }
  const folders = [root];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) folders.push(join(entry.parentPath ?? entry.path, entry.name));
  }
  return folders.map((folder) => watch(folder, noted(folder)));
}
