#!/usr/bin/env node
/**
 * `npm run test:newest-patches`: the contract suite (tests/contract) against the newest patch
 * releases the registry serves, not the locked ones. A patch release of pg or knex must not change
 * Portico's behaviour; this is the run that would show it.
 *
 * 1. Copies the working tree (tracked and new files, not node_modules) to a temporary folder.
 * 2. Asks the registry for the newest pg and knex in the patch range of the locked ones
 *    (`~<locked>`), and pins them there (`dependencies` and `overrides`: knex is pinned by
 *    @mikro-orm/knex). Without the lock file, every other package resolves afresh within its
 *    declared range too.
 * 3. Installs without install scripts and copies sqlite3's native build from this checkout (the
 *    registry serves no prebuilt binary here, and compiling takes minutes).
 * 4. Runs the contract project there, with PORTICO_EXPECT_PG / PORTICO_EXPECT_KNEX set: the
 *    versions test fails unless the run loaded exactly those, and prints the versions it ran on.
 *
 * Environment: passed through to vitest (PORTICO_REQUIRE_PG, PORTICO_REQUIRE_REDIS, PORTICO_TEST_PG).
 * Exits with vitest's status; the temporary folder is removed either way.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const lockedVersion = (name, from = root) => JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')).version;

/** The newest version the registry serves within `range`. */
function newest(name, range) {
  const out = execFileSync(npm, ['view', `${name}@${range}`, 'version', '--json'], { encoding: 'utf8' });
  const versions = [JSON.parse(out)].flat();
  if (versions.length === 0) throw new Error(`the registry serves no ${name}@${range}`);
  return versions.at(-1);
}

const locked = { pg: lockedVersion('pg'), knex: lockedVersion('knex') };
const target = { pg: newest('pg', `~${locked.pg}`), knex: newest('knex', `~${locked.knex}`) };
process.stdout.write(`newest patches: pg ${target.pg} (locked ${locked.pg}), knex ${target.knex} (locked ${locked.knex})\n`);

const work = mkdtempSync(join(tmpdir(), 'portico-patches-'));
let status = 1;
try {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(work, file)), { recursive: true });
    try {
      cpSync(join(root, file), join(work, file));
    } catch (error) {
      if (error.code !== 'ENOENT') throw error; // a tracked file deleted in the working tree
    }
  }
  const manifest = JSON.parse(readFileSync(join(work, 'package.json'), 'utf8'));
  manifest.dependencies.pg = target.pg;
  manifest.overrides = { ...manifest.overrides, pg: target.pg, knex: target.knex };
  writeFileSync(join(work, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(join(work, 'package-lock.json'), { force: true });

  execFileSync(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: work, stdio: 'inherit' });
  if (lockedVersion('sqlite3', work) !== lockedVersion('sqlite3')) throw new Error('sqlite3 resolved to another version than this checkout holds: its native build cannot be copied');
  cpSync(join(root, 'node_modules/sqlite3/build'), join(work, 'node_modules/sqlite3/build'), { recursive: true });

  const run = spawnSync(npm, ['exec', '--', 'vitest', 'run', '--project', 'contract'], {
    cwd: work,
    stdio: 'inherit',
    env: { ...process.env, PORTICO_EXPECT_PG: target.pg, PORTICO_EXPECT_KNEX: target.knex },
  });
  status = run.status ?? 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`contract suite on pg ${target.pg}, knex ${target.knex}: ${status === 0 ? 'passed' : 'FAILED'}\n`);
process.exit(status);
