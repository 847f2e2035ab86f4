import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

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
    ['src/domain/x.ts', "import type { RecordStore } from '../ports/record-store.js';\nexport type K = RecordStore;\n"],
    ['src/application/x.ts', "import { buildKoaApp } from '../adapters/http-koa/koa-app.js';\nexport const k = buildKoaApp;\n"],
    ['src/application/x.ts', "import { Container } from 'inversify';\nexport const k = Container;\n"],
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

  it('allows the permitted directions', async () => {
    expect(await lint('src/application/x.ts', "import type { RecordStore } from '../ports/record-store.js';\nexport type K = RecordStore;\n")).toBe(0);
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
