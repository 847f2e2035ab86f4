import { createRequire } from 'node:module';
import type * as MikroOrmCore from '@mikro-orm/core';

/**
 * @mikro-orm/core, required rather than imported (as are MikroORM's driver and migration
 * packages in `mikro-orm-database.ts`). The packages are CommonJS, and Node runs an ES module's
 * import of a CommonJS file through its export detection (cjs-module-lexer), which reads and
 * scans again every file the package re-exports (`__exportStar(require(…))`, some 400 across
 * @mikro-orm/core, @mikro-orm/knex and knex). That garbage alone grew the young generation of the
 * reference app to its largest size at start (docs/performance.md). The modules are the same ones
 * an `import` gives (the packages' ESM entries wrap these files), so a host shares one MikroORM
 * with Portico.
 */
export const mikroOrmCore = createRequire(import.meta.url)('@mikro-orm/core') as typeof MikroOrmCore;
