import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** Every adapter folder, as eslint.config.js reads them. */
const ADAPTERS = readdirSync(new URL('../../../src/adapters/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
/** Another adapter than `name` (the next one, in order). */
const otherThan = (name: string): string => ADAPTERS[(ADAPTERS.indexOf(name) + 1) % ADAPTERS.length] as string;

/** The layer rule of DESIGN.md §2 must bite: these imports fail lint (and so `npm test`). */
describe('layer rule', () => {
  const eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname });
  const lint = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').length;
  };

  it.each([
    ['src/domain/x.ts', "import Koa from 'koa';\nexport const k = Koa;\n"],
    ['src/domain/x.ts', "import { MikroORM } from '@mikro-orm/core';\nexport const k = MikroORM;\n"],
    ['src/domain/x.ts', "import type { TableStore } from '../ports/table-store.js';\nexport type K = TableStore;\n"],
    ['src/application/x.ts', "import { buildKoaApp } from '../adapters/http-koa/koa-app.js';\nexport const k = buildKoaApp;\n"],
    ['src/application/x.ts', "import { Container } from 'inversify';\nexport const k = Container;\n"],
    ['src/application/graphql/x.ts', "import { parse } from 'graphql';\nexport const k = parse;\n"],
    ['src/application/x.ts', "import { GraphQLString } from 'graphql/type';\nexport const k = GraphQLString;\n"],
    ['src/ports/x.ts', "import { CheckReadiness } from '../application/check-readiness.js';\nexport const k = CheckReadiness;\n"],
    ['src/adapters/http-koa/x.ts', "import { openDatabase } from '../persistence/open-database.js';\nexport const k = openDatabase;\n"],
    ['src/adapters/http-koa/x.ts', "import { createApp } from '../../composition/portico-app.js';\nexport const k = createApp;\n"],
    ['src/composition/plugins/x.ts', "import { WebSocketServer } from 'ws';\nexport const k = WebSocketServer;\n"],
    ['src/composition/x.ts', "import { useServer } from 'graphql-ws/use/ws';\nexport const k = useServer;\n"],
    ['src/composition/x.ts', "import { createHandler } from 'graphql-http/lib/use/http';\nexport const k = createHandler;\n"],
    ['src/composition/x.ts', "import { createHandler } from 'graphql-sse/lib/use/http';\nexport const k = createHandler;\n"],
    ['src/composition/x.ts', "import Redis from 'ioredis';\nexport const k = Redis;\n"],
  ])('%s may not: %s', async (file, code) => {
    expect(await lint(file, code)).toBeGreaterThan(0);
  });

  it('knows every adapter folder', () => {
    expect(ADAPTERS).toEqual(expect.arrayContaining(['crypto', 'events', 'graphql', 'http-koa', 'logging', 'mail', 'openapi', 'persistence', 'realtime', 'system', 'tasks', 'throttle']));
  });

  it.each(ADAPTERS)('src/adapters/%s may not import another adapter', async (name) => {
    const other = otherThan(name);
    expect(await lint(`src/adapters/${name}/x.ts`, `import { k } from '../${other}/x.js';\nexport const j = k;\n`)).toBeGreaterThan(0);
    expect(await lint(`src/adapters/${name}/sub/x.ts`, `import { k } from '../../${other}/x.js';\nexport const j = k;\n`)).toBeGreaterThan(0);
    expect(await lint(`src/adapters/${name}/x.ts`, `import { k } from '../../adapters/${other}/x.js';\nexport const j = k;\n`)).toBeGreaterThan(0);
    // Its own modules, from its folder and its sub-folders, are its own.
    expect(await lint(`src/adapters/${name}/x.ts`, "import { k } from './y.js';\nexport const j = k;\n")).toBe(0);
    expect(await lint(`src/adapters/${name}/sub/x.ts`, "import { k } from '../y.js';\nexport const j = k;\n")).toBe(0);
  });

  it.each([
    ['src/composition/x.ts', "import type { Server } from 'node:http';\nexport type K = Server;\n"],
    ['src/composition/x.ts', "import { createServer } from 'http';\nexport const k = createServer;\n"],
    ['src/composition/x.ts', "import { Server } from 'node:net';\nexport const k = Server;\n"],
    ['src/composition/x.ts', "import type { TLSSocket } from 'node:tls';\nexport type K = TLSSocket;\n"],
    ['src/composition/plugins/x.ts', "import { Readable } from 'node:stream';\nexport const k = Readable;\n"],
    ['src/composition/x.ts', "import { pipeline } from 'node:stream/promises';\nexport const k = pipeline;\n"],
    ['src/composition/x.ts', "import { cookieValue } from '../adapters/http-koa/cookies.js';\nexport const k = cookieValue;\n"],
    ['src/composition/x.ts', "import { UpgradeRouter } from '../adapters/http-koa/node/upgrade-router.js';\nexport const k = UpgradeRouter;\n"],
    ['src/composition/plugins/x.ts', "import { adminRoutes } from '../../adapters/http-koa/admin/admin-routes.js';\nexport const k = adminRoutes;\n"],
    ['src/composition/plugins/x.ts', "import type { RouteDef } from '../../adapters/http-koa/http-route.js';\nexport type K = RouteDef;\n"],
  ])('composition wires the HTTP adapter through its entry only: %s may not: %s', async (file, code) => {
    expect(await lint(file, code)).toBeGreaterThan(0);
  });

  it("allows composition the HTTP adapter's entry and Node's other modules", async () => {
    expect(await lint('src/composition/x.ts', "import { NodeServer } from '../adapters/http-koa/index.js';\nexport const k = NodeServer;\n")).toBe(0);
    expect(await lint('src/composition/plugins/x.ts', "import type { RouteDef } from '../../adapters/http-koa/index.js';\nexport type K = RouteDef;\n")).toBe(0);
    expect(await lint('src/composition/x.ts', "import { createHash } from 'node:crypto';\nexport const k = createHash;\n")).toBe(0);
    expect(await lint('src/composition/x.ts', "import { resolve } from 'node:path';\nexport const k = resolve;\n")).toBe(0);
  });

  it('allows the permitted directions', async () => {
    expect(await lint('src/application/x.ts', "import type { TableStore } from '../ports/table-store.js';\nexport type K = TableStore;\n")).toBe(0);
    // A module of Portico's own under a folder named like a framework is no framework.
    expect(await lint('src/application/graphql/x.ts', "import { encodeCursor } from '../../domain/graphql/cursor.js';\nexport const k = encodeCursor;\n")).toBe(0);
    expect(await lint('src/composition/x.ts', "import { Container } from 'inversify';\nexport const k = Container;\n")).toBe(0);
    expect(await lint('src/composition/x.ts', "import { graphqlOverWebSocket } from '../adapters/graphql/transports.js';\nexport const k = graphqlOverWebSocket;\n")).toBe(0);
  });

  it('keeps functions within 80 lines (blank lines and comments not counted)', async () => {
    const [result] = await eslint.lintText(`export function long(): number {\n  let n = 0;\n${'  n++;\n'.repeat(80)}  return n;\n}\n`, { filePath: 'src/domain/x.ts' });
    expect((result?.messages ?? []).filter((m) => m.ruleId === 'max-lines-per-function')).toHaveLength(1);
    const [short] = await eslint.lintText(`export function short(): number {\n  let n = 0;\n${'\n  // step\n  n++;\n'.repeat(76)}  return n;\n}\n`, { filePath: 'src/domain/x.ts' });
    expect((short?.messages ?? []).filter((m) => m.ruleId === 'max-lines-per-function')).toHaveLength(0);
  });
});
