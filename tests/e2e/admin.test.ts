import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantPermission } from '../../src/application/grant-permission.js';
import { where, type Row } from '../../src/index.js';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();
const XSS = '<script>alert("x")</script>';

function adminSuite(backend: 'sqlite' | 'postgresql') {
  let ref: RunningReference;
  const pages: string[] = [];
  const clients: Record<string, HttpClient> = {};

  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    const grants = new GrantPermission(ref.app.store);
    const staff = (await ref.app.store.find('auth_user', { where: where.eq('username', 'staff') }))[0] as Row;
    for (const table of ['post', 'tag', 'auth_user']) {
      for (const action of ['view', 'add', 'change', 'delete']) {
        await grants.ensurePermission('reference', table, `${action}_${table}`);
        await grants.grantToUser(staff.id ?? null, `reference.${action}_${table}`);
      }
    }
    await grants.ensurePermission('reference', 'author', 'view_author');
    await grants.grantToUser(staff.id ?? null, 'reference.view_author');
    for (const name of ['alice', 'staff', 'root']) {
      const c = new HttpClient(ref.url);
      expect((await c.form('/auth/login', { username: name, password: `${name}-password-1` })).status).toBe(303);
      clients[name] = c;
    }
  });
  afterAll(async () => ref.close());

  const as = (who: string) => clients[who] as HttpClient;
  /** GETs an admin page and keeps its HTML for the page-wide checks at the end. */
  const page = async (who: string, path: string) => {
    const res = await as(who).request(path);
    const text = await res.text();
    pages.push(text);
    return { status: res.status, text, res };
  };
  const post = async (who: string, path: string, fields: Record<string, string>, csrf = true) =>
    as(who).form(path, fields, csrf ? {} : { csrf: null });
  const audits = (table: string, id: string) => ref.app.store.find('admin_audit_log', { where: where.all(where.eq('table_name', table), where.eq('row_id', id)), orderBy: [{ column: 'id', direction: 'asc' }] });
  const userId = async (username: string) => String(((await ref.app.store.find('auth_user', { where: where.eq('username', username) }))[0] as Row).id);

  describe('access', () => {
    it('an anonymous caller is sent to the login page with a way back', async () => {
      const res = await new HttpClient(ref.url).request('/admin/post');
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/login?redirect=%2Fadmin%2Fpost');
      const login = await new HttpClient(ref.url).request('/login?redirect=%2Fadmin%2Fpost');
      expect(await login.text()).toContain('action="/auth/login?redirect=%2Fadmin%2Fpost"');
    });

    it('signing in from that page lands back in the admin', async () => {
      const c = new HttpClient(ref.url);
      const res = await c.request('/auth/login?redirect=%2Fadmin%2Fpost', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'root', password: 'root-password-1', csrf_token: await c.csrf() }).toString(),
      });
      expect(res.headers.get('location')).toBe('/admin/post');
    });

    it('with loginUrl the admin serves no login form of its own; its logout goes back to /login', async () => {
      const own = await new HttpClient(ref.url).request('/admin/login/?redirect=%2Fadmin%2Fpost');
      expect(own.status).toBe(303);
      expect(own.headers.get('location')).toBe('/login?redirect=%2Fadmin%2Fpost');
      const c = new HttpClient(ref.url);
      const posted = await c.form('/admin/login/', { username: 'root', password: 'root-password-1' });
      expect(posted.status).not.toBe(303);
      expect(c.cookies.has('portico_session')).toBe(false);
      expect((await c.form('/auth/login', { username: 'root', password: 'root-password-1' })).status).toBe(303);
      const index = await (await c.request('/admin/')).text();
      const token = /<form method="post" action="\/admin\/logout\/"><input type="hidden" name="csrf_token" value="([^"]+)">/.exec(index)?.[1];
      expect(token).toBeDefined();
      const out = await c.form('/admin/logout/', {}, { csrf: token ?? null });
      expect(out.status).toBe(303);
      expect(out.headers.get('location')).toBe('/login');
      expect(c.cookies.has('portico_session')).toBe(false);
      expect((await c.request('/admin/')).status).toBe(303);
    });

    it('a signed-in user who is not staff gets a 403 page', async () => {
      for (const path of ['/admin/', '/admin/post', '/admin/post/1']) {
        const res = await page('alice', path);
        expect(res.status).toBe(403);
        expect(res.text).toContain('Only staff users');
      }
      expect((await post('alice', '/admin/post/1', { title: 'hacked' })).status).toBe(403);
      expect((await ref.app.store.getById('post', 1))?.title).not.toBe('hacked');
    });

    it('per-model rights: a model the staff user may not view is absent and its URLs answer 403', async () => {
      const index = await page('staff', '/admin/');
      expect(index.status).toBe(200);
      expect(index.text).toContain('href="/admin/post"');
      expect(index.text).toContain('href="/admin/auth_user"');
      expect(index.text).not.toContain('href="/admin/comment"');
      expect((await page('staff', '/admin/comment')).status).toBe(403);
      expect((await page('staff', '/admin/comment/1')).status).toBe(403);
      expect((await page('staff', '/admin/comment/add')).status).toBe(403);
      expect((await post('staff', '/admin/comment/1', { body: 'changed' })).status).toBe(403);
      expect((await ref.app.store.getById('comment', 1))?.body).toBe('Remarkable foresight.');
      // The superuser sees every managed table, but never Portico's internal ones.
      const all = await page('root', '/admin/');
      expect(all.text).toContain('href="/admin/comment"');
      for (const internal of ['session', 'auth_token', 'admin_audit_log', 'post_tags', 'permissions_permission']) expect(all.text).not.toContain(`href="/admin/${internal}"`);
    });

    it('view without change: the page shows no form and a change is refused', async () => {
      const author = await page('staff', '/admin/author/1');
      expect(author.status).toBe(200);
      expect(author.text).toContain('Ada Lovelace');
      expect(author.text).not.toContain('<form method="post" action="/admin/author/1"');
      expect((await post('staff', '/admin/author/1', { name: 'Changed' })).status).toBe(403);
      expect((await page('staff', '/admin/author/1/delete')).status).toBe(403);
      expect((await post('staff', '/admin/author/delete-selected', { '_selected.0': '1', confirm: 'yes' })).status).toBe(403);
    });
  });

  describe('privileged columns', () => {
    it('a staff user who is not a superuser is not offered is_staff or is_superuser', async () => {
      const res = await page('staff', `/admin/auth_user/${await userId('alice')}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/name="is_superuser"/);
      expect(res.text).not.toMatch(/name="is_staff"/);
      expect(res.text).toContain('only a superuser may change this');
    });

    it('a crafted POST setting is_superuser or is_staff is refused and changes nothing', async () => {
      const alice = await userId('alice');
      for (const field of ['is_superuser', 'is_staff']) {
        const res = await post('staff', `/admin/auth_user/${alice}`, { username: 'alice', email: 'alice@example.com', [field]: 'on' });
        expect(res.status).toBe(400);
        expect(await res.text()).toContain('privileged field');
      }
      const created = await post('staff', '/admin/auth_user/add', { username: 'sneaky', email: 'sneaky@example.com', is_superuser: 'on', is_staff: 'on' });
      expect(created.status).toBe(400);
      const row = await ref.app.store.getById('auth_user', Number(alice));
      expect(row).toMatchObject({ is_staff: false, is_superuser: false });
      expect(await ref.app.store.count('auth_user', where.eq('username', 'sneaky'))).toBe(0);
    });

    it('a staff user may not change, delete or re-password a superuser', async () => {
      const root = await userId('root');
      expect((await post('staff', `/admin/auth_user/${root}`, { username: 'root', email: 'root@example.com' })).status).toBe(403);
      expect((await post('staff', `/admin/auth_user/${root}/password`, { password: 'a-new-long-passphrase', password2: 'a-new-long-passphrase' })).status).toBe(403);
      expect((await post('staff', '/admin/auth_user/delete-selected', { '_selected.0': root, confirm: 'yes' })).status).toBe(403);
    });

    it('a superuser may set is_staff, through the same write path, with a history row', async () => {
      const bob = await userId('bob');
      const res = await post('root', `/admin/auth_user/${bob}`, { username: 'bob', email: 'bob@example.com', is_staff: 'on', is_active: 'on' });
      expect(res.status).toBe(303);
      expect(await ref.app.store.getById('auth_user', Number(bob))).toMatchObject({ is_staff: true, is_superuser: false });
      const log = await audits('auth_user', bob);
      expect(log.at(-1)).toMatchObject({ action: 'change', changes: { columns: ['is_staff'] } });
    });
  });

  describe('writes', () => {
    let created = '';

    it('a post is added with its author and tags; the audit row names the columns', async () => {
      const res = await post('staff', '/admin/post/add', { title: XSS, body: 'Hello', author_id: '2', 'tags.present': '1', 'tags.0': 'orm', 'tags.1': 'rest', published: 'on' });
      expect(res.status).toBe(303);
      created = (res.headers.get('location') ?? '').split('/').pop() ?? '';
      const row = await ref.app.store.getById('post', Number(created));
      expect(row).toMatchObject({ title: XSS, author_id: 2, published: true, created_by_id: Number(await userId('staff')) });
      const links = await ref.app.store.find('post_tags', { where: where.eq('post_id', Number(created)) });
      expect(links.map((l) => l.tag_id).sort()).toEqual(['orm', 'rest']);
      const log = await audits('post', created);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ action: 'add', user_id: Number(await userId('staff')) });
      expect((log[0]?.changes as { columns: string[] }).columns).toEqual(expect.arrayContaining(['title', 'author_id', 'tags']));
    });

    it('a value with <script> renders escaped on every page', async () => {
      for (const path of ['/admin/post', `/admin/post/${created}`, `/admin/post/${created}/history`, `/admin/post/${created}/delete`, '/admin/post?q=script']) {
        const res = await page('staff', path);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(XSS);
        expect(res.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
      }
    });

    it('a change keeps to the shared write path and records the changed columns', async () => {
      const res = await post('staff', `/admin/post/${created}`, { title: 'Renamed', body: 'Hello', author_id: '2', 'tags.present': '1', 'tags.0': 'orm', published: 'on' });
      expect(res.status).toBe(303);
      expect(await ref.app.store.getById('post', Number(created))).toMatchObject({ title: 'Renamed' });
      const log = await audits('post', created);
      expect(log.at(-1)).toMatchObject({ action: 'change', changes: { columns: ['title', 'tags'] } });
      const history = await page('staff', `/admin/post/${created}/history`);
      expect(history.text).toContain('title, tags');
      expect(history.text).toContain('staff');
    });

    it('validation errors are shown beside the field and the input is kept', async () => {
      const res = await post('staff', '/admin/post/add', { title: 'Kept title', body: 'x', author_id: '999999', 'tags.present': '1' });
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).toContain('value="Kept title"');
      expect(text).toMatch(/class="errorlist"/);
      const missing = await post('staff', '/admin/post/add', { body: 'no title', author_id: '1', 'tags.present': '1' });
      expect(missing.status).toBe(400);
      expect(await missing.text()).toContain('id="err-title"');
    });

    it('search, filters, ordering and pagination of the list', async () => {
      const search = await page('staff', '/admin/post?q=Bernoulli');
      expect(search.text).toContain('On Bernoulli numbers');
      expect(search.text).not.toContain('Computing machinery');
      expect(search.text).toContain('1 row');
      const drafts = await page('staff', '/admin/post?published=false');
      expect(drafts.text).toContain('Draft: poetical science');
      expect(drafts.text).not.toContain('On Bernoulli numbers');
      const ordered = await page('staff', '/admin/post?o=title');
      expect(ordered.text.indexOf('Computing machinery')).toBeLessThan(ordered.text.indexOf('Notes on the Analytical'));
      const bad = await page('staff', '/admin/post?password_hash=x');
      expect(bad.status).toBe(400);
      expect((await page('staff', '/admin/post?score=1')).status).toBe(400);
    });

    it('a soft delete goes through a confirmation, hides the row, and a filter shows it again', async () => {
      const confirm = await post('staff', '/admin/post/delete-selected', { '_selected.0': created });
      expect(confirm.status).toBe(200);
      expect(await confirm.text()).toContain('Yes, delete');
      expect(await ref.app.store.getById('post', Number(created))).not.toBeNull();
      const res = await post('staff', '/admin/post/delete-selected', { '_selected.0': created, confirm: 'yes' });
      expect(res.status).toBe(303);
      expect(await ref.app.store.getById('post', Number(created))).toBeNull();
      expect((await page('staff', '/admin/post')).text).not.toContain('Renamed');
      expect((await page('staff', '/admin/post?deleted=1')).text).toContain('Renamed');
      expect((await audits('post', created)).at(-1)).toMatchObject({ action: 'delete' });
      const shown = await page('staff', `/admin/post/${created}`);
      expect(shown.text).toContain('This row is deleted.');
      expect((await post('staff', `/admin/post/${created}/restore`, {}, false)).status).toBe(403);
      expect((await post('staff', `/admin/post/${created}/restore`, {})).status).toBe(303);
      expect(await ref.app.store.getById('post', Number(created))).toMatchObject({ title: 'Renamed', deleted_at: null });
      expect((await audits('post', created)).at(-1)).toMatchObject({ action: 'restore', changes: { columns: ['deleted_at'] } });
    });

    it('deleting a referenced row shows what blocks it, never an error page', async () => {
      const c = await post('root', '/admin/project/add', { name: 'Blocked project' });
      const id = (c.headers.get('location') ?? '').split('/').pop() ?? '';
      await ref.app.store.insert('milestone', { project_id: Number(id), title: 'Depends on it' });
      const confirm = await page('root', `/admin/project/${id}/delete`);
      expect(confirm.status).toBe(409);
      expect(confirm.text).toContain('cannot be deleted');
      expect(confirm.text).toContain('Depends on it');
      const forced = await post('root', '/admin/project/delete-selected', { '_selected.0': id, confirm: 'yes' });
      expect(forced.status).toBe(409);
      expect(await ref.app.store.getById('project', Number(id))).not.toBeNull();
      const free = await post('root', '/admin/tag/add', { id: 'temp', label: 'Temp' });
      expect(free.status).toBe(303);
      expect((await post('root', '/admin/tag/delete-selected', { '_selected.0': 'temp', confirm: 'yes' })).status).toBe(303);
      expect(await ref.app.store.getById('tag', 'temp')).toBeNull();
      expect((await audits('tag', 'temp')).map((a) => a.action)).toEqual(['add', 'delete']);
    });

    it('set password: the signup rules, an argon2 hash, a history row naming only the column', async () => {
      const alice = await userId('alice');
      const weak = await post('staff', `/admin/auth_user/${alice}/password`, { password: '123', password2: '123' });
      expect(weak.status).toBe(400);
      expect(await weak.text()).toContain('at least 8 characters');
      const ok = await post('staff', `/admin/auth_user/${alice}/password`, { password: 'copper-kettle-morning', password2: 'copper-kettle-morning' });
      expect(ok.status).toBe(303);
      const c = new HttpClient(ref.url);
      expect((await c.form('/auth/login', { username: 'alice', password: 'copper-kettle-morning' })).headers.get('location')).toBe('/');
      expect((await c.home()).who).toContain('alice');
      const log = await audits('auth_user', alice);
      expect(log.at(-1)).toMatchObject({ action: 'set_password', changes: { columns: ['password_hash'] } });
      expect(JSON.stringify(log)).not.toContain('$argon2');
    });
  });

  describe('cost', () => {
    it('a list page sends the same number of statements whatever the table size', async () => {
      const statements: string[] = [];
      const knex = ref.app.db.sql?.knex;
      if (!knex) throw new Error('SQL backend expected');
      const listen = (q: { sql: string }) => statements.push(q.sql);
      const once = async () => {
        knex.on('query', listen);
        statements.length = 0;
        expect((await page('root', '/admin/post?o=-title')).status).toBe(200);
        knex.removeListener('query', listen);
        return statements.length;
      };
      // The fewest of three loads: the task worker's poll (every second) can land inside one load;
      // a statement per row would be in all three.
      const measure = async () => Math.min(await once(), await once(), await once());
      await measure(); // consumes any pending flash message (a session write)
      const small = await measure();
      await ref.app.store.insertMany('post', Array.from({ length: 300 }, (_, i) => ({ title: `Bulk ${i}`, author_id: 1 + (i % 2) })));
      expect(await measure()).toBe(small);
      expect(small).toBeLessThan(15);
    });
  });

  describe('CSRF and secrets', () => {
    it('every mutating form refuses a POST without the CSRF field', async () => {
      const alice = await userId('alice');
      const attempts: [string, Record<string, string>][] = [
        ['/admin/post/add', { title: 'no csrf', author_id: '1' }],
        ['/admin/post/1', { title: 'no csrf', author_id: '1' }],
        ['/admin/post/delete-selected', { '_selected.0': '2', confirm: 'yes' }],
        [`/admin/auth_user/${alice}/password`, { password: 'another-long-phrase', password2: 'another-long-phrase' }],
        ['/admin/post/1/restore', {}],
      ];
      for (const [path, fields] of attempts) {
        const res = await post('root', path, fields, false);
        expect(res.status, path).toBe(403);
        expect(await res.json()).toMatchObject({ code: 'csrf_failed' });
      }
      expect(await ref.app.store.count('post', where.eq('title', 'no csrf'))).toBe(0);
      expect(await ref.app.store.getById('post', 2)).not.toBeNull();
    });

    it('every page that renders a form carries the CSRF input', async () => {
      for (const path of ['/admin/post', '/admin/post/add', '/admin/post/1', '/admin/post/2/delete', `/admin/auth_user/${await userId('bob')}/password`]) {
        const res = await page('root', path);
        const forms = res.text.match(/<form method="post"[^>]*>/g) ?? [];
        const tokens = res.text.match(/name="csrf_token"/g) ?? [];
        expect(forms.length, path).toBeGreaterThan(0);
        expect(tokens.length, path).toBeGreaterThanOrEqual(forms.length);
      }
    });

    it('password_hash never appears in any admin HTML', async () => {
      for (const path of ['/admin/auth_user', `/admin/auth_user/${await userId('alice')}`, `/admin/auth_user/${await userId('alice')}/history`, '/admin/auth_user/add', '/admin/auth_user?o=-username']) await page('root', path);
      expect(pages.length).toBeGreaterThan(20);
      for (const html of pages) {
        expect(html).not.toContain('password_hash');
        expect(html).not.toContain('$argon2');
      }
    });
  });

  describe('the foreign-key picker past 100 rows', () => {
    it('the field searches as you type through a lookup that keeps the list rights', async () => {
      await ref.app.store.insertMany('author', Array.from({ length: 101 }, (_, i) => ({ name: `Picker ${i}` })));
      const form = await page('staff', '/admin/post/add');
      expect(form.text).toContain('data-lookup="/admin/author/lookup"');
      expect(form.text).toContain('<script src="/admin/picker.js" defer></script>');
      const found = await as('staff').request('/admin/author/lookup?q=Picker%2042');
      expect(found.status).toBe(200);
      const rows = (await found.json()) as { key: string; label: string }[];
      expect(rows.map((r) => r.label)).toEqual([expect.stringContaining('Picker 42')]);
      expect((await as('staff').request('/admin/author/lookup?q=Picker')).status).toBe(200);
      expect((await as('staff').request('/admin/comment/lookup?q=a')).status).toBe(403); // no view right on comment
      expect((await as('alice').request('/admin/author/lookup?q=a')).status).toBe(403); // not staff
      const script = await new HttpClient(ref.url).request('/admin/picker.js');
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      expect(await script.text()).toContain('data-lookup');
    });
  });
}

describe('admin on the reference app: SQLite', () => adminSuite('sqlite'));
describe.skipIf(!pg)('admin on the reference app: PostgreSQL', () => adminSuite('postgresql'));
