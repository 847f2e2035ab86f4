import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../support/reference-server.js';

/*
 * Issue 49: typed GraphQL clients come from graphql-codegen against the app's schema, as
 * docs/guide/graphql.md says. Codegen reads the reference app's schema by introspection over HTTP,
 * types an operation document, and a small program compiled under --strict against the generated
 * types runs that operation against the app.
 */
const POSTS = 'query Posts($limit: Int) { posts(limit: $limit) { id title author { name } } }';

const PROGRAM = `import type { PostsQuery, PostsQueryVariables } from './graphql.js';
declare const process: { argv: string[] };
const variables: PostsQueryVariables = { limit: 2 };
const res = await fetch(\`\${process.argv[2]}/graphql\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: ${JSON.stringify(POSTS)}, variables }),
});
const { data } = (await res.json()) as { data: PostsQuery };
const titles: string[] = data.posts.map((post) => \`\${post.title} by \${post.author?.name ?? 'nobody'}\`);
console.log(JSON.stringify(titles));
`;

describe('graphql-codegen against the reference app', () => {
  let ref: RunningReference;
  const dir = mkdtempSync(join(tmpdir(), 'portico-codegen-'));
  beforeAll(async () => {
    ref = await startReference('sqlite');
  });
  afterAll(async () => {
    await ref?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates operation types from the live schema; a strict program typed by them runs the operation', async () => {
    writeFileSync(join(dir, 'posts.graphql'), POSTS);
    await generate(
      {
        schema: `${ref.url}/graphql`,
        documents: [join(dir, 'posts.graphql')],
        generates: { [join(dir, 'graphql.ts')]: { plugins: ['typescript', 'typescript-operations'], config: { onlyOperationTypes: true } } },
        silent: true,
      },
      true,
    );
    const types = readFileSync(join(dir, 'graphql.ts'), 'utf8');
    expect(types).toContain('export type PostsQuery');
    writeFileSync(join(dir, 'program.ts'), PROGRAM);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], skipLibCheck: false, outDir: 'out' }, files: ['program.ts', 'graphql.ts'] }),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    execFileSync(process.execPath, [join(process.cwd(), 'node_modules/typescript/bin/tsc'), '-p', dir], { stdio: 'pipe' });
    // Not execFileSync: the app answers from this process's event loop.
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'out/program.js'), ref.url], { encoding: 'utf8' });
    expect(JSON.parse(stdout)).toEqual(['Notes on the Analytical Engine by Ada Lovelace', 'On Bernoulli numbers by Ada Lovelace']);
  }, 60_000);
});
