import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, runNode } from '../support/spawn-node.js';

/**
 * The built package's bundled CommonJS files load through the V8 code caches `npm run build` wrote
 * beside them (src/runtime/code-cached-bundle.ts), in a fresh process as a host's start would.
 */
describe('the built bundles and their code caches', () => {
  it('V8 accepts the cache of knex.cjs and vendor.cjs in a fresh process, and the bundles load', async () => {
    const script = `
      import { requireBundle, cacheUse } from './dist/src/runtime/code-cached-bundle.js';
      const out = {};
      for (const name of ['knex.cjs', 'vendor.cjs']) {
        const file = process.cwd() + '/dist/src/' + name;
        const loaded = requireBundle(file);
        out[name] = { use: cacheUse(file), keys: Object.keys(name === 'knex.cjs' ? loaded.modules : loaded) };
      }
      console.log(JSON.stringify(out));
    `;
    // A plain start, as the build's cache is made for: V8 rejects a cache made under other flags.
    const r = await runNode(['--input-type=module', '-e', script], 30_000, { NODE_OPTIONS: '' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout.trim()) as Record<string, { use: string; keys: string[] }>;
    expect(out['knex.cjs']).toEqual({ use: 'accepted', keys: expect.arrayContaining(['knex']) });
    expect(out['vendor.cjs']).toEqual({ use: 'accepted', keys: ['reflect-metadata', 'koa', '@koa/router', 'raw-body', 'pino', 'inversify'] });
  });

  it('the bundles are ASCII (V8 keeps a source with one other character as UTF-16, twice the memory), and their licences ship beside them', () => {
    for (const name of ['knex.cjs', 'vendor.cjs']) {
      const source = readFileSync(join(ROOT, 'dist/src', name), 'utf8');
      expect({ name, outside: [...source].filter((c) => c.charCodeAt(0) > 0x7f).length }).toEqual({ name, outside: 0 });
    }
    const licences = readFileSync(join(ROOT, 'dist/src/bundled-licenses.txt'), 'utf8');
    for (const name of ['knex', 'lodash', 'koa', '@koa/router', 'raw-body', 'pino', 'inversify', 'reflect-metadata', '@mikro-orm/knex']) {
      expect(licences).toMatch(new RegExp(`^${name.replace('/', '\\/')}@\\d`, 'm'));
    }
  });

  it('the main entry imports none of the vendored packages: the bundler resolved them to vendor.cjs', () => {
    const entry = readFileSync(join(ROOT, 'dist/src/index.js'), 'utf8');
    const imported = [...entry.matchAll(/^import\s[^;]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gm)].map((m) => m[1] ?? m[2]);
    expect(imported.filter((name) => !name?.startsWith('node:'))).toEqual([]);
    expect(entry).toContain('vendoredPackage("koa")');
  });
});
