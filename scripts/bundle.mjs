// `npm run build`, after tsc: the package's main entry as one ES module.
//
// tsc writes one file per source module (some 200 under dist/src). Node resolves, opens, reads
// and compiles each of them at start, which was about 100 ms of the reference app's 0.6 s cold
// start on the development machine (docs/performance.md, "Cold start"). esbuild rewrites
// dist/src/index.js as the whole of src/ in one file; the packages Portico depends on stay
// imports (`packages: 'external'`), so a host shares them, and the packages Portico loads on
// first use (`createRequire(import.meta.url)`, `import('pg')`) still load on first use.
// `portico/testing` (dist/src/testing.js) imports only `./index.js`, so it shares this bundle;
// the CLI imports nothing of Portico's. tsc's per-module files stay in dist/ for the
// declarations and the API report; the package ships the three entry files (package.json "files").
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
