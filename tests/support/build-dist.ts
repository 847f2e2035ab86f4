import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** e2e global setup: compile dist/ so tests that spawn `node dist/…` run the current code. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
