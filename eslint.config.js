// ESLint flat config. The layer rule of DESIGN.md §2 lives here: a violation fails `npm test`.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const FRAMEWORKS = ['koa', '@koa/*', 'graphql', 'graphql-*', '@mikro-orm/*', 'inversify', 'reflect-metadata', 'pino', 'nodemailer', 'ws', 'raw-body', '@node-rs/*', 'knex', 'pg', 'sqlite3'];
// The packages by name (and their subpaths), never a relative path: `../../domain/graphql/cursor.js` is Portico's own module.
const frameworkImport = `^(${FRAMEWORKS.map((name) => name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('*', '[^/]+')).join('|')})(/.*)?$`;
const layer = (forbiddenDirs, message) => ({
  patterns: [
    { group: forbiddenDirs.flatMap((d) => [`**/${d}/**`, `**/${d}`]), message },
    { regex: frameworkImport, message: 'the hexagon core imports no framework (DESIGN.md §2)' },
  ],
});

// Every adapter is a folder of src/adapters, read here so that a new one is covered by the rule below.
const ADAPTERS = readdirSync(new URL('./src/adapters/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A relative import that climbs into one of `adapters` (`../persistence/x.js`, `../../adapters/events/x.js`).
const intoAdapters = (adapters) => `^(\\.\\./)+(adapters/)?(${adapters.map(escape).join('|')})/`;
/** What a file of the adapter `own` (every adapter when undefined) may not import. */
const adapterImports = (own) => ({
  patterns: [
    { group: ['**/composition/**', '**/cli/**'], message: 'adapters never import the composition root (DESIGN.md §2)' },
    { group: ['inversify'], message: 'only src/composition imports inversify (DESIGN.md §2)' },
    {
      regex: intoAdapters(ADAPTERS.filter((name) => name !== own)),
      message: 'adapters do not import other adapters; wire them in src/composition (DESIGN.md §2)',
    },
  ],
});

export default tseslint.config(
  { ignores: ['.scratch/**', 'tests/fixtures/**', 'dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'bench/.tmp/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', performance: 'readonly', URL: 'readonly', structuredClone: 'readonly', NodeJS: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', layer(['application', 'ports', 'adapters', 'composition', 'cli'], 'domain imports only domain (DESIGN.md §2)')],
    },
  },
  {
    files: ['src/ports/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', layer(['application', 'adapters', 'composition', 'cli'], 'ports import only domain (DESIGN.md §2)')],
    },
  },
  {
    files: ['src/application/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', layer(['adapters', 'composition', 'cli'], 'application imports only domain and ports (DESIGN.md §2)')],
    },
  },
  {
    files: ['src/adapters/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', adapterImports(undefined)] },
  },
  // One block per adapter: its own folder is the one it may import from.
  ...ADAPTERS.map((name) => ({
    files: [`src/adapters/${name}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', adapterImports(name)] },
  })),
  {
    files: ['src/composition/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // The package itself or any of its subpaths (graphql-ws/use/ws, ws/lib/…); a relative './ws' is not matched.
              regex: '^(graphql-http|graphql-sse|graphql-ws|ws|ioredis)(/.*)?$',
              message: 'transports and clients are set up in their adapters, composition only connects them (DESIGN.md §2)',
            },
            {
              // Node's server and socket modules, with or without the `node:` prefix and any subpath (node:stream/promises).
              regex: '^(node:)?(http|https|http2|net|tls|stream)(/.*)?$',
              message: 'the Node HTTP server lives in src/adapters/http-koa/node; composition only wires it (DESIGN.md §2)',
            },
            {
              // Any http-koa module but its entry (`../adapters/http-koa/index.js`).
              regex: '^(\\.\\./)+adapters/http-koa/(?!index\\.js$)',
              message: 'composition imports the HTTP adapter through its entry, src/adapters/http-koa/index.ts (DESIGN.md §2)',
            },
          ],
        },
      ],
    },
  },
  {
    // A function longer than this is split into named phases. IIFEs are not reported on their own (the rule's
    // default), but their lines still count toward the function that contains them.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
);
