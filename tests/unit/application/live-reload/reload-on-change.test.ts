import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsFileWatcher } from '../../../../src/adapters/system/fs-file-watcher.js';
import { ReloadOnChange } from '../../../../src/application/live-reload/reload-on-change.js';
import type { FileWatcher } from '../../../../src/ports/file-watcher.js';

/** A FileWatcher driven by the test: `change(path)` reports a change while watching. */
function fakeWatcher(): FileWatcher & { change(path: string): void; watching(): boolean; fail(error: Error, path: string): void } {
  let onChange: ((path: string) => void) | undefined;
  let onError: ((error: Error, path: string) => void) | undefined;
  return {
    check: (paths) => {
      for (const p of paths) if (p.includes('missing')) throw new Error(`cannot watch "${p}": no such folder (ENOENT)`);
    },
    watch(_paths, change, error) {
      onChange = change;
      onError = error;
      return () => {
        onChange = undefined;
        onError = undefined;
      };
    },
    change: (path) => onChange?.(path),
    fail: (error, path) => onError?.(error, path),
    watching: () => onChange !== undefined,
  };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ReloadOnChange', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('reports a burst of changes, in sub-folders too, once after the debounce', async () => {
    dir = await mkdtemp(join(tmpdir(), 'portico-watch-'));
    const calls: string[][] = [];
    const stop = new ReloadOnChange({ watcher: fsFileWatcher, folders: [dir], pages: { reload: (paths) => void calls.push([...paths]) }, debounceMs: 50 }).start();
    try {
      await new Promise((r) => setTimeout(r, 50));
      await writeFile(join(dir, 'a.html'), 'a');
      await writeFile(join(dir, 'b.css'), 'b');
      await expect.poll(() => calls.length, { timeout: 2000 }).toBe(1);
      expect(calls[0]).toEqual(expect.arrayContaining([join(dir, 'a.html'), join(dir, 'b.css')]));
      await new Promise((r) => setTimeout(r, 150));
      expect(calls).toHaveLength(1);
    } finally {
      stop();
    }
  });

  it('throws for a folder that does not exist', () => {
    const reloading = new ReloadOnChange({ watcher: fsFileWatcher, folders: [join(tmpdir(), 'portico-no-such-folder')], pages: { reload: () => undefined } });
    expect(() => reloading.check()).toThrow(/ENOENT/);
    expect(() => reloading.check()).toThrow(/^liveReload: cannot watch ".*portico-no-such-folder": no such folder/);
  });

  it('reloads every open page once per quiet period, naming each changed path once', async () => {
    const watcher = fakeWatcher();
    const calls: string[][] = [];
    const stop = new ReloadOnChange({ watcher, folders: ['/t'], pages: { reload: (paths) => void calls.push([...paths]) }, debounceMs: 30 }).start();
    watcher.change('/t/a.html');
    await wait(10);
    watcher.change('/t/a.html');
    watcher.change('/t/b.css');
    expect(calls).toEqual([]);
    await expect.poll(() => calls, { timeout: 1000 }).toEqual([['/t/a.html', '/t/b.css']]);
    watcher.change('/t/c.js');
    await expect.poll(() => calls.length, { timeout: 1000 }).toBe(2);
    expect(calls[1]).toEqual(['/t/c.js']);
    stop();
  });

  it('stop() stops watching and drops a pending reload', async () => {
    const watcher = fakeWatcher();
    const calls: string[][] = [];
    const stop = new ReloadOnChange({ watcher, folders: ['/t'], pages: { reload: (paths) => void calls.push([...paths]) }, debounceMs: 20 }).start();
    expect(watcher.watching()).toBe(true);
    watcher.change('/t/a.html');
    stop();
    expect(watcher.watching()).toBe(false);
    await wait(60);
    expect(calls).toEqual([]);
  });

  it('hands a watch failure to onError', () => {
    const watcher = fakeWatcher();
    const errors: [string, string][] = [];
    const stop = new ReloadOnChange({ watcher, folders: ['/t'], pages: { reload: () => undefined }, onError: (e, p) => void errors.push([e.message, p]) }).start();
    watcher.fail(new Error('gone'), '/t');
    stop();
    expect(errors).toEqual([['gone', '/t']]);
  });
});
