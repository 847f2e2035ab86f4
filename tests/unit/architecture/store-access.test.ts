import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The surfaces that read through use cases, never the store itself. */
const SURFACES = ['src/adapters/graphql', 'src/adapters/http-koa/admin'];

/** Files of those surfaces that may import the record-store port: none (GraphQL reads and writes through `GraphqlReads` and `GraphqlWrites` since issue 46). */
const ALLOWED = new Set<string>([]);

/** Every .ts file under `folder` (relative to the repository), recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative modules `file` imports or re-exports (static and dynamic), resolved to repository paths. */
function importsOf(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'));
}

/** The record-store and table-store ports, the record service, or a store: the persistence adapter's modules, any `*-record-store` or `*-table-store` module. */
const isStore = (module: string): boolean =>
  module === 'src/ports/record-store.ts' || module === 'src/ports/table-store.ts' || module.startsWith('src/application/records/') || module.startsWith('src/adapters/persistence/') || /(record|table)-store\.ts$/.test(module);

describe('store access', () => {
  it('reads the imports of these surfaces', () => {
    const files = SURFACES.flatMap(filesUnder);
    expect(files).toContain('src/adapters/graphql/loaders.ts');
    expect(files.some((f) => f.startsWith('src/adapters/http-koa/admin/'))).toBe(true);
    const sample = "import type { RecordStore } from '../../ports/record-store.js';\nexport { k } from './k.js';\nconst m = await import('../persistence/x.js');\nimport 'node:fs';\n";
    expect(importsOf('src/adapters/graphql/x.ts', sample)).toEqual(['src/ports/record-store.ts', 'src/adapters/graphql/k.ts', 'src/adapters/persistence/x.ts']);
    expect(['src/ports/table-store.ts', 'src/application/records/record-service.ts', 'src/adapters/persistence/x.ts'].every(isStore)).toBe(true);
    expect(isStore('src/adapters/graphql/k.ts')).toBe(false);
  });

  it('no file of the GraphQL adapter or the admin pages imports the record-store port or a store (but the allow-listed)', () => {
    const offenders = SURFACES.flatMap(filesUnder).filter((file) => !ALLOWED.has(file) && importsOf(file).some(isStore));
    expect(offenders).toEqual([]);
  });

  it('every backend implements the table-store port itself: no store subclasses a class carrying the record rules', () => {
    const stores = filesUnder('src/adapters/persistence').filter((file) => /table-store\.ts$/.test(file));
    expect(stores.sort()).toEqual(['src/adapters/persistence/memory/memory-table-store.ts', 'src/adapters/persistence/sql/sql-table-store.ts']);
    for (const file of stores) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).toMatch(/export class \w+ implements TableStore \{/);
      expect(text, file).not.toMatch(/\bextends\b/);
    }
    // The rules live above the port, in application: no persistence module declares an abstract base.
    const abstracts = filesUnder('src/adapters/persistence').filter((file) => /\babstract class\b/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(abstracts).toEqual([]);
  });
});
