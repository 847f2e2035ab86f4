import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { hashedName, MANIFEST_FILE, staticName, type StaticManifest } from '../../domain/storage/static-manifest.js';

/** Types worth compressing ahead of time (images, fonts and archives are compressed already). */
const COMPRESSIBLE = /\.(css|js|mjs|json|map|svg|txt|html|xml|csv|md|wasm)$/i;
/** Below this a compressed copy saves nothing worth a second file. */
const MIN_COMPRESS = 256;

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((name) => staticName(name) !== undefined && !/\.(br|gz)$/.test(name));
}

/**
 * `portico collectstatic` (issue 51): copies every file of `source` into `target` under its name
 * and under a name with 12 hex digits of its SHA-256 (`site.3f2a9c1d0b7e.css`), writes Brotli and
 * gzip copies of the compressible ones, and the manifest. It builds the whole folder beside
 * `target`, then moves it in place of the old one: no server reads a half-written folder.
 */
export async function collectStatic(source: string, target: string): Promise<StaticManifest> {
  const building = `${target}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  const paths: Record<string, string> = {};
  const encoded: Record<string, ('br' | 'gzip')[]> = {};
  for (const name of (await files(source)).sort()) {
    const bytes = await readFile(join(source, ...name.split('/')));
    const hashed = hashedName(name, createHash('sha256').update(bytes).digest('hex').slice(0, 12));
    paths[name] = hashed;
    const compress = COMPRESSIBLE.test(name) && bytes.length >= MIN_COMPRESS;
    const br = compress ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }) : undefined;
    const gz = compress ? gzipSync(bytes, { level: 9 }) : undefined;
    for (const out of [name, hashed]) {
      const path = join(building, ...out.split('/'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, bytes);
      const kinds: ('br' | 'gzip')[] = [];
      if (br && br.length < bytes.length) {
        await writeFile(`${path}.br`, br);
        kinds.push('br');
      }
      if (gz && gz.length < bytes.length) {
        await writeFile(`${path}.gz`, gz);
        kinds.push('gzip');
      }
      encoded[out] = kinds;
    }
  }
  const manifest: StaticManifest = { version: 1, paths, encoded };
  await writeFile(join(building, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  const old = `${target}.old-${process.pid}`;
  await rename(target, old).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(building, target);
  await rm(old, { recursive: true, force: true });
  return manifest;
}
