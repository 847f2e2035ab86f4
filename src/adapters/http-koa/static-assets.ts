import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** One file served from an installed npm package (never a CDN). */
export interface PackageAsset {
  readonly name: string;
  readonly type: string;
  readonly body: Buffer;
}

/** Reads `file` of installed package `pkg` once, for serving with `type`. */
export function packageAsset(pkg: string, file: string, type: string, name = file.split('/').pop() as string): PackageAsset {
  const root = dirname(require.resolve(`${pkg}/package.json`));
  return { name, type, body: readFileSync(join(root, file)) };
}

/** The packages of `names` that are not installed (optional peers a devtool needs). */
export function missingPackages(names: readonly string[]): string[] {
  return names.filter((name) => {
    try {
      require.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
}
