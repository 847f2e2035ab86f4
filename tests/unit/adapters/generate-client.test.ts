import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../../src/adapters/openapi/build-openapi-document.js';
import { generateClient } from '../../../src/adapters/openapi/generate-client.js';

/** The diagnostics of `source` (and of `use`, a module importing it as ./api.js) under strict settings. */
function compile(source: string, use = ''): string[] {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noUnusedLocals: true, noEmit: true, types: [] };
  const files = new Map([['/virtual/api.ts', source], ['/virtual/use.ts', use]]);
  const host = ts.createCompilerHost(options);
  const { readFile, fileExists, getSourceFile } = host;
  host.fileExists = (p) => files.has(p) || fileExists.call(host, p);
  host.readFile = (p) => files.get(p) ?? readFile.call(host, p);
  host.directoryExists = (d) => d === '/virtual' || ts.sys.directoryExists(d);
  host.getSourceFile = (p, language, onError, create) => {
    const text = files.get(p);
    return text !== undefined ? ts.createSourceFile(p, text, language) : getSourceFile.call(host, p, language, onError, create);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

const doc = {
  openapi: '3.1.0',
  info: { title: 'Edge API', version: '2.0.0' },
  servers: [{ url: '/', description: '' }],
  tags: [],
  paths: {
    '/api/page/{parent_id}/entry/{id}': {
      parameters: [
        { name: 'parent_id', in: 'path', required: true, schema: { type: 'integer' } },
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      ],
      get: {
        operationId: 'retrieveEntry',
        parameters: [{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } } },
      },
      delete: { operationId: 'delete', responses: { '204': { description: '' } } },
    },
  },
  components: {
    schemas: {
      Page: {
        type: 'object',
        description: 'A row of the `page` table; a comment end */ stays inside',
        properties: { id: { type: 'string' }, 'odd-name': { type: ['string', 'null'], enum: ['a', 'b'] }, meta: {}, extra: { type: 'object' } },
        'x-portico-columns': ['id', 'odd-name', 'meta'],
      },
      Problem: { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: ['not_found'] }, detail: { type: 'string' } } },
    },
    responses: {},
    parameters: {},
    securitySchemes: {},
  },
} as unknown as OpenApiDocument;

describe('generateClient', () => {
  const source = generateClient(doc);

  it('names a schema that clashes with the runtime apart, quotes odd keys, and compiles under strict settings', () => {
    expect(source).toMatch(/export interface PageSchema \{/);
    expect(source).toMatch(/"odd-name": "a" \| "b" \| null;/);
    expect(source).toMatch(/meta: unknown;/);
    expect(source).toMatch(/extra\?: Record<string, unknown>;/);
    expect(source).toContain('comment end *\\/ stays inside');
    expect(compile(source)).toEqual([]);
  });

  it('takes path parameters in order, a required header as a required option, and escapes a reserved operation name', () => {
    const use = [
      "import { createClient } from './api.js';",
      "const api = createClient({ baseUrl: 'http://x' });",
      "export const a = api.retrieveEntry(1, 'two', { xTenant: 't' });",
      '// @ts-expect-error -- the X-Tenant header is required',
      "export const b = api.retrieveEntry(1, 'two');",
      "export const c = api.delete_(1, 'two');",
    ].join('\n');
    expect(compile(source, use)).toEqual([]);
    expect(source).toContain('`/api/page/${encodeURIComponent(String(parentId))}/entry/${encodeURIComponent(String(id))}`');
  });

  it('is the same text for the same document (a check in CI can diff it)', () => {
    expect(generateClient(doc)).toBe(source);
    expect(source.split('\n')[0]).toBe('// The REST client of Edge API 2.0.0, written by `portico gen-client` from its OpenAPI document.');
  });
});
