import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, hooks, where, type Row } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

/**
 * Issue 45 "Hooks inside the transaction, work after the commit": a hook on `comment` enqueues a
 * job in the writing transaction, writes a row with `ctx.tx` (the pattern that waited 5 s on
 * SQLite when it used the app's store), and publishes after the commit. A write refused after the
 * hook ran (the same hook vetoes a body) leaves no job, no row and no publication, on REST,
 * GraphQL and the admin.
 */
function hookSuite(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  const ran: unknown[] = [];
  const published: unknown[] = [];
  const callers: (string | null)[] = [];
  let root: HttpClient;
  let token: string;
  /** A REST create as root, by bearer token (a session-cookie write would need the CSRF header). */
  const createComment = (body: string) =>
    fetch(`${ref.url}/api/comment/`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ post_id: 1, body }) });

  beforeAll(async () => {
    ref = await startReference(backend, {
      env: { THROTTLE: 'off' },
      defineTasks: (plugin) => plugin.define<{ id: number }>('comment_noted', ({ id }) => void ran.push(id)),
      plugins: [
        hooks()
          .afterSave('comment', async (row, ctx) => {
            if (!ctx.created) return;
            callers.push(ctx.caller?.isAuthenticated ? String(ctx.caller.username) : null);
            const id = row.id ?? null;
            await ctx.enqueue('comment_noted', { id });
            // A write of the hook's own, in the same transaction.
            await ctx.tx.insert('reply', { comment_id: id, body: `auto reply to ${String(id)}` });
            await ctx.publish('comment.noted', { id });
            await ctx.onCommit(() => void published.push(`committed ${String(id)}`));
            if (row.body === 'veto') throw new DomainError('invalid_input', 'comment refused by a hook');
          }),
      ],
    });
    ref.app.events.subscribe('comment.noted', (payload) => void published.push(payload));
    root = new HttpClient(ref.url);
    expect((await root.form('/auth/login', { username: 'root', password: 'root-password-1' })).status).toBe(303);
    const login = await fetch(`${ref.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'root', password: 'root-password-1' }) });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { token: string }).token;
  });
  afterAll(async () => ref?.close());

  const jobsFor = async (id: unknown) => (await ref.app.store.find('task_row', { where: where.eq('name', 'comment_noted') })).filter((j) => (j.payload as { id?: unknown } | null)?.id === id);
  const repliesTo = async (id: unknown) => ref.app.store.find('reply', { where: where.eq('comment_id', id as number) });
  /** Waits (bounded) until the in-process worker has run the job for `id`; fails the test otherwise. */
  const ranFor = async (id: unknown) => {
    for (let i = 0; i < 400 && !ran.includes(id); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    return ran.includes(id);
  };
  const commentCount = async () => (await ref.app.store.find('comment')).length;

  it('REST: the job is written with the row and runs after the commit; the hook wrote with ctx.tx and saw the caller', async () => {
    const res = await createComment('hello');
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as Row;
    expect(await jobsFor(id)).toHaveLength(1);
    expect(await ranFor(id)).toBe(true);
    expect((await repliesTo(id)).map((r) => r.body)).toEqual([`auto reply to ${String(id)}`]);
    expect(published).toEqual(expect.arrayContaining([{ id }, `committed ${String(id)}`]));
    expect(callers.at(-1)).toBe('root');
  });

  it('REST: a write refused after the hook enqueued leaves no job, no reply, no publication', async () => {
    const before = { comments: await commentCount(), jobs: (await ref.app.store.find('task_row', { where: where.eq('name', 'comment_noted') })).length, published: published.length };
    const res = await createComment('veto');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe('comment refused by a hook');
    expect({ comments: await commentCount(), jobs: (await ref.app.store.find('task_row', { where: where.eq('name', 'comment_noted') })).length, published: published.length }).toEqual(before);
    expect((await ref.app.store.find('reply')).filter((r) => String(r.body).startsWith('auto reply'))).toHaveLength((await ref.app.store.find('task_row', { where: where.eq('name', 'comment_noted') })).length);
  });

  it('GraphQL: the same, through createComment', async () => {
    const mutate = (body: string) =>
      root.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation($d: CommentInput!) { createComment(data: $d) { id } }', variables: { d: { post_id: '1', body } } }) });
    const ok = (await (await mutate('from graphql')).json()) as { data: { createComment: { id: string } } };
    const id = Number(ok.data.createComment.id);
    expect(await jobsFor(id)).toHaveLength(1);
    expect(await ranFor(id)).toBe(true);
    const before = await commentCount();
    const refused = (await (await mutate('veto')).json()) as { errors?: { message: string }[]; data: unknown };
    expect(refused.errors?.[0]?.message).toBe('comment refused by a hook');
    expect(await commentCount()).toBe(before);
  });

  it('admin: the same, through the add form', async () => {
    const added = await root.form('/admin/comment/add', { post_id: '1', body: 'from the admin', votes: '0' });
    expect(added.status).toBe(303);
    const id = Number(/\/admin\/comment\/(\d+)/.exec(added.headers.get('location') ?? '')?.[1]);
    expect(await jobsFor(id)).toHaveLength(1);
    expect(await ranFor(id)).toBe(true);
    const before = { comments: await commentCount(), jobs: (await ref.app.store.find('task_row', { where: where.eq('name', 'comment_noted') })).length };
    const refused = await root.form('/admin/comment/add', { post_id: '1', body: 'veto', votes: '0' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('comment refused by a hook');
    expect({ comments: await commentCount(), jobs: (await ref.app.store.find('task_row', { where: where.eq('name', 'comment_noted') })).length }).toEqual(before);
  });

  it('a hook on a table no model has is an error at start naming it', async () => {
    const app = (await import('../../src/index.js')).createApp({ database: 'memory:', logRequests: false }).use(hooks().afterSave('nope', () => undefined));
    await expect(app.start()).rejects.toThrow("hooks: afterSave('nope') names no registered model");
    await app.close();
  });
}

describe('model hooks on SQLite', () => hookSuite('sqlite'));
describe.skipIf(!pg)('model hooks on PostgreSQL', () => hookSuite('postgresql'));
