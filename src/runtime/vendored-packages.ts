import { fileURLToPath } from 'node:url';
import { requireBundle } from './code-cached-bundle.js';

/**
 * Set by `scripts/bundle.mjs` in the built package: the path, relative to the bundled entry, of
 * the CommonJS packages Portico loads at start bundled into one file (`dist/src/vendor.cjs`).
 * Undefined when Portico runs from its sources (tests, tsx), which import the packages themselves.
 */
declare const PORTICO_VENDOR_BUNDLE: string | undefined;

let packages: Readonly<Record<string, unknown>> | undefined;

/**
 * A package of the vendored bundle, by name (`'koa'`, `'pino'`, …). In the built package the
 * bundler resolves every import of such a package to a module that calls this, so the whole set
 * loads as one file through V8's code cache (`code-cached-bundle.ts`, docs/decisions.md, "Start
 * packages bundled, with V8's code cache"); nothing in the sources calls it.
 */
export function vendoredPackage(name: string): unknown {
  if (typeof PORTICO_VENDOR_BUNDLE !== 'string') throw new Error(`vendoredPackage('${name}') is for the built package; the sources import the package`);
  packages ??= requireBundle(fileURLToPath(new URL(PORTICO_VENDOR_BUNDLE, import.meta.url))) as Record<string, unknown>;
  if (!Object.hasOwn(packages, name)) throw new Error(`${name} is not in Portico's vendored bundle`);
  return packages[name];
}
