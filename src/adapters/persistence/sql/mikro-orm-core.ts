import { createRequire } from 'node:module';
import type * as MikroOrmCore from '@mikro-orm/core';

const require = createRequire(import.meta.url);
let core: typeof MikroOrmCore | undefined;

/**
 * @mikro-orm/core, required on first use rather than imported (as are MikroORM's driver and
 * migration packages). Required: the packages are CommonJS, and Node runs an ES module's import
 * of a CommonJS file through its export detection (cjs-module-lexer), which reads and scans again
 * every file the package re-exports (`__exportStar(require(…))`, some 400 across @mikro-orm/core,
 * @mikro-orm/knex and knex). On first use: a start on a migrated database needs none of MikroORM
 * (its connection is made by `sql-connection.ts`), and loading it was about 130 ms of a 600 ms
 * start (docs/performance.md). The modules are the same ones an `import` gives (the packages' ESM
 * entries wrap these files), so a host shares one MikroORM with Portico.
 */
export function mikroOrmCore(): typeof MikroOrmCore {
  return (core ??= require('@mikro-orm/core') as typeof MikroOrmCore);
}

/**
 * `request` resolved from one of MikroORM's packages: a file inside it (`./dialects/…`: the
 * packages' export maps name only their index, which loads the whole of MikroORM, and a path
 * relative to the index's own file is outside the map; the versions are pinned exactly), or a
 * package it depends on (so both get the same copy).
 */
export function requireFromMikroOrm<T>(pkg: string, request: string): T {
  return createRequire(require.resolve(pkg))(request) as T;
}
