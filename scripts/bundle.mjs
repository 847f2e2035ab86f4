// `npm run build`, after tsc: the package's main entry as one ES module.
//
// tsc writes one file per source module (some 200 under dist/src). Node resolves, opens, reads
// and compiles each of them at start, which was about 100 ms of the reference app's 0.6 s cold
// start on the development machine (docs/performance.md, "Cold start"). esbuild rewrites
// dist/src/index.js as the whole of src/ in one file; the packages Portico depends on stay
// imports (`packages: 'external'`), so a host shares them, and the packages Portico loads on
// first use (`createRequire(import.meta.url)`, `import('pg')`) still load on first use. The
// packages it loads at start and uses on its own are the exception: they come from vendor.cjs,
// built below (VENDORED).
// `portico/testing` (dist/src/testing.js) imports only `./index.js`, so it shares this bundle;
// the CLI imports nothing of Portico's. tsc's per-module files stay in dist/ for the
// declarations and the API report; the package ships the three entry files and the two bundles
// built below with their code caches (package.json "files").
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const KNEX_BUNDLE = 'knex.cjs';
const VENDOR_BUNDLE = 'vendor.cjs';
const BUNDLED_LICENSES = 'bundled-licenses.txt';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The CommonJS packages the main entry loads at start, bundled into one file (built below) and
// loaded through V8's code cache: koa, @koa/router and raw-body with what they require, pino, and
// inversify with reflect-metadata: 335 files, whose loading was about a third of the reference
// app's start (docs/performance.md, "Cold start: the packages loaded at start"). Only packages that
// Portico uses on its own: nothing of theirs crosses to a host as an object the host's copy must
// recognise (graphql, a peer dependency whose schema a host may print, stays a package). In
// load order: reflect-metadata before inversify.
const VENDORED = ['reflect-metadata', 'koa', '@koa/router', 'raw-body', 'pino', 'inversify'];
const vendoredPackages = join(root, 'src/runtime/vendored-packages.ts');
/** Resolves an import of a vendored package to a module that hands out the bundle's copy. */
const vendorPlugin = {
  name: 'portico-vendored-packages',
  setup(b) {
    const names = new Set(VENDORED);
    b.onResolve({ filter: /^[@a-z]/ }, (args) => (names.has(args.path) ? { path: args.path, namespace: 'portico-vendored' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'portico-vendored' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(vendoredPackages)}).vendoredPackage(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

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
  // `knex-runtime.ts` and `vendored-packages.ts`: the built entry loads knex and the vendored
  // packages from the files built below.
  define: { PORTICO_KNEX_BUNDLE: JSON.stringify(`./${KNEX_BUNDLE}`), PORTICO_VENDOR_BUNDLE: JSON.stringify(`./${VENDOR_BUNDLE}`) },
  plugins: [vendorPlugin],
});

// Both CommonJS bundles are written without their comments and indentation (`minifyWhitespace`;
// names and syntax stay): a comment holding one character outside ASCII made V8 keep the whole
// source as UTF-16, and the file as written cost 4.7 MB more of the started process's memory.
// Licence comments are kept, and the licence files of every bundled package are collected below.
const bundleOptions = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', minifyWhitespace: true, metafile: true, logLevel: 'warning' };

// The vendored packages, by name: the file exports `{ 'reflect-metadata': …, koa: …, … }`.
const vendorBuild = await build({
  ...bundleOptions,
  absWorkingDir: root,
  stdin: { contents: `module.exports = {\n${VENDORED.map((name) => `  ${JSON.stringify(name)}: require(${JSON.stringify(name)}),`).join('\n')}\n};`, resolveDir: root, loader: 'js' },
  outfile: `dist/src/${VENDOR_BUNDLE}`,
});

// knex, and the two knex dialects of MikroORM's drivers (with the MikroORM files they require),
// as one CommonJS file: knex requires its own 110 files and 260 of lodash's one function at a
// time, which was a quarter of the reference app's start (docs/performance.md, "The night of the
// 26th: cold start").
// Built from the knex MikroORM's knex package depends on, resolved from there as at run time. The
// database drivers knex loads by name stay ordinary packages. The file exports, by package path,
// knex's main module and every file of @mikro-orm/knex it holds: `knex-runtime.ts` enters them in
// `require.cache`, so MikroORM, once loaded, patches and extends the bundled classes.
const fromMikroOrm = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/knex'));
const mikroOrmKnexDir = dirname(fromMikroOrm.resolve('./package.json'));
const knexMain = fromMikroOrm.resolve('knex');
const knexBuild = (contents, extra) =>
  build({
    ...bundleOptions,
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js' },
    external: ['sqlite3', 'better-sqlite3', 'pg', 'pg-native', 'pg-query-stream', 'mysql', 'mysql2', 'oracledb', 'tedious', 'libsql', '@libsql/*', '@mikro-orm/core'],
    ...extra,
  });
const dialects = ['./dialects/sqlite/SqliteKnexDialect.js', './dialects/postgresql/PostgreSqlKnexDialect.js'];
const { metafile } = await knexBuild(dialects.map((d) => `require(${JSON.stringify(fromMikroOrm.resolve(d))});`).join('\n'), { write: false, metafile: true });
const mikroOrmFiles = Object.keys(metafile.inputs)
  .map((input) => resolve(root, input))
  .filter((file) => file.startsWith(`${mikroOrmKnexDir}/`))
  .map((file) => file.slice(mikroOrmKnexDir.length + 1))
  .sort();
const knexBundleBuild = await knexBuild(
  [
    `exports.modules = { knex: require(${JSON.stringify(knexMain)}) };`,
    ...mikroOrmFiles.map((file) => `exports.modules[${JSON.stringify(`@mikro-orm/knex/${file}`)}] = require(${JSON.stringify(join(mikroOrmKnexDir, file))});`),
  ].join('\n'),
  { outfile: `dist/src/${KNEX_BUNDLE}` },
);

// The licences of the packages the two bundles hold (their MIT and similar licences ask that the
// notice travel with copies): each package's name, version and licence file, in one text file.
const bundledPackages = new Map();
// A package's root: the nearest package.json with a name (one that only sets "type", as in a
// package's lib/cjs, is not it).
const named = (dir) => existsSync(join(dir, 'package.json')) && JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
for (const { metafile: meta } of [vendorBuild, knexBundleBuild]) {
  for (const input of Object.keys(meta.inputs)) {
    let dir = dirname(resolve(root, input));
    while (dir.includes('/node_modules/') && !named(dir)) dir = dirname(dir);
    if (!dir.includes('/node_modules/') || bundledPackages.has(dir)) continue;
    const { name, version, license } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    bundledPackages.set(dir, `${name}@${version} (${license ?? 'see below'})\n\n${licenceFile ? readFileSync(join(dir, licenceFile), 'utf8').trim() : `No licence file; package.json says: ${license}`}\n`);
  }
}
writeFileSync(
  join(root, 'dist/src', BUNDLED_LICENSES),
  `Packages bundled into ${KNEX_BUNDLE} and ${VENDOR_BUNDLE}, with their licences.\n\n${[...bundledPackages.values()].sort().join(`\n${'-'.repeat(78)}\n\n`)}`,
);

// The code caches (`code-cached-bundle.ts`): each bundle compiled and run once, in a fresh process
// with Node's default flags, and what V8 compiled written beside it as `<file>.v8cache`. V8 rejects
// a cache made under other flags (`--max-old-space-size`, `--stack-size`, even
// `--enable-source-maps`), so NODE_OPTIONS is left out: the cache serves a plain `node` start, and
// a start with such flags compiles as without a cache.
const cacheWriter = pathToFileURL(join(root, 'dist/src/runtime/code-cached-bundle.js')).href;
const { NODE_OPTIONS: _nodeOptions, ...plainEnv } = process.env;
for (const file of [KNEX_BUNDLE, VENDOR_BUNDLE]) {
  const script = `const { writeCodeCache } = await import(${JSON.stringify(cacheWriter)}); writeCodeCache(${JSON.stringify(join(root, 'dist/src', file))});`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: plainEnv, stdio: 'inherit' });
}
