import type { Row, Value } from '../domain/model/types.js';
import { where } from '../domain/query/condition.js';
import type { RecordStore } from '../ports/record-store.js';

/** A permission string split into its parts: `'blog.change_post'` → `{ appLabel: 'blog', codename: 'change_post' }`. */
export interface PermissionName {
  readonly appLabel: string;
  readonly codename: string;
}

/**
 * Splits `'<app_label>.<codename>'` on the first dot. Returns null when there is no dot or
 * either part is empty; the codename may itself contain dots and underscores.
 *
 * @example
 * parsePermission('blog.change_post'); // { appLabel: 'blog', codename: 'change_post' }
 * parsePermission('blog');             // null
 */
export function parsePermission(perm: string): PermissionName | null {
  if (typeof perm !== 'string') return null;
  const dot = perm.indexOf('.');
  if (dot <= 0 || dot === perm.length - 1) return null;
  return { appLabel: perm.slice(0, dot), codename: perm.slice(dot + 1) };
}

/**
 * The ids of the permissions named `'<appLabel>.<codename>'` (two queries: content types of
 * the app, then permissions of those content types with the codename). Usually one id; more
 * when several models of one app define the same codename.
 *
 * @example
 * const ids = await findPermissionIds(store, { appLabel: 'blog', codename: 'change_post' });
 */
export async function findPermissionIds(store: RecordStore, name: PermissionName): Promise<Value[]> {
  const contentTypes = await store.find('permissions_contenttype', { where: where.eq('app_label', name.appLabel) });
  if (contentTypes.length === 0) return [];
  const permissions = await store.find('permissions_permission', {
    where: where.all(
      where.in(
        'content_type_id',
        contentTypes.map((ct) => ct.id as Value),
      ),
      where.eq('codename', name.codename),
    ),
  });
  return permissions.map((p) => p.id as Value);
}

/**
 * Django-style `has_perm` over the built-in permissions tables. An unknown or inactive user
 * has no permission; an active superuser has every well-formed permission (defined or not);
 * anyone else has a permission granted directly (`permissions_userpermission`) or through one
 * of their groups (`permissions_usergroup` → `permissions_grouppermission`).
 *
 * A check costs a bounded number of queries (at most six), whatever the number of groups or
 * grants: user, content types, permissions, direct-grant count, group ids, group-grant count.
 *
 * @example
 * const check = new CheckPermission(store);
 * if (await check.execute(user.id, 'blog.change_post')) { ... }
 * await check.all(user.id); // Set { 'blog.change_post', 'blog.add_post' }
 */
export class CheckPermission {
  constructor(private readonly store: RecordStore) {}

  /**
   * Whether user `userId` has permission `perm` (`'<app_label>.<codename>'`). A malformed
   * `perm` (no dot, empty part) is false, even for a superuser.
   *
   * @example
   * await new CheckPermission(store).execute(7, 'blog.change_post'); // true | false
   */
  async execute(userId: Value, perm: string): Promise<boolean> {
    const name = parsePermission(perm);
    if (!name) return false;
    const user = await this.activeUser(userId);
    if (!user) return false;
    if (user.is_superuser === true) return true;
    const permissionIds = await findPermissionIds(this.store, name);
    if (permissionIds.length === 0) return false;
    const direct = await this.store.count(
      'permissions_userpermission',
      where.all(where.eq('user_id', user.id as Value), where.in('permission_id', permissionIds)),
    );
    if (direct > 0) return true;
    const groupIds = await this.groupIds(user.id as Value);
    if (groupIds.length === 0) return false;
    const viaGroup = await this.store.count(
      'permissions_grouppermission',
      where.all(where.in('group_id', groupIds), where.in('permission_id', permissionIds)),
    );
    return viaGroup > 0;
  }

  /**
   * Every `'<app_label>.<codename>'` user `userId` has: direct and group grants, or every
   * defined permission for an active superuser; empty for an unknown or inactive user.
   *
   * @example
   * [...(await new CheckPermission(store).all(7))].sort(); // ['blog.add_post', 'blog.change_post']
   */
  async all(userId: Value): Promise<Set<string>> {
    const user = await this.activeUser(userId);
    if (!user) return new Set();
    let permissions: Row[];
    if (user.is_superuser === true) {
      permissions = await this.store.find('permissions_permission');
    } else {
      const direct = await this.store.find('permissions_userpermission', { where: where.eq('user_id', user.id as Value) });
      const groupIds = await this.groupIds(user.id as Value);
      const viaGroups =
        groupIds.length === 0 ? [] : await this.store.find('permissions_grouppermission', { where: where.in('group_id', groupIds) });
      const ids = [...direct, ...viaGroups].map((g) => g.permission_id as Value);
      permissions = ids.length === 0 ? [] : await this.store.getManyByIds('permissions_permission', ids);
    }
    if (permissions.length === 0) return new Set();
    const contentTypes = await this.store.getManyByIds(
      'permissions_contenttype',
      permissions.map((p) => p.content_type_id as Value),
    );
    const appLabelOf = new Map(contentTypes.map((ct) => [String(ct.id), String(ct.app_label)]));
    const out = new Set<string>();
    for (const p of permissions) {
      const appLabel = appLabelOf.get(String(p.content_type_id));
      if (appLabel !== undefined) out.add(`${appLabel}.${String(p.codename)}`);
    }
    return out;
  }

  /** The user row when it exists and is active; null otherwise. */
  private async activeUser(userId: Value): Promise<Row | null> {
    const user = await this.store.getById('auth_user', userId);
    return user && user.is_active === true ? user : null;
  }

  private async groupIds(userId: Value): Promise<Value[]> {
    const memberships = await this.store.find('permissions_usergroup', { where: where.eq('user_id', userId) });
    return memberships.map((m) => m.group_id as Value);
  }
}
