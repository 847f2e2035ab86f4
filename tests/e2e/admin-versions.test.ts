import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { where, type Row } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Issue 46 item 2 on the admin: a change form carries the version of the row it showed
 * (`_version`, the row's entity tag: its REST ETag); a save whose version is no longer the row's,
 * compared with the row read locked in the saving transaction, re-renders the form (412) with
 * both values of each differing field, the input kept and the new version, so that of racing
 * saves of one version exactly one is stored.
 */
const pgUp = await postgresAvailable();

const unescape = (text: string): string => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const versionOf = (page: string): string | undefined => {
  const m = /<input type="hidden" name="_version" value="([^"]*)">/.exec(page);
  return m?.[1] === undefined ? undefined : unescape(m[1]);
};
/** What the form shows in field `name`: an input's value or a textarea's text. */
const valueOf = (page: string, name: string): string | undefined => {
  const m = new RegExp(`name="${name}"[^>]* value="([^"]*)"`).exec(page) ?? new RegExp(`<textarea [^>]*name="${name}"[^>]*>([^<]*)</textarea>`).exec(page);
  return m?.[1] === undefined ? undefined : unescape(m[1]);
};

function versionSuite(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  let root: HttpClient;
  let csrf = '';
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    root = new HttpClient(ref.url);
    expect((await root.form('/auth/login', { username: 'root', password: 'root-password-1' })).status).toBe(303);
    csrf = await root.csrf();
  });
  afterAll(async () => ref?.close());

  const save = (id: number, fields: Record<string, string>) => root.form(`/admin/comment/${id}`, fields, { csrf });
  const open = async (id: number): Promise<{ text: string; version: string }> => {
    const res = await root.request(`/admin/comment/${id}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const version = versionOf(text);
    expect(version).toBeDefined();
    return { text, version: version as string };
  };
  const newComment = async (body: string, votes: number): Promise<number> => {
    const row = await ref.app.store.insert('comment', { post_id: 1, body, votes, moderation_note: 'first note' });
    return Number(row.id);
  };
  const audits = async (id: number) => ref.app.store.count('admin_audit_log', where.all(where.eq('table_name', 'comment'), where.eq('row_id', String(id))));

  it('the change form carries the version of the row it shows: its REST ETag', async () => {
    const id = await newComment('versioned', 1);
    const { version } = await open(id);
    expect(version).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect((await ref.get(`/api/comment/${id}`)).headers.get('etag')).toBe(version);
    // The add form shows no row: no version.
    expect(versionOf(await (await root.request('/admin/comment/add')).text())).toBeUndefined();
  });

  it('a save carrying the current version is stored, and the form then shows the new version', async () => {
    const id = await newComment('current', 1);
    const { version } = await open(id);
    const res = await save(id, { post_id: '1', body: 'current, changed', votes: '2', moderation_note: 'first note', _version: version });
    expect(res.status).toBe(303);
    expect((await ref.app.store.getById('comment', id))?.body).toBe('current, changed');
    const after = await open(id);
    expect(after.version).not.toBe(version);
    expect((await ref.get(`/api/comment/${id}`)).headers.get('etag')).toBe(after.version);
  });

  it('a stale version re-renders the form (412): the message, both values of each differing field, the input kept, the new version; nothing written', async () => {
    const id = await newComment('before', 1);
    const opened = await open(id);
    // Someone else changes the row after the form was opened.
    await ref.app.store.update('comment', id, { body: 'theirs', votes: 7 });
    const auditsBefore = await audits(id);
    const res = await save(id, { post_id: '1', body: 'mine', votes: '5', moderation_note: 'first note', _version: opened.version });
    expect(res.status).toBe(412);
    const text = await res.text();
    expect(text).toContain('changed by someone else since you opened it');
    const conflict = /<div class="flash error" role="alert" id="conflict">(.*?)<\/div>/s.exec(text)?.[1] ?? '';
    expect(conflict).toContain('<tr><th scope="row">body</th><td>mine</td><td>theirs</td></tr>');
    expect(conflict).toContain('<tr><th scope="row">votes</th><td>5</td><td>7</td></tr>');
    // A field posted as it is stored is not listed.
    expect(conflict).not.toContain('moderation_note');
    // The input is kept in the form.
    expect(valueOf(text, 'body')).toBe('mine');
    expect(valueOf(text, 'votes')).toBe('5');
    // Nothing was written, no history row.
    expect(await ref.app.store.getById('comment', id)).toMatchObject({ body: 'theirs', votes: 7 });
    expect(await audits(id)).toBe(auditsBefore);
    // The hidden field carries the version of the row as it is now: saving again (deliberately) stores the input.
    const fresh = versionOf(text) as string;
    expect(fresh).not.toBe(opened.version);
    expect((await ref.get(`/api/comment/${id}`)).headers.get('etag')).toBe(fresh);
    const again = await save(id, { post_id: '1', body: 'mine', votes: '5', moderation_note: 'first note', _version: fresh });
    expect(again.status).toBe(303);
    expect(await ref.app.store.getById('comment', id)).toMatchObject({ body: 'mine', votes: 5 });
    expect(await audits(id)).toBe(auditsBefore + 1);
  });

  it('refused input re-renders the form (400) with the version first posted, not the row\'s newer one', async () => {
    const id = await newComment('kept version', 1);
    const opened = await open(id);
    await ref.app.store.update('comment', id, { votes: 9 });
    const res = await save(id, { post_id: '1', body: 'x', votes: 'many', moderation_note: '', _version: opened.version });
    expect(res.status).toBe(400);
    expect(versionOf(await res.text())).toBe(opened.version);
    // Fixing the input then meets the change made meanwhile.
    expect((await save(id, { post_id: '1', body: 'x', votes: '1', moderation_note: '', _version: opened.version })).status).toBe(412);
  });

  it('a save without a version (an older form, a script) is not compared', async () => {
    const id = await newComment('unversioned', 1);
    await ref.app.store.update('comment', id, { votes: 2 });
    expect((await save(id, { post_id: '1', body: 'unversioned, changed', votes: '3', moderation_note: '' })).status).toBe(303);
    expect(await ref.app.store.getById('comment', id)).toMatchObject({ body: 'unversioned, changed', votes: 3 });
  });

  it('ten concurrent saves of one row carrying the same version: exactly one stored, nine re-rendered (412)', async () => {
    const id = 1;
    const before = (await ref.app.store.getById('comment', id)) as Row;
    expect(before.votes).toBe(3);
    const { version } = await open(id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => save(id, { post_id: '1', body: `racer ${i}`, votes: String(Number(before.votes) + 1), moderation_note: String(before.moderation_note ?? ''), _version: version })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([303, 412, 412, 412, 412, 412, 412, 412, 412, 412]);
    const texts = await Promise.all(answers.map((a) => a.text()));
    for (const [i, a] of answers.entries()) if (a.status === 412) expect(texts[i]).toContain('changed by someone else since you opened it');
    const row = (await ref.app.store.getById('comment', id)) as Row;
    expect(row.votes).toBe(4);
    const winner = answers.findIndex((a) => a.status === 303);
    expect(row.body).toBe(`racer ${winner}`);
    expect(await audits(id)).toBe(1);
  });
}

describe('admin versions: SQLite', () => versionSuite('sqlite'));
describe.skipIf(!pgUp)('admin versions: PostgreSQL', () => versionSuite('postgresql'));
