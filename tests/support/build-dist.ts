import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** e2e global setup: build dist/ as `npm run build` does, so tests that spawn `node dist/…` run the current code (the bundled entry included). */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/bundle.mjs'], { cwd: root, stdio: 'inherit' });
}
