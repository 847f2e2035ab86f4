import type { Knex } from '@mikro-orm/knex';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBundle } from '../../../runtime/code-cached-bundle.js';

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
 * (docs/performance.md, "The night of the 26th: cold start"); one file loads in a third of that
 * time, and with its V8 code cache (`code-cached-bundle.ts`) in about half of that again.
 * MikroORM, loaded later for a migration or a driver error, must then see the same modules: it
 * reuses the connection only when `driverOptions.context.client instanceof knex.Client`, and it
 * patches knex's classes (`Client.prototype.query` for statements without bindings) through its
 * `MonkeyPatchable.js`. So knex's main module and every file of @mikro-orm/knex the bundle holds
 * are entered in `require.cache` under the paths MikroORM's own requires resolve to (Node's
 * documented way to provide a module). When knex or @mikro-orm/knex is already loaded (a host
 * that required knex or MikroORM before opening Portico's database), those copies are used
 * instead, as from the sources. The versions are the same: the bundle is built from the knex
 * MikroORM depends on.
 */
export function knexRuntime(): KnexRuntime {
  if (runtime) return runtime;
  const mikroOrmKnexIndex = require.resolve('@mikro-orm/knex');
  const fromMikroOrm = createRequire(mikroOrmKnexIndex);
  const knexPath = fromMikroOrm.resolve('knex');
  if (typeof PORTICO_KNEX_BUNDLE === 'string' && require.cache[knexPath] === undefined && require.cache[mikroOrmKnexIndex] === undefined) {
    const { modules } = requireBundle(fileURLToPath(new URL(PORTICO_KNEX_BUNDLE, import.meta.url))) as { modules: Record<string, unknown> };
    const mikroOrmKnexDir = dirname(mikroOrmKnexIndex);
    for (const [name, exports] of Object.entries(modules)) {
      const path = name === 'knex' ? knexPath : join(mikroOrmKnexDir, name.slice('@mikro-orm/knex/'.length));
      if (require.cache[path] !== undefined) continue;
      const entry = new Module(path);
      entry.filename = path;
      entry.exports = exports;
      entry.loaded = true;
      require.cache[path] = entry;
    }
    return (runtime = { knexModule: modules.knex as KnexRuntime['knexModule'], dialect: (name) => dialectOf(name, (file) => modules[`@mikro-orm/knex/${file}`]) });
  }
  // The package's export map names only its index, which loads the whole of MikroORM: the
  // dialect files are required relative to it (`mikro-orm-core.ts`).
  return (runtime = { knexModule: fromMikroOrm('knex') as KnexRuntime['knexModule'], dialect: (name) => dialectOf(name, (file) => fromMikroOrm(`./${file}`)) });
}

function dialectOf(name: 'sqlite' | 'postgresql', load: (file: string) => unknown): Dialect {
  return name === 'sqlite'
    ? (load('dialects/sqlite/SqliteKnexDialect.js') as { SqliteKnexDialect: Dialect }).SqliteKnexDialect
    : (load('dialects/postgresql/PostgreSqlKnexDialect.js') as { PostgreSqlKnexDialect: Dialect }).PostgreSqlKnexDialect;
}
