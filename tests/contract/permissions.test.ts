import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckPermission, parsePermission } from '../../src/application/check-permission.js';
import { GrantPermission } from '../../src/application/grant-permission.js';
import { permissions } from '../../src/composition/plugins/permissions.js';
import type { Plugin, PluginContext } from '../../src/composition/plugin.js';
import { TOKENS, type Token } from '../../src/composition/tokens.js';
import { DomainError } from '../../src/domain/errors/domain-error.js';
import type { Row, Value } from '../../src/domain/model/types.js';
import type { RecordStore } from '../../src/ports/record-store.js';
import { openTestDatabase, type Backend, type TestDatabase } from '../support/open-test-database.js';
import { postgresAvailable } from '../support/postgres.js';

const pg = await postgresAvailable();

/** A store that counts every call made through it (to check the query bound). */
function countingStore(inner: RecordStore): { store: RecordStore; calls: string[] } {
  const calls: string[] = [];
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(`${String(prop)}:${String(args[0])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

async function expectDomainError(p: Promise<unknown>, code: string): Promise<void> {
  const error = await rejection(p);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
}

/** The permissions cases, run on every backend. Case ids: PERM-<area>-<n>. */
function permissionsContract(backend: Backend): void {
  let t: TestDatabase;
  let store: RecordStore;
  let check: CheckPermission;
  let grants: GrantPermission;
  let n = 0;

  const user = (extra: Row = {}): Promise<Row> => {
    n += 1;
    return store.insert('auth_user', { username: `user${n}`, email: `user${n}@example.test`, ...extra });
  };
  const id = (row: Row): Value => row.id as Value;
  const countRows = (table: string): Promise<number> => store.count(table);

  beforeEach(async () => {
    t = await openTestDatabase(backend);
    store = t.db.store;
    check = new CheckPermission(store);
    grants = new GrantPermission(store);
    await grants.ensurePermission('blog', 'post', 'change_post', 'Can change post');
    await grants.ensurePermission('blog', 'post', 'add_post', 'Can add post');
    await grants.ensurePermission('blog', 'comment', 'delete_comment', 'Can delete comment');
    await grants.ensurePermission('shop', 'order', 'change_post');
  });
  afterEach(async () => {
    await t.close();
  });

  describe('PERM-check', () => {
    it('PERM-check-1 a direct grant gives the permission, and only that one', async () => {
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      expect(await check.execute(id(u), 'blog.change_post')).toBe(true);
      expect(await check.execute(id(u), 'blog.add_post')).toBe(false);
    });

    it('PERM-check-2 a group grant gives the permission to every member', async () => {
      const member = await user();
      const other = await user();
      const editors = await grants.addToGroup(id(member), 'editors');
      await grants.grantToGroup(id(editors), 'blog.delete_comment');
      expect(await check.execute(id(member), 'blog.delete_comment')).toBe(true);
      expect(await check.execute(id(other), 'blog.delete_comment')).toBe(false);
      expect(await check.execute(id(member), 'blog.change_post')).toBe(false);
    });

    it('PERM-check-3 without any grant a user has no permission', async () => {
      const u = await user();
      await grants.addToGroup(id(u), 'nobodies');
      expect(await check.execute(id(u), 'blog.change_post')).toBe(false);
      expect(await check.execute(id(u), 'blog.undefined_perm')).toBe(false);
    });

    it('PERM-check-4 an active superuser has every well-formed permission, defined or not', async () => {
      const root = await user({ is_superuser: true });
      expect(await check.execute(id(root), 'blog.change_post')).toBe(true);
      expect(await check.execute(id(root), 'shop.change_post')).toBe(true);
      expect(await check.execute(id(root), 'nothing.defined_here')).toBe(true);
    });

    it('PERM-check-5 an inactive user has nothing, superuser or not, granted or not', async () => {
      const root = await user({ is_superuser: true, is_active: false });
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      const g = await grants.addToGroup(id(u), 'editors');
      await grants.grantToGroup(id(g), 'blog.add_post');
      await store.update('auth_user', id(u), { is_active: false });
      expect(await check.execute(id(root), 'blog.change_post')).toBe(false);
      expect(await check.execute(id(root), 'nothing.defined_here')).toBe(false);
      expect(await check.execute(id(u), 'blog.change_post')).toBe(false);
      expect(await check.execute(id(u), 'blog.add_post')).toBe(false);
      expect(await check.all(id(root))).toEqual(new Set());
      expect(await check.all(id(u))).toEqual(new Set());
    });

    it('PERM-check-6 an unknown user has nothing', async () => {
      expect(await check.execute(987654, 'blog.change_post')).toBe(false);
      expect(await check.execute('not-an-id', 'blog.change_post')).toBe(false);
      expect(await check.execute(null, 'blog.change_post')).toBe(false);
      expect(await check.all(987654)).toEqual(new Set());
    });

    it('PERM-check-7 a malformed permission string is false, even for a superuser', async () => {
      const root = await user({ is_superuser: true });
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      for (const perm of ['', 'blog', 'change_post', '.change_post', 'blog.', '.']) {
        expect(await check.execute(id(root), perm), perm).toBe(false);
        expect(await check.execute(id(u), perm), perm).toBe(false);
      }
    });

    it('PERM-check-8 the same codename under another app label is a different permission', async () => {
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      expect(await check.execute(id(u), 'blog.change_post')).toBe(true);
      expect(await check.execute(id(u), 'shop.change_post')).toBe(false);
      const v = await user();
      const g = await grants.addToGroup(id(v), 'clerks');
      await grants.grantToGroup(id(g), 'shop.change_post');
      expect(await check.execute(id(v), 'shop.change_post')).toBe(true);
      expect(await check.execute(id(v), 'blog.change_post')).toBe(false);
    });

    it('PERM-check-9 the string splits on the first dot: codenames keep underscores and dots', async () => {
      await grants.ensurePermission('blog', 'post', 'can_publish.now');
      const u = await user();
      await grants.grantToUser(id(u), 'blog.can_publish.now');
      expect(await check.execute(id(u), 'blog.can_publish.now')).toBe(true);
      expect(await check.execute(id(u), 'blog.can_publish')).toBe(false);
      expect(await check.execute(id(u), 'blog.can')).toBe(false);
      expect(parsePermission('blog.can_publish.now')).toEqual({ appLabel: 'blog', codename: 'can_publish.now' });
    });

    it('PERM-check-10 leaving a group or losing a grant takes the permission away', async () => {
      const u = await user();
      const g = await grants.addToGroup(id(u), 'editors');
      await grants.grantToGroup(id(g), 'blog.add_post');
      expect(await check.execute(id(u), 'blog.add_post')).toBe(true);
      const [membership] = await store.find('permissions_usergroup', {});
      await store.delete('permissions_usergroup', membership?.id as Value);
      expect(await check.execute(id(u), 'blog.add_post')).toBe(false);
    });

    it('PERM-check-11 a check costs a bounded number of queries, however many groups', async () => {
      const few = await user();
      const many = await user();
      const g0 = await grants.addToGroup(id(few), 'g0');
      await grants.grantToGroup(id(g0), 'blog.change_post');
      for (let i = 0; i < 12; i++) {
        const g = await grants.addToGroup(id(many), `many${i}`);
        await grants.grantToGroup(id(g), 'blog.add_post');
        await grants.grantToGroup(id(g), 'blog.delete_comment');
      }
      const last = await grants.addToGroup(id(many), 'last');
      await grants.grantToGroup(id(last), 'blog.change_post');
      const counted = countingStore(store);
      const checker = new CheckPermission(counted.store);
      expect(await checker.execute(id(few), 'blog.change_post')).toBe(true);
      const forFew = counted.calls.length;
      counted.calls.length = 0;
      expect(await checker.execute(id(many), 'blog.change_post')).toBe(true);
      expect(counted.calls.length).toBe(forFew);
      expect(counted.calls.length).toBeLessThanOrEqual(6);
      counted.calls.length = 0;
      expect(await checker.all(id(many))).toEqual(new Set(['blog.add_post', 'blog.delete_comment', 'blog.change_post']));
      expect(counted.calls.length).toBeLessThanOrEqual(6);
    });
  });

  describe('PERM-all', () => {
    it('PERM-all-1 lists direct and group permissions once each', async () => {
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      const g1 = await grants.addToGroup(id(u), 'editors');
      const g2 = await grants.addToGroup(id(u), 'clerks');
      await grants.grantToGroup(id(g1), 'blog.change_post');
      await grants.grantToGroup(id(g1), 'blog.delete_comment');
      await grants.grantToGroup(id(g2), 'shop.change_post');
      expect(await check.all(id(u))).toEqual(new Set(['blog.change_post', 'blog.delete_comment', 'shop.change_post']));
      expect(await check.all(id(await user()))).toEqual(new Set());
    });

    it('PERM-all-2 a superuser has every defined permission', async () => {
      const root = await user({ is_superuser: true });
      expect(await check.all(id(root))).toEqual(new Set(['blog.change_post', 'blog.add_post', 'blog.delete_comment', 'shop.change_post']));
    });
  });

  describe('PERM-grant', () => {
    it('PERM-grant-1 ensurePermission is idempotent and returns the stored row', async () => {
      const a = await grants.ensurePermission('wiki', 'page', 'edit_page', 'Can edit page');
      const b = await grants.ensurePermission('wiki', 'page', 'edit_page', 'Another name');
      expect(b).toEqual(a);
      expect(a).toMatchObject({ codename: 'edit_page', name: 'Can edit page' });
      const c = await grants.ensurePermission('wiki', 'page', 'view_page');
      expect(c.name).toBe('view_page');
      expect(c.content_type_id).toBe(a.content_type_id);
      expect(await countRows('permissions_contenttype')).toBe(4);
      expect(await countRows('permissions_permission')).toBe(6);
    });

    it('PERM-grant-2 granting and joining twice leaves one row each, without error', async () => {
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      await grants.grantToUser(id(u), 'blog.change_post');
      const g1 = await grants.addToGroup(id(u), 'editors');
      const g2 = await grants.addToGroup(id(u), 'editors');
      expect(g2).toEqual(g1);
      await grants.grantToGroup(id(g1), 'blog.add_post');
      await grants.grantToGroup(id(g1), 'blog.add_post');
      expect(await countRows('permissions_userpermission')).toBe(1);
      expect(await countRows('permissions_usergroup')).toBe(1);
      expect(await countRows('permissions_group')).toBe(1);
      expect(await countRows('permissions_grouppermission')).toBe(1);
      await Promise.all([grants.grantToUser(id(u), 'blog.add_post'), grants.grantToUser(id(u), 'blog.add_post')]);
      expect(await countRows('permissions_userpermission')).toBe(2);
    });

    it('PERM-grant-6 a row inserted by someone else between look-up and insert is not an error', async () => {
      const u = await user();
      await grants.grantToUser(id(u), 'blog.change_post');
      const g = await grants.addToGroup(id(u), 'editors');
      // A store whose first look-up of each grant table misses, as if a concurrent grant had not committed yet.
      const RACED = new Set(['permissions_userpermission', 'permissions_group', 'permissions_usergroup']);
      const missedOnce = new Set<string>();
      const racing = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop !== 'find') return Reflect.get(target, prop, receiver) as unknown;
          return (table: string, query?: Parameters<RecordStore['find']>[1]) => {
            if (RACED.has(table) && !missedOnce.has(table)) {
              missedOnce.add(table);
              return Promise.resolve([]);
            }
            return target.find(table, query);
          };
        },
      });
      const racer = new GrantPermission(racing);
      await racer.grantToUser(id(u), 'blog.change_post');
      expect(await racer.addToGroup(id(u), 'editors')).toEqual(g);
      expect(missedOnce).toEqual(RACED);
      expect(await countRows('permissions_userpermission')).toBe(1);
      expect(await countRows('permissions_group')).toBe(1);
      expect(await countRows('permissions_usergroup')).toBe(1);
    });

    it('PERM-grant-3 granting an unknown or malformed permission throws not_found', async () => {
      const u = await user();
      const g = await grants.addToGroup(id(u), 'editors');
      for (const perm of ['blog.nope', 'nope.change_post', 'blog', '', 'blog.']) {
        await expectDomainError(grants.grantToUser(id(u), perm), 'not_found');
        await expectDomainError(grants.grantToGroup(id(g), perm), 'not_found');
      }
      expect(await countRows('permissions_userpermission')).toBe(0);
      expect(await countRows('permissions_grouppermission')).toBe(0);
    });

    it('PERM-grant-4 an unknown user or group throws not_found', async () => {
      await expectDomainError(grants.grantToUser(987654, 'blog.change_post'), 'not_found');
      await expectDomainError(grants.grantToGroup(987654, 'blog.change_post'), 'not_found');
      await expectDomainError(grants.addToGroup(987654, 'editors'), 'not_found');
      expect(await countRows('permissions_group')).toBe(0);
    });

    it('PERM-grant-5 malformed definitions throw invalid_input', async () => {
      await expectDomainError(grants.ensurePermission('', 'post', 'x'), 'invalid_input');
      await expectDomainError(grants.ensurePermission('a.b', 'post', 'x'), 'invalid_input');
      await expectDomainError(grants.ensurePermission('blog', '', 'x'), 'invalid_input');
      await expectDomainError(grants.ensurePermission('blog', 'post', ''), 'invalid_input');
      await expectDomainError(grants.addToGroup(id(await user()), ''), 'invalid_input');
    });
  });

  describe('PERM-plugin', () => {
    it('PERM-plugin-1 the plugin throws before start and answers after install', async () => {
      const plugin = permissions();
      expect(plugin.name).toBe('permissions');
      const asPlugin: Plugin = plugin;
      expect(asPlugin.models).toBeUndefined();
      expect(asPlugin.migrations).toBeUndefined();
      await expect(plugin.hasPerm(1, 'blog.change_post')).rejects.toThrow(/before the app started/);
      expect(() => plugin.grants()).toThrow(/before the app started/);
      // The smallest context the plugin needs: the store behind TOKENS.Store, and bindFactory/get.
      const bound = new Map<symbol, unknown>([[TOKENS.Store, store]]);
      const get = <T>(t: Token<T>): T => bound.get(t) as T;
      await plugin.install({ get, bindFactory: <T>(t: Token<T>, build: (g: typeof get) => T) => void bound.set(t, build(get)) } as unknown as PluginContext);
      const u = await user();
      expect(await plugin.hasPerm(id(u), 'blog.change_post')).toBe(false);
      await plugin.grants().grantToUser(id(u), 'blog.change_post');
      expect(await plugin.hasPerm(id(u), 'blog.change_post')).toBe(true);
      expect(await plugin.permissionsOf(id(u))).toEqual(new Set(['blog.change_post']));
    });
  });
}

describe('Permissions: in-memory', () => permissionsContract('memory'));
describe('Permissions: SQLite', () => permissionsContract('sqlite'));
describe.skipIf(!pg)('Permissions: PostgreSQL', () => permissionsContract('postgresql'));
