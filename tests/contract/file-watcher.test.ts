import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsFileWatcher } from '../../src/adapters/system/fs-file-watcher.js';
import type { FileWatcher } from '../../src/ports/file-watcher.js';

/*
 * The FileWatcher contract (src/ports/file-watcher.ts), on real temp folders, run over every
 * adapter: a change is reported with its absolute path (in sub-folders too), stop() stops the
 * reports, a missing path or a file is an error.
 */
const ADAPTERS: readonly (readonly [string, FileWatcher])[] = [['node:fs', fsFileWatcher]];

/** Time for a watcher to be set up (and for late events to arrive) before the next step. */
const settle = () => new Promise((r) => setTimeout(r, 100));

describe.each(ADAPTERS)('FileWatcher contract: %s', (_name, watcher) => {
  let dir: string;
  const stops: (() => void)[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portico-watch-'));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await rm(dir, { recursive: true, force: true });
  });
  const watch = (paths: readonly string[], onChange: (path: string) => void) => {
    const stop = watcher.watch(paths, onChange);
    stops.push(stop);
    return stop;
  };

  it('reports a change to a file of a watched folder, with its absolute path', async () => {
    const seen: string[] = [];
    watch([dir], (path) => seen.push(path));
    await settle();
    await writeFile(join(dir, 'a.html'), 'a');
    await expect.poll(() => seen, { timeout: 2000 }).toContain(join(dir, 'a.html'));
  });

  it('reports changes in sub-folders too, and resolves a relative path against the working directory', async () => {
    await mkdir(join(dir, 'templates', 'partials'), { recursive: true });
    const seen: string[] = [];
    watch([relative(process.cwd(), dir)], (path) => seen.push(path));
    await settle();
    await writeFile(join(dir, 'templates', 'partials', 'nav.html'), 'nav');
    await expect.poll(() => seen, { timeout: 2000 }).toContain(join(dir, 'templates', 'partials', 'nav.html'));
  });

  it('watches several folders', async () => {
    const other = await mkdtemp(join(tmpdir(), 'portico-watch-other-'));
    try {
      const seen: string[] = [];
      watch([dir, other], (path) => seen.push(path));
      await settle();
      await writeFile(join(other, 'b.css'), 'b');
      await writeFile(join(dir, 'a.html'), 'a');
      await expect.poll(() => seen, { timeout: 2000 }).toEqual(expect.arrayContaining([join(other, 'b.css'), join(dir, 'a.html')]));
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('stop() stops the reports', async () => {
    const seen: string[] = [];
    const stop = watch([dir], (path) => seen.push(path));
    await settle();
    await writeFile(join(dir, 'before.txt'), '1');
    await expect.poll(() => seen.length, { timeout: 2000 }).toBeGreaterThan(0);
    stop();
    const count = seen.length;
    await writeFile(join(dir, 'after.txt'), '2');
    await writeFile(join(dir, 'before.txt'), '3');
    await settle();
    await settle();
    expect(seen).toHaveLength(count);
    expect(seen).not.toContain(join(dir, 'after.txt'));
  });

  it('a missing path is an error, from check and from watch, naming it; nothing is watched', () => {
    const missing = join(dir, 'portico-no-such-folder');
    expect(() => watcher.check([dir, missing])).toThrow(missing);
    expect(() => watcher.watch([dir, missing], () => undefined)).toThrow(/ENOENT/);
    expect(() => watcher.check([dir])).not.toThrow();
  });

  it('a file is not a folder: an error', async () => {
    const file = join(dir, 'file.txt');
    await writeFile(file, 'x');
    expect(() => watcher.check([file])).toThrow(file);
    expect(() => watcher.watch([file], () => undefined)).toThrow(file);
  });
});
