import type { Knex } from '@mikro-orm/knex';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Dialect = typeof Knex.Client;

/** knex's module (`require('knex')`: the function, with `.knex` and `.default`) and MikroORM's two knex dialects. */
export interface KnexRuntime {
  readonly knexModule: { knex: (config: Knex.Config) => Knex };
  readonly dialect: (name: 'sqlite' | 'postgresql') => Dialect;
}

let runtime: KnexRuntime | undefined;

/**
 * knex as MikroORM's knex package requires it (resolved from there, so MikroORM, loaded later for
 * a migration or a driver error, sees the same classes: it reuses the connection only when
 * `driverOptions.context.client instanceof knex.Client`), and the knex dialects of MikroORM's
 * drivers. The package's export map names only its index, which loads the whole of MikroORM: the
 * dialect files are required relative to it (`mikro-orm-core.ts`).
 */
export function knexRuntime(): KnexRuntime {
  if (runtime) return runtime;
  const fromMikroOrm = createRequire(require.resolve('@mikro-orm/knex'));
  const load = (file: string): unknown => fromMikroOrm(`./${file}`);
  return (runtime = {
    knexModule: fromMikroOrm('knex') as KnexRuntime['knexModule'],
    dialect: (name) =>
      name === 'sqlite'
        ? (load('dialects/sqlite/SqliteKnexDialect.js') as { SqliteKnexDialect: Dialect }).SqliteKnexDialect
        : (load('dialects/postgresql/PostgreSqlKnexDialect.js') as { PostgreSqlKnexDialect: Dialect }).PostgreSqlKnexDialect,
  });
}
