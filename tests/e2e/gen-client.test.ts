import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, paginate } from '../../examples/reference/client/api.js';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { ROOT, runNode } from '../support/spawn-node.js';

/**
 * Issue 49, "a generated client": `portico gen-client` writes the reference app's typed client
 * (`examples/reference/client/api.ts`, checked in); CI regenerates it and diffs, compiles it under
 * the strictest settings, and runs a program against the app on SQLite and PostgreSQL.
 */
const CHECKED_IN = join(ROOT, 'examples/reference/client/api.ts');
const CLI = ['dist/src/cli/portico.js', 'gen-client', '--app', 'dist/examples/reference/app.js', '--db', 'sqlite::memory:'];
const pg = await postgresAvailable();

describe('portico gen-client on the reference app', () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'portico-gen-client-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the checked-in client again byte for byte, and --check tells a stale file', async () => {
    const out = join(dir, 'api.ts');
    const written = await runNode([...CLI, '--out', out]);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(CHECKED_IN, 'utf8'));
    expect((await runNode([...CLI, '--out', CHECKED_IN, '--check'])).code).toBe(0);
    writeFileSync(out, readFileSync(CHECKED_IN, 'utf8').replace('title: string;', 'titel: string;'));
    const stale = await runNode([...CLI, '--out', out, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(/differs from the client of the app's current REST surface; run portico gen-client/);
  });

  it('refuses a missing --out with the usage (exit 2)', async () => {
    const done = await runNode(CLI);
    expect(done.code).toBe(2);
    expect(done.stderr).toMatch(/gen-client needs --out <file>/);
  });

  it('compiles under strict settings with every strictness flag and no DOM library, importing nothing', () => {
    const source = readFileSync(CHECKED_IN, 'utf8');
    expect(source).not.toMatch(/^import /m);
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noPropertyAccessFromIndexSignature: true,
      noImplicitOverride: true,
      noImplicitReturns: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      verbatimModuleSyntax: true,
      isolatedModules: true,
      skipLibCheck: false,
      noEmit: true,
      types: [],
    };
    const file = join(dir, 'strict', 'api.mts');
    const host = ts.createCompilerHost(options);
    const read = host.readFile.bind(host);
    host.readFile = (name) => (name === file ? source : read(name));
    const exists = host.fileExists.bind(host);
    host.fileExists = (name) => name === file || exists(name);
    const program = ts.createProgram([file], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});

describe.each<'sqlite' | 'postgresql'>(['sqlite', ...(pg ? (['postgresql'] as const) : [])])('the generated client against the reference app on %s', (backend) => {
  let ref: RunningReference;
  beforeAll(async () => void (ref = await startReference(backend)), 60_000);
  afterAll(() => ref?.close());

  it('runs a compiled program: bearer login, typed include and fields, Idempotency-Key, If-Match, pagination, problems', async () => {
    const done = await runNode(['dist/examples/reference/client/demo.js', ref.url], 60_000);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({
      authors: ['Notes on the Analytical Engine by Ada Lovelace', 'On Bernoulli numbers by Ada Lovelace'],
      titled: ['Notes on the Analytical Engine'],
      created: 201,
      replayed: 'true',
      sameRow: true,
      changed: 'Demo, changed',
      stale: '412 precondition_failed',
      walked: 4,
      count: 4,
      published: true,
      invalid: '400 foreign_key_violation',
    });
  });

  it('a cookie session sends X-CSRF-Token on writes; without it the write is refused and nothing is written', async () => {
    const browser = new HttpClient(ref.url);
    const login = await browser.form('/auth/login', { username: 'alice', password: 'alice-password-1' });
    expect(login.status).toBe(303);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = browser.cookies.get('portico_csrf');
    expect(csrf).toBeDefined();

    const withoutCsrf = createClient({ baseUrl: ref.url, headers: { cookie } });
    const refused = await withoutCsrf.createTag({ id: 'no-csrf', label: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
    expect((refused as ApiError).code).toBe('csrf_failed');
    // Reads need no CSRF token; the refused write left nothing.
    await expect(withoutCsrf.retrieveTag('no-csrf')).rejects.toMatchObject({ status: 404, problem: { code: 'not_found' } });

    const session = createClient({ baseUrl: ref.url, headers: { cookie }, csrfToken: () => csrf });
    const created = await session.createTag({ id: 'with-csrf', label: 'x' });
    expect(created.status).toBe(201);
    expect(created.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    // The session is alice's: a post written through it is hers (the server sets created_by_id).
    const { user } = (await (await fetch(`${ref.url}/api/auth/me`, { headers: { cookie } })).json()) as { user: { id: number } };
    const { data: post } = await session.createPost({ title: 'By session', author_id: 1 });
    expect(post.created_by_id).toBe(user.id);
  });

  it('uploads a file with a FormData body (a session: the CSRF header), and answers the typed file', async () => {
    const browser = new HttpClient(ref.url);
    expect((await browser.form('/auth/login', { username: 'alice', password: 'alice-password-1' })).status).toBe(303);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const session = createClient({ baseUrl: ref.url, headers: { cookie }, csrfToken: () => browser.cookies.get('portico_csrf') });
    const form = new FormData();
    form.append('post_id', '1');
    form.append('file', new Blob(['plain notes\n']), 'notes.txt');
    const { status, data } = await session.createAttachment(form);
    expect(status).toBe(201);
    expect(data.file).toMatchObject({ name: 'notes.txt', size: 12, content_type: 'text/plain' });
    expect(await (await fetch(`${ref.url}${data.file.url}`)).text()).toBe('plain notes\n');
  });

  it('answers problems as ApiError with the typed code: anonymous 401, unknown include refused by the type and by the server', async () => {
    const anonymous = createClient({ baseUrl: ref.url });
    await expect(anonymous.listPost()).rejects.toMatchObject({ status: 401, code: 'not_authenticated' });
    const { token } = (await (await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bob', password: 'bob-password-1' }) })).json()) as { token: string };
    const api = createClient({ baseUrl: ref.url, token: () => token });
    // @ts-expect-error -- `posts` is not a relation of post: the client's types refuse it, as the server does.
    await expect(api.listPost({ include: ['posts'] })).rejects.toMatchObject({ status: 400, code: 'invalid_query' });
    // @ts-expect-error -- `nope` is no column of post.
    await expect(api.listPost({ fields: ['id', 'nope'] })).rejects.toMatchObject({ status: 400 });
    const { data } = await api.retrieveComment(1, { include: ['post.author'] });
    expect(data.post?.title).toBe('Notes on the Analytical Engine');
    expect(data.post?.author?.name).toBe('Ada Lovelace');
    const rows: string[] = [];
    for await (const m of paginate((w) => api.listMilestone(1, { ...w, ordering: ['id'] }), 1)) rows.push(m.title);
    expect(rows).toHaveLength(2);
  });
});
