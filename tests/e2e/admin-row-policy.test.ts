import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, auth, c, createApp, defineModel, MemoryMailer, permissions, security, sessions, where, type PorticoApp, type Row, type Value } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';

/*
 * The admin applies the model's row policy (issue 46, item 0) to staff users who are not
 * superusers, on every read and write: index counts, the list, the change page, history, delete,
 * restore, the foreign-key and many-to-many choices. Superusers see every row.
 */

const pgUp = await postgresAvailable();
const password = (username: string) => `${username}-password-1`;

const notebook = defineModel('notebook', { id: c.id(), name: c.text(), owner_id: c.fk('auth_user') }, { ownedBy: 'owner_id' });
const label = defineModel('label', { id: c.id(), name: c.text(), owner_id: c.fk('auth_user') }, { ownedBy: 'owner_id' });
const note = defineModel(
  'note',
  { id: c.id(), title: c.text(), owner_id: c.fk('auth_user'), notebook_id: c.fk('notebook').nullable(), deleted_at: c.timestamp().nullable() },
  { ownedBy: 'owner_id', manyToMany: { labels: { target: 'label', through: 'note_labels' } } },
);

function rowPolicySuite(backend: 'sqlite' | 'postgresql') {
  const skip = backend === 'postgresql' && !pgUp;
  const test = backend === 'postgresql' ? it.skipIf(!pgUp) : it;
  let app: PorticoApp;
  let drop: (() => Promise<void>) | undefined;
  const clients: Record<string, HttpClient> = {};
  const ids: Record<string, Value> = {};

  beforeAll(async () => {
    if (skip) return;
    const schema = backend === 'postgresql' ? freshPgSchema() : undefined;
    drop = schema?.drop;
    const perms = permissions();
    app = createApp({ database: schema?.url ?? 'sqlite::memory:', models: [notebook, label, note], autoMigrate: true, logRequests: false, mailer: new MemoryMailer() })
      .use(sessions())
      .use(security())
      .use(auth({ throttle: false }))
      .use(perms)
      .use(admin());
    const { url } = await app.listen(0);
    const store = app.store;
    for (const [username, isSuperuser] of [['root', true], ['ann', false], ['ben', false]] as const) {
      const user = await store.insert('auth_user', { username, email: `${username}@example.com`, password_hash: await app.hasher.hash(password(username)), is_staff: true, is_superuser: isSuperuser, is_active: true, email_verified_at: new Date() });
      ids[username] = user.id ?? null;
    }
    for (const who of ['ann', 'ben']) {
      for (const table of ['note', 'notebook', 'label']) {
        for (const action of ['view', 'add', 'change', 'delete']) {
          await perms.grants().ensurePermission('app', table, `${action}_${table}`);
          await perms.grants().grantToUser(ids[who] ?? null, `app.${action}_${table}`);
        }
      }
    }
    const put = async (key: string, table: string, row: Row) => {
      ids[key] = (await store.insert(table, row)).id ?? null;
    };
    await put('annBook', 'notebook', { name: 'Ann book', owner_id: ids.ann ?? null });
    await put('annSpareBook', 'notebook', { name: 'Ann spare book', owner_id: ids.ann ?? null });
    await put('benBook', 'notebook', { name: 'Ben book', owner_id: ids.ben ?? null });
    await put('annLabel', 'label', { name: 'Ann label', owner_id: ids.ann ?? null });
    await put('benLabel', 'label', { name: 'Ben label', owner_id: ids.ben ?? null });
    await put('annNote', 'note', { title: 'Ann first note', owner_id: ids.ann ?? null, notebook_id: ids.annBook ?? null });
    await put('annNote2', 'note', { title: 'Ann second note', owner_id: ids.ann ?? null });
    await put('benNote', 'note', { title: 'Ben first note', owner_id: ids.ben ?? null, notebook_id: ids.benBook ?? null });
    await store.insert('note_labels', { note_id: ids.annNote ?? null, label_id: ids.annLabel ?? null });
    for (const who of ['root', 'ann', 'ben']) {
      const client = new HttpClient(url);
      const token = await client.csrf('/admin/login/');
      expect((await client.form('/admin/login/', { username: who, password: password(who) }, { csrf: token })).status).toBe(303);
      clients[who] = client;
    }
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  const as = (who: string) => clients[who] as HttpClient;
  const id = (key: string) => String(ids[key]);
  const page = async (who: string, path: string) => {
    const res = await as(who).request(path);
    return { status: res.status, text: await res.text() };
  };
  const post = async (who: string, path: string, fields: Record<string, string>) => as(who).form(path, fields, { csrf: await as(who).csrf('/admin/') });
  const stored = (table: string, key: string) => app.store.getById(table, ids[key] ?? null, { withDeleted: true });
  /** The row count the index shows for `table`. */
  const indexCount = (text: string, table: string) => new RegExp(`href="/admin/${table}">[^<]*</a></td><td>(\\d+)</td>`).exec(text)?.[1];

  test('the index counts only the caller\'s rows; the superuser\'s counts every row', async () => {
    const ben = await page('ben', '/admin/');
    expect(ben.status).toBe(200);
    expect(indexCount(ben.text, 'note')).toBe('1');
    expect(indexCount(ben.text, 'notebook')).toBe('1');
    expect(indexCount((await page('ann', '/admin/')).text, 'notebook')).toBe('2');
    const root = await page('root', '/admin/');
    expect(indexCount(root.text, 'note')).toBe('3');
    expect(indexCount(root.text, 'notebook')).toBe('3');
  });

  test('the list shows and counts only the caller\'s rows, with search, filters, ordering and pages', async () => {
    for (const query of ['', '?q=note', '?q=Ann', '?o=-title', '?o=title&p=1', `?owner_id=${id('ann')}`, `?notebook_id=${id('annBook')}`, '?deleted=1']) {
      const res = await page('ben', `/admin/note${query}`);
      expect(res.status, query).toBe(200);
      expect(res.text, query).not.toContain('Ann first note');
      expect(res.text, query).not.toContain('Ann second note');
    }
    const all = await page('ben', '/admin/note');
    expect(all.text).toContain('Ben first note');
    expect(all.text).toContain('Page 1 of 1 · 1 row');
    expect((await page('ben', '/admin/note?q=Ann')).text).toContain('· 0 rows');
    expect((await page('ben', `/admin/note?owner_id=${id('ann')}`)).text).toContain('· 0 rows');
    const ann = await page('ann', '/admin/note?o=-title');
    expect(ann.text).toContain('Page 1 of 1 · 2 rows');
    expect(ann.text).not.toContain('Ben first note');
  });

  test('another owner\'s row: its change page, history and delete confirmation answer 404', async () => {
    for (const path of [`/admin/note/${id('annNote')}`, `/admin/note/${id('annNote')}/history`, `/admin/note/${id('annNote')}/delete`, `/admin/notebook/${id('annSpareBook')}/delete`]) {
      const res = await page('ben', path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('Ann first note');
      expect(res.text, path).not.toContain('Ann spare book');
    }
    expect((await page('ben', `/admin/note/${id('benNote')}`)).status).toBe(200);
    expect((await page('ben', `/admin/note/${id('benNote')}/history`)).status).toBe(200);
    expect((await page('ben', `/admin/note/${id('benNote')}/delete`)).status).toBe(200);
    expect((await page('ann', `/admin/note/${id('annNote')}`)).status).toBe(200);
  });

  test('a change or a delete of another owner\'s row through admin POSTs is refused and changes nothing', async () => {
    const change = await post('ben', `/admin/note/${id('annNote')}`, { title: 'Hijacked', owner_id: id('ben') });
    expect(change.status).toBe(404);
    expect((await stored('note', 'annNote'))?.title).toBe('Ann first note');
    expect((await stored('note', 'annNote'))?.owner_id).toBe(ids.ann);
    // The confirmation page of a selection, and the confirmed delete: one out-of-reach id refuses it all.
    expect((await post('ben', '/admin/note/delete-selected', { '_selected.0': id('annNote') })).status).toBe(404);
    for (const selection of [{ '_selected.0': id('annNote') }, { '_selected.0': id('benNote'), '_selected.1': id('annNote') }] as Record<string, string>[]) {
      const res = await post('ben', '/admin/note/delete-selected', { ...selection, confirm: 'yes' });
      expect(res.status).toBe(404);
    }
    expect((await stored('note', 'annNote'))?.deleted_at).toBeNull();
    expect((await stored('note', 'benNote'))?.deleted_at).toBeNull();
    expect((await post('ben', '/admin/notebook/delete-selected', { '_selected.0': id('annSpareBook'), confirm: 'yes' })).status).toBe(404);
    expect(await stored('notebook', 'annSpareBook')).not.toBeNull();
    expect(await app.store.count('admin_audit_log', where.eq('user_id', ids.ben ?? null))).toBe(0);
  });

  test('a create naming another owner, or handing the caller\'s row to another owner, is refused (4xx)', async () => {
    const before = await app.store.count('note');
    const foreign = await post('ben', '/admin/note/add', { title: 'Planted', owner_id: id('ann') });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toContain('would not be yours');
    expect(await app.store.count('note')).toBe(before);
    const handOver = await post('ben', `/admin/note/${id('benNote')}`, { title: 'Ben first note', owner_id: id('ann') });
    expect(handOver.status).toBe(403);
    expect((await stored('note', 'benNote'))?.owner_id).toBe(ids.ben);
    // A foreign-key or many-to-many choice out of the caller's reach is refused beside its field.
    const book = await post('ben', '/admin/note/add', { title: 'In Ann book', owner_id: id('ben'), notebook_id: id('annBook') });
    expect(book.status).toBe(400);
    expect(await book.text()).toMatch(/id="err-notebook_id"/);
    const linked = await post('ben', '/admin/note/add', { title: 'With Ann label', owner_id: id('ben'), 'labels.present': '1', 'labels.0': id('annLabel') });
    expect(linked.status).toBe(400);
    expect(await app.store.count('note')).toBe(before);
    // The caller's own row is added.
    const own = await post('ben', '/admin/note/add', { title: 'Ben second note', owner_id: id('ben'), notebook_id: id('benBook'), 'labels.present': '1', 'labels.0': id('benLabel') });
    expect(own.status).toBe(303);
    const added = (await app.store.find('note', { where: where.eq('title', 'Ben second note') }))[0];
    expect(added?.owner_id).toBe(ids.ben);
    await app.store.delete('note', added?.id ?? null);
  });

  test('the foreign-key and many-to-many choices, the list filters and the picker lookup offer only the caller\'s rows', async () => {
    for (const path of ['/admin/note/add', `/admin/note/${id('benNote')}`]) {
      const form = await page('ben', path);
      expect(form.status, path).toBe(200);
      expect(form.text, path).toMatch(new RegExp(`<option value="${id('benBook')}"[^>]*>Ben book`));
      expect(form.text, path).not.toContain('Ann book');
      expect(form.text, path).toContain('Ben label');
      expect(form.text, path).not.toContain('Ann label');
    }
    // The owner column offers the caller only (chosen on the add form); the superuser is offered everyone.
    const add = await page('ben', '/admin/note/add');
    expect(/<select id="f-owner_id"[^>]*>(.*?)<\/select>/.exec(add.text)?.[1]).toBe(`<option value="">—</option><option value="${id('ben')}" selected>ben (#${id('ben')})</option>`);
    const list = await page('ben', '/admin/note');
    expect(list.text).toContain('Ben book');
    expect(list.text).not.toContain('Ann book');
    expect(list.text).not.toContain('Ann label');
    const lookup = await as('ben').request('/admin/notebook/lookup?q=book');
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toEqual([{ key: id('benBook'), label: `Ben book (#${id('benBook')})` }]);
    const rootForm = await page('root', '/admin/note/add');
    expect(rootForm.text).toContain('Ann book');
    expect(rootForm.text).toContain('Ben book');
    expect(rootForm.text).toContain('Ann label');
    expect(rootForm.text).toMatch(new RegExp(`<option value="${id('ann')}">ann`));
  });

  test('a row of the caller pointing at another owner\'s row shows its key, never its name', async () => {
    await app.store.update('note', ids.benNote ?? null, { notebook_id: ids.annBook ?? null });
    try {
      const list = await page('ben', '/admin/note');
      expect(list.text).toContain('Ben first note');
      expect(list.text).not.toContain('Ann book');
      expect((await page('ben', `/admin/note/${id('benNote')}`)).text).not.toContain('Ann book');
    } finally {
      await app.store.update('note', ids.benNote ?? null, { notebook_id: ids.benBook ?? null });
    }
  });

  test('a delete blocked by another owner\'s rows counts them but names only the caller\'s', async () => {
    const planted = await app.store.insert('note', { title: 'Ann note in Ben book', owner_id: ids.ann ?? null, notebook_id: ids.benBook ?? null });
    try {
      const res = await page('ben', `/admin/notebook/${id('benBook')}/delete`);
      expect(res.status).toBe(409);
      const referencing = await app.store.count('note', where.eq('notebook_id', ids.benBook ?? null), { withDeleted: true });
      expect(referencing).toBeGreaterThan(1);
      expect(res.text).toContain(`(notebook_id): ${referencing} rows`);
      expect(res.text).toContain('Ben first note');
      expect(res.text).not.toContain('Ann note in Ben book');
      expect((await post('ben', '/admin/notebook/delete-selected', { '_selected.0': id('benBook'), confirm: 'yes' })).status).toBe(409);
      expect(await stored('notebook', 'benBook')).not.toBeNull();
    } finally {
      await app.store.delete('note', planted.id ?? null);
    }
  });

  test('another owner\'s deleted row cannot be restored, nor listed among the deleted', async () => {
    expect((await post('ann', '/admin/note/delete-selected', { '_selected.0': id('annNote2'), confirm: 'yes' })).status).toBe(303);
    expect((await stored('note', 'annNote2'))?.deleted_at).not.toBeNull();
    expect((await page('ann', '/admin/note?deleted=1')).text).toContain('Ann second note');
    expect((await page('ben', '/admin/note?deleted=1')).text).not.toContain('Ann second note');
    expect((await post('ben', `/admin/note/${id('annNote2')}/restore`, {})).status).toBe(404);
    expect((await page('ben', `/admin/note/${id('annNote2')}/history`)).status).toBe(404);
    expect((await stored('note', 'annNote2'))?.deleted_at).not.toBeNull();
    expect((await post('ann', `/admin/note/${id('annNote2')}/restore`, {})).status).toBe(303);
    expect((await stored('note', 'annNote2'))?.deleted_at).toBeNull();
  });

  test('the superuser sees, changes and deletes every owner\'s rows', async () => {
    const list = await page('root', '/admin/note');
    for (const title of ['Ann first note', 'Ann second note', 'Ben first note']) expect(list.text).toContain(title);
    expect(list.text).toContain('· 3 rows');
    expect((await page('root', `/admin/note/${id('annNote')}`)).status).toBe(200);
    expect((await page('root', `/admin/note/${id('annNote')}/history`)).status).toBe(200);
    const changed = await post('root', `/admin/note/${id('annNote')}`, { title: 'Ann first note (edited)', owner_id: id('ann'), notebook_id: id('benBook') });
    expect(changed.status).toBe(303);
    expect((await stored('note', 'annNote'))?.title).toBe('Ann first note (edited)');
    const created = await post('root', '/admin/note/add', { title: 'Root for Ben', owner_id: id('ben') });
    expect(created.status).toBe(303);
    expect((await app.store.find('note', { where: where.eq('title', 'Root for Ben') }))[0]?.owner_id).toBe(ids.ben);
    expect((await post('root', '/admin/notebook/delete-selected', { '_selected.0': id('annSpareBook'), confirm: 'yes' })).status).toBe(303);
    expect(await stored('notebook', 'annSpareBook')).toBeNull();
  });
}

describe('the admin applies the row policy to staff who are not superusers (SQLite)', () => rowPolicySuite('sqlite'));
describe('the admin applies the row policy to staff who are not superusers (PostgreSQL)', () => rowPolicySuite('postgresql'));
