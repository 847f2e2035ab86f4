import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };

/** The environment of a fresh shell: nothing from the `npm test` that runs this file. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const run = (cmd: string, args: string[], cwd: string, timeout = 120_000): string =>
  execFileSync(cmd, args, { cwd, env: { ...cleanEnv, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });

interface PackResult {
  readonly filename: string;
  readonly files: readonly { path: string }[];
}

/**
 * Issue "a library a host app can adopt": the package as a host app gets it. It is packed, the
 * tarball is installed into a fresh folder with only its declared dependencies, and the host app
 * in tests/fixtures/host-app type-checks strictly, runs on SQLite and passes its own vitest suite
 * on the in-memory store.
 */
describe('the package, packed and installed into a fresh host app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portico-host-'));
  const host = join(dir, 'host');
  let packed: PackResult;
  let report: { status: number | null; stderr: string };

  beforeAll(() => {
    // The shipped declarations and the API report check, from the build globalSetup made.
    const checked = spawnSync(process.execPath, ['scripts/api-report.mjs'], { cwd: root, env: cleanEnv, encoding: 'utf8', timeout: 120_000 });
    report = { status: checked.status, stderr: `${checked.stdout}\n${checked.stderr}` };
    packed = (JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root)) as PackResult[])[0] as PackResult;
    cpSync(join(root, 'tests/fixtures/host-app'), host, { recursive: true });
    const versions = (...names: string[]) => Object.fromEntries(names.map((n) => [n, pkg.devDependencies[n]]));
    writeFileSync(
      join(host, 'package.json'),
      JSON.stringify({
        name: 'host-app',
        private: true,
        type: 'module',
        dependencies: { portico: `file:${join(dir, packed.filename)}`, ...versions('graphql') },
        devDependencies: versions('typescript', 'vitest', '@types/node'),
      }),
    );
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], host, 240_000);
    // The one native module that compiles at install: the same version this repository built (saves a minute of node-gyp).
    cpSync(join(root, 'node_modules/sqlite3/build'), join(host, 'node_modules/sqlite3/build'), { recursive: true });
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the public surface recorded in api/*.api.md (run `npm run api:update` and commit the diff after a deliberate change)', () => {
    expect(report.stderr).not.toMatch(/does not match|failed/);
    expect(report.status).toBe(0);
  });

  it("holds only built code (Portico's own main entry as one module with its source map, portico/testing and the CLI), its declarations, README and LICENSE: no other package bundled", () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths.filter((p) => /\.c?js$/.test(p)).sort()).toEqual(['bin/portico.js', 'dist/src/cli/portico.js', 'dist/src/index.js', 'dist/src/testing.js']);
    expect(paths).toContain('dist/src/index.js.map');
    expect(paths.filter((p) => !/^(dist\/src\/.+\.js(\.map)?|dist\/(portico|testing)\.d\.ts|bin\/portico\.js|README\.md|LICENSE|package\.json)$/.test(p))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['dist/src/index.js', 'dist/src/testing.js', 'dist/portico.d.ts', 'dist/testing.d.ts', 'LICENSE']));
  });

  it('declares the packages it runs: the host installs koa, @koa/router, raw-body, pino, inversify and reflect-metadata from the registry as dependencies', () => {
    for (const name of ['koa', '@koa/router', 'raw-body', 'pino', 'inversify', 'reflect-metadata']) {
      expect({ name, installed: existsSync(join(host, 'node_modules', name, 'package.json')) }).toEqual({ name, installed: true });
    }
  });

  it('type-checks in the host with tsc --strict and skipLibCheck false (no devDependency of Portico needed)', () => {
    expect(JSON.parse(readFileSync(join(host, 'tsconfig.json'), 'utf8')).compilerOptions).toMatchObject({ strict: true, skipLibCheck: false });
    run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], host);
  });

  it('starts a two-model app on SQLite that answers REST and GraphQL, writes a nested tree from code, serves a static and a stored file', () => {
    const out = JSON.parse(run(process.execPath, ['dist/src/main.js', `sqlite:${join(dir, 'library.db')}`], host).trim().split('\n').at(-1) ?? '{}');
    expect(out.rest.status).toBe(200);
    expect(out.rest.body.results.map((b: { title: string }) => b.title)).toEqual(['Dune', 'Emma']);
    expect(out.graphql).toEqual({ status: 200, body: { data: { books: [{ title: 'Dune', shelf: { name: 'Fiction' } }, { title: 'Emma', shelf: { name: 'Fiction' } }] } } });
    expect(out.created).toBe(201);
    expect(out.explorer.status === 200 && /html/.test(String(out.explorer.type))).toBe(false);
    expect(out.files).toEqual({ css: { status: 206, body: 'body' }, media: { status: 200, body: 'stored notes', disposition: 'attachment; filename="notes.txt"' } });
  });

  it('installs no devtool: GraphiQL, React and Swagger UI are optional peers the host did not ask for', () => {
    for (const name of ['graphiql', 'react', 'react-dom', 'swagger-ui-dist']) {
      expect({ name, installed: existsSync(join(host, 'node_modules', name, 'package.json')) }).toEqual({ name, installed: false });
    }
  });

  it('runs every portico command from the installed package against the host app found through portico.config.js', async () => {
    if (!existsSync(join(host, 'dist/src/bookshop.js'))) run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], host);
    const portico = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(join(host, 'node_modules/.bin/portico'), args, { cwd: host, env: { ...cleanEnv, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 120_000 });
    const ok = (args: string[], env: Record<string, string> = {}): string => {
      const out = portico(args, env);
      expect({ args, status: out.status, stderr: out.stderr }).toEqual({ args, status: 0, stderr: expect.not.stringMatching(/ERR_MODULE_NOT_FOUND|Error:/) });
      return out.stdout;
    };
    expect(ok(['--help'])).toMatch(/makemigrations[\s\S]*createsuperuser[\s\S]*worker/);
    expect(ok(['makemigrations'])).toMatch(/wrote .*migrations\/0001_initial\.js \(app_0001_initial\)/);
    // ./data does not exist: never created silently.
    expect(portico(['migrate']).stderr).toMatch(/^portico: the folder of the database at sqlite:\.\/data\/shop\.db does not exist/);
    expect(ok(['migrate', '--create-db'])).toContain('applied app_0001_initial');
    expect(ok(['showmigrations'])).toContain('[x] app_0001_initial');
    expect(ok(['makemigrations', '--rename', 'book.isbn=code', '--no-input'], { SHOP_V: '2' })).toMatch(/wrote .*0002_create_loan_rename_book_code/);
    expect(ok(['migrate'], { SHOP_V: '2' })).toMatch(/^applied app_0002_create_loan_rename_book_code/);
    expect(ok(['makemigrations', '--check'], { SHOP_V: '2' })).toContain('No changes detected.');

    const weak = portico(['createsuperuser', '--username', 'admin', '--email', 'admin@example.com', '--no-input'], { PORTICO_SUPERUSER_PASSWORD: '12345678' });
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/^portico: password /);
    expect(ok(['createsuperuser', '--username', 'admin', '--email', 'admin@example.com', '--no-input'], { PORTICO_SUPERUSER_PASSWORD: 'correct horse battery staple' })).toMatch(/^created superuser admin \(id \d+\)/);
    expect(ok(['clearsessions'])).toContain('removed 0 expired sessions');
    // The typed client of the host's REST surface, compiled with the host's own code (strict, skipLibCheck false).
    expect(ok(['gen-client', '--out', 'src/api.ts'], { SHOP_V: '2' })).toContain('wrote src/api.ts');
    expect(ok(['gen-client', '--out', 'src/api.ts', '--check'], { SHOP_V: '2' })).toContain('src/api.ts is up to date.');
    run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], host);
    expect(readFileSync(join(host, 'src/api.ts'), 'utf8')).toMatch(/export function createClient/);

    // The worker runs a job enqueued before it started, then stops on SIGTERM with exit 0.
    const touched = join(dir, 'touched');
    run(process.execPath, ['dist/src/enqueue.js', touched], host);
    const worker = spawn(join(host, 'node_modules/.bin/portico'), ['worker'], { cwd: host, env: { ...cleanEnv, LOG_LEVEL: 'silent', SHOP_V: '2' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => worker.on('exit', resolve));
    let stderr = '';
    worker.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    for (let i = 0; i < 600 && !existsSync(touched); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ touched: existsSync(touched), stderr }).toEqual({ touched: true, stderr: '' });
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 240_000);

  it("runs the host's own vitest suite on the in-memory store from portico/testing, GraphQL answering 200", () => {
    const out = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--dir', 'test'], host);
    expect(out).toMatch(/1 passed/);
  });
});
