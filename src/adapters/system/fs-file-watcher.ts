import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FileWatcher, WatchErrorHandler } from '../../ports/file-watcher.js';

/**
 * The FileWatcher on `node:fs`: `fs.watch(folder, { recursive: true })` on each folder, or one
 * watcher per folder under it where the platform has no recursive watching. Each `fs.watch`
 * event is reported at once (the file it names, else the folder).
 */
export const fsFileWatcher: FileWatcher = {
  check(paths) {
    for (const path of paths) folderAt(path);
  },
  watch(paths, onChange, onError) {
    let stopped = false;
    const noted = (folder: string) => (_event: string, file: string | Buffer | null) => {
      if (!stopped) onChange(file === null ? folder : join(folder, file.toString()));
    };
    const failed: WatchErrorHandler = (error, folder) => {
      if (!stopped) onError?.(error, folder);
    };
    const watchers: FSWatcher[] = [];
    try {
      for (const folder of paths.map(folderAt)) {
        for (const w of watchTree(folder, noted)) {
          w.on('error', (error: Error) => failed(error, folder));
          watchers.push(w);
        }
      }
    } catch (error) {
      for (const w of watchers) w.close();
      throw error;
    }
    return () => {
      stopped = true;
      for (const w of watchers.splice(0)) w.close();
    };
  },
};

/** The absolute path of the folder `path` names; throws when there is none. */
function folderAt(path: string): string {
  const folder = resolve(path);
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (!stat) throw Object.assign(new Error(`cannot watch "${folder}": no such folder (ENOENT)`), { code: 'ENOENT', path: folder });
  if (!stat.isDirectory()) throw Object.assign(new Error(`cannot watch "${folder}": not a folder (ENOTDIR)`), { code: 'ENOTDIR', path: folder });
  return folder;
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
