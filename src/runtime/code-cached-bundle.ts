import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * The built package's bundled CommonJS files (`dist/src/knex.cjs`, `dist/src/vendor.cjs`) load
 * through V8's code cache: `npm run build` compiles and runs each once and writes what V8 compiled
 * beside it (`<file>.v8cache`), so a start deserialises it instead of parsing the file again and
 * compiling, one function at a time, what its modules run while they load. It is what Node 22's
 * `module.enableCompileCache()` does; Node 20 has no such switch, and the package
 * `v8-compile-cache` replaces `Module.prototype._compile` for the whole process and writes its
 * cache at run time, which a library must not do to its host (docs/decisions.md, "Start packages
 * bundled, with V8's code cache").
 *
 * A cache file is the SHA-256 of the source it was made from followed by V8's data. V8 itself
 * checks only its version, its flags and the source's length, so a file edited in place (a patch
 * of the installed package) could otherwise run the old code; a cache for other source is not
 * offered to V8. V8 rejects data from another version or other flags and compiles the source as
 * without a cache: a missing, stale or rejected cache costs the time of an uncached load, never a
 * failure.
 */

const HASH_BYTES = 32;
const require = createRequire(import.meta.url);

/** How the last `requireBundle` of a file used its cache: for tests and measurements. */
export type CacheUse = 'accepted' | 'rejected' | 'stale' | 'absent';
const uses = new Map<string, CacheUse>();

/** What the last `requireBundle(file)` did with `<file>.v8cache`; undefined when it has not loaded the file. */
export function cacheUse(file: string): CacheUse | undefined {
  return uses.get(file);
}

/** `<file>.v8cache`: where the code cache of `file` lives. */
export const cacheFileOf = (file: string): string => `${file}.v8cache`;

const sourceHash = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

interface Loaded {
  readonly script: vm.Script;
  readonly exports: unknown;
}

/** Compiles `source` as Node compiles a CommonJS file, runs it as the module `file`, and enters it in `require.cache`. */
function load(file: string, source: string, cachedData: Buffer | undefined): Loaded {
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // A dynamic import() inside the file resolves as it would in a file Node loaded itself.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = new Module(file, undefined);
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  require.cache[file] = module;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
    wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  module.loaded = true;
  return { script, exports: module.exports };
}

/**
 * `require(file)` for a bundled CommonJS file, compiled with its code cache when there is one for
 * this very source. A file already in `require.cache` (required before, by Portico or by anyone)
 * is answered from there, as `require` would.
 *
 * @example
 * const { modules } = requireBundle(fileURLToPath(new URL('./knex.cjs', import.meta.url)));
 */
export function requireBundle(file: string): unknown {
  const known = require.cache[file];
  if (known) return known.exports;
  const bytes = readFileSync(file);
  let cache: Buffer | undefined;
  try {
    cache = readFileSync(cacheFileOf(file));
  } catch {
    cache = undefined;
  }
  // The hash of the bytes as read: the decoded source is not encoded again to hash it.
  const fresh = cache !== undefined && cache.length > HASH_BYTES && sourceHash(bytes).equals(cache.subarray(0, HASH_BYTES));
  const { script, exports } = load(file, bytes.toString('utf8'), fresh ? cache!.subarray(HASH_BYTES) : undefined);
  uses.set(file, cache === undefined ? 'absent' : !fresh ? 'stale' : script.cachedDataRejected === true ? 'rejected' : 'accepted');
  return exports;
}

/**
 * Loads `file` without a cache (in a process that has not loaded it), then writes `<file>.v8cache`
 * with what V8 compiled, including the functions its modules ran while loading. Run by
 * `npm run build` in a fresh process per file.
 */
export function writeCodeCache(file: string): number {
  if (require.cache[file]) throw new Error(`${file} is already loaded in this process: write its cache from a fresh one`);
  const bytes = readFileSync(file);
  const { script } = load(file, bytes.toString('utf8'), undefined);
  const data = Buffer.concat([sourceHash(bytes), script.createCachedData()]);
  writeFileSync(cacheFileOf(file), data);
  return data.length;
}
