import type { Knex } from '@mikro-orm/knex';
import { createRequire, Module } from 'node:module';

const require = createRequire(import.meta.url);

type Dialect = typeof Knex.Client;

/** knex's module (`require('knex')`: the function, with `.knex` and `.default`) and MikroORM's two knex dialects. */
export interface KnexRuntime {
  readonly knexModule: { knex: (config: Knex.Config) => Knex };
  readonly dialect: (name: 'sqlite' | 'postgresql') => Dialect;
}

/**
 * Set by `scripts/bundle.mjs` in the built package: the path, relative to the bundled entry, of
 * knex and MikroORM's knex dialects bundled into one file (`dist/src/knex.cjs`). Undefined when
 * Portico runs from its sources (tests, tsx).
 */
declare const PORTICO_KNEX_BUNDLE: string | undefined;

let runtime: KnexRuntime | undefined;

/**
 * knex as MikroORM's knex package requires it, and the knex dialects of MikroORM's drivers.
 *
 * From the built package, the bundled copy (`dist/src/knex.cjs`): knex's 110 files and the 260 of
 * lodash it requires one function at a time were about a quarter of the reference app's start
 * (docs/performance.md, "Cold start"); one file loads in a third of that time. MikroORM, loaded
 * later for a migration or a driver error, must then see the same knex (it reuses the connection
 * only when `driverOptions.context.client instanceof knex.Client`), so the bundled module is
 * entered in `require.cache` under the path MikroORM's `require('knex')` resolves to (Node's
 * documented way to provide a module). When that path is already loaded (a host that required
 * knex or MikroORM before opening Portico's database), that copy is used instead, as from the
 * sources. The versions are the same: the bundle is built from the knex MikroORM depends on.
 */
export function knexRuntime(): KnexRuntime {
  if (runtime) return runtime;
  const fromMikroOrm = createRequire(require.resolve('@mikro-orm/knex'));
  const knexPath = fromMikroOrm.resolve('knex');
  if (typeof PORTICO_KNEX_BUNDLE === 'string' && require.cache[knexPath] === undefined) {
    const bundled = require(PORTICO_KNEX_BUNDLE) as { knexModule: KnexRuntime['knexModule']; SqliteKnexDialect: Dialect; PostgreSqlKnexDialect: Dialect };
    const entry = new Module(knexPath);
    entry.filename = knexPath;
    entry.exports = bundled.knexModule;
    entry.loaded = true;
    require.cache[knexPath] = entry;
    return (runtime = {
      knexModule: bundled.knexModule,
      dialect: (name) => (name === 'sqlite' ? bundled.SqliteKnexDialect : bundled.PostgreSqlKnexDialect),
    });
  }
  return (runtime = {
    knexModule: fromMikroOrm('knex') as KnexRuntime['knexModule'],
    // The package's export map names only its index, which loads the whole of MikroORM: the
    // dialect files are required relative to it (`mikro-orm-core.ts`).
    dialect: (name) =>
      name === 'sqlite'
        ? (fromMikroOrm('./dialects/sqlite/SqliteKnexDialect.js') as { SqliteKnexDialect: Dialect }).SqliteKnexDialect
        : (fromMikroOrm('./dialects/postgresql/PostgreSqlKnexDialect.js') as { PostgreSqlKnexDialect: Dialect }).PostgreSqlKnexDialect,
  });
}
