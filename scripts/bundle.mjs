// `npm run build`, after tsc: Portico's own main entry as one ES module.
//
// tsc writes one file per source module (some 200 under dist/src); Node would resolve, open and
// compile each of them at start. esbuild rewrites dist/src/index.js as the whole of src/ in one
// file, with a linked source map (stack traces name src/**/*.ts lines). Every package Portico
// depends on stays an import (`packages: 'external'`), resolved from the host's node_modules as
// declared in package.json: nothing of another package is bundled. `portico/testing`
// (dist/src/testing.js) imports only `./index.js`, so it shares this bundle; the CLI imports
// nothing of Portico's. tsc's per-module files stay in dist/ for the declarations and the API
// report.
import { build } from 'esbuild';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/src/index.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  tsconfig: 'tsconfig.json',
  sourcemap: 'linked',
  logLevel: 'warning',
});
