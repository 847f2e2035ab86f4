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
// declarations and the API report; the package ships the three entry files and the knex bundle
// built below (package.json "files").
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const KNEX_BUNDLE = 'knex.cjs';
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
  // `knex-runtime.ts`: the built entry loads knex from the file built below.
  define: { PORTICO_KNEX_BUNDLE: JSON.stringify(`./${KNEX_BUNDLE}`) },
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
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['sqlite3', 'better-sqlite3', 'pg', 'pg-native', 'pg-query-stream', 'mysql', 'mysql2', 'oracledb', 'tedious', 'libsql', '@libsql/*', '@mikro-orm/core'],
    logLevel: 'warning',
    ...extra,
  });
const dialects = ['./dialects/sqlite/SqliteKnexDialect.js', './dialects/postgresql/PostgreSqlKnexDialect.js'];
const { metafile } = await knexBuild(dialects.map((d) => `require(${JSON.stringify(fromMikroOrm.resolve(d))});`).join('\n'), { write: false, metafile: true });
const mikroOrmFiles = Object.keys(metafile.inputs)
  .map((input) => resolve(root, input))
  .filter((file) => file.startsWith(`${mikroOrmKnexDir}/`))
  .map((file) => file.slice(mikroOrmKnexDir.length + 1))
  .sort();
await knexBuild(
  [
    `exports.modules = { knex: require(${JSON.stringify(knexMain)}) };`,
    ...mikroOrmFiles.map((file) => `exports.modules[${JSON.stringify(`@mikro-orm/knex/${file}`)}] = require(${JSON.stringify(join(mikroOrmKnexDir, file))});`),
  ].join('\n'),
  { outfile: `dist/src/${KNEX_BUNDLE}` },
);
