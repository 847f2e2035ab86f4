import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFileOf, cacheUse, requireBundle, writeCodeCache } from '../../../src/runtime/code-cached-bundle.js';

const dir = mkdtempSync(join(tmpdir(), 'portico-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const require = createRequire(import.meta.url);

let n = 0;
/** A CommonJS file answering `word`, with a function its load runs and one it does not. */
function bundle(word: string): string {
  const file = join(dir, `bundle-${n++}.cjs`);
  writeFileSync(file, `const path = require('node:path');\nconst shout = (w) => w.toUpperCase();\nexports.word = shout(${JSON.stringify(word)});\nexports.base = path.basename(__filename);\nexports.later = () => module.id;\n`);
  return file;
}

/** A copy of `file` and its cache under a new name: this process has not loaded it. */
function copyWithCache(file: string): string {
  const copy = join(dir, `bundle-${n++}.cjs`);
  copyFileSync(file, copy);
  copyFileSync(cacheFileOf(file), cacheFileOf(copy));
  return copy;
}

describe('requireBundle', () => {
  it('loads a file without a cache as require would: its exports, __filename, require, module, and an entry in require.cache', () => {
    const file = bundle('one');
    const loaded = requireBundle(file) as { word: string; base: string; later: () => string };
    expect(cacheUse(file)).toBe('absent');
    expect(loaded.word).toBe('ONE');
    expect(loaded.base).toBe(file.split('/').at(-1));
    expect(loaded.later()).toBe(file);
    expect(require(file)).toBe(loaded);
    expect(requireBundle(file)).toBe(loaded);
  });

  it('answers a file already in require.cache from there, without reading its cache', () => {
    const file = bundle('two');
    const required = require(file) as unknown;
    expect(requireBundle(file)).toBe(required);
    expect(cacheUse(file)).toBeUndefined();
  });

  it('compiles with the cache writeCodeCache wrote for the same source: V8 accepts it', () => {
    const file = bundle('three');
    expect(writeCodeCache(file)).toBeGreaterThan(32);
    const copy = copyWithCache(file);
    expect((requireBundle(copy) as { word: string }).word).toBe('THREE');
    expect(cacheUse(copy)).toBe('accepted');
  });

  it('refuses to write a cache in a process that already loaded the file', () => {
    const file = bundle('four');
    requireBundle(file);
    expect(() => writeCodeCache(file)).toThrow(/already loaded/);
  });

  it('does not offer V8 a cache made from other source of the same length, which V8 would run instead of the file', () => {
    const file = bundle('five');
    writeCodeCache(file);
    const copy = copyWithCache(file);
    const edited = readFileSync(copy, 'utf8').replace('"five"', '"nine"');
    expect(edited.length).toBe(readFileSync(file, 'utf8').length);
    writeFileSync(copy, edited);
    expect((requireBundle(copy) as { word: string }).word).toBe('NINE');
    expect(cacheUse(copy)).toBe('stale');
  });

  it('compiles without the cache when V8 rejects its data (another V8 version, other flags, damage)', () => {
    const file = bundle('six');
    writeCodeCache(file);
    const copy = copyWithCache(file);
    const cache = readFileSync(cacheFileOf(copy));
    // V8's data starts after the 32 bytes of the source's hash; its header carries V8's version hash.
    for (let i = 32; i < 48; i++) cache[i] = (cache[i] ?? 0) ^ 0xff;
    writeFileSync(cacheFileOf(copy), cache);
    expect((requireBundle(copy) as { word: string }).word).toBe('SIX');
    expect(cacheUse(copy)).toBe('rejected');
  });

  it('treats a cache file too short to hold a hash as stale', () => {
    const file = bundle('seven');
    writeFileSync(cacheFileOf(file), Buffer.alloc(10));
    expect((requireBundle(file) as { word: string }).word).toBe('SEVEN');
    expect(cacheUse(file)).toBe('stale');
  });

  it('lets an error thrown while the file loads through, and leaves no entry in require.cache', () => {
    const file = join(dir, `bundle-${n++}.cjs`);
    writeFileSync(file, `throw new Error('broken bundle');\n`);
    expect(() => requireBundle(file)).toThrow('broken bundle');
    expect(require.cache[file]).toBeUndefined();
  });
});
