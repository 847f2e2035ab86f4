import { ConstraintViolation, DomainError } from '../domain/errors/domain-error.js';
import type { Row, Value } from '../domain/model/types.js';
import { where, type Condition } from '../domain/query/condition.js';
import type { RecordStore } from '../ports/record-store.js';
import { findPermissionIds, parsePermission } from './check-permission.js';

/**
 * Admin helpers over the built-in permissions tables: define permissions, grant them to users
 * and groups, put users in groups. Every operation is idempotent: doing it twice leaves one
 * row and never surfaces a unique violation (a concurrent duplicate insert is caught and the
 * existing row returned).
 *
 * @example
 * const grants = new GrantPermission(store);
 * await grants.ensurePermission('blog', 'post', 'change_post', 'Can change post');
 * await grants.grantToUser(user.id, 'blog.change_post');
 * const editors = await grants.addToGroup(user.id, 'editors');
 * await grants.grantToGroup(editors.id, 'blog.change_post');
 */
export class GrantPermission {
  constructor(private readonly store: RecordStore) {}

  /**
   * The permission `codename` of model `model` in app `appLabel`, created with its content
   * type when missing (`name` defaults to the codename; an existing row is returned unchanged).
   * Throws `DomainError('invalid_input')` for an empty part or an app label with a dot.
   *
   * @example
   * const perm = await grants.ensurePermission('blog', 'post', 'publish_post', 'Can publish post');
   */
  async ensurePermission(appLabel: string, model: string, codename: string, name?: string): Promise<Row> {
    const problems: { field: string; message: string }[] = [];
    if (typeof appLabel !== 'string' || appLabel === '') problems.push({ field: 'app_label', message: 'must not be empty' });
    else if (appLabel.includes('.')) problems.push({ field: 'app_label', message: 'must not contain a dot' });
    if (typeof model !== 'string' || model === '') problems.push({ field: 'model', message: 'must not be empty' });
    if (typeof codename !== 'string' || codename === '') problems.push({ field: 'codename', message: 'must not be empty' });
    if (problems.length > 0) throw new DomainError('invalid_input', 'invalid permission definition', problems);
    const contentType = await this.findOrInsert(
      'permissions_contenttype',
      where.all(where.eq('app_label', appLabel), where.eq('model', model)),
      { app_label: appLabel, model },
    );
    return this.findOrInsert(
      'permissions_permission',
      where.all(where.eq('content_type_id', contentType.id as Value), where.eq('codename', codename)),
      { content_type_id: contentType.id as Value, codename, name: name ?? codename },
    );
  }

  /**
   * Grants `perm` (`'<app_label>.<codename>'`) to user `userId` directly. Throws
   * `DomainError('not_found')` for an unknown user or a permission no `ensurePermission` defined.
   *
   * @example
   * await grants.grantToUser(user.id, 'blog.change_post');
   */
  async grantToUser(userId: Value, perm: string): Promise<void> {
    const user = await this.existing('auth_user', userId, 'user');
    await this.link('permissions_userpermission', 'user_id', user.id as Value, perm);
  }

  /**
   * Grants `perm` to group `groupId` (every member gets it). Throws `DomainError('not_found')`
   * for an unknown group or permission.
   *
   * @example
   * const editors = await grants.addToGroup(user.id, 'editors');
   * await grants.grantToGroup(editors.id, 'blog.change_post');
   */
  async grantToGroup(groupId: Value, perm: string): Promise<void> {
    const group = await this.existing('permissions_group', groupId, 'group');
    await this.link('permissions_grouppermission', 'group_id', group.id as Value, perm);
  }

  /** Links `ownerColumn = owner` to every permission `perm` names, idempotently. */
  private async link(table: string, ownerColumn: string, owner: Value, perm: string): Promise<void> {
    for (const permissionId of await this.permissionIds(perm)) {
      await this.findOrInsert(table, where.all(where.eq(ownerColumn, owner), where.eq('permission_id', permissionId)), {
        [ownerColumn]: owner,
        permission_id: permissionId,
      });
    }
  }

  /**
   * Puts user `userId` in the group named `groupName`, creating the group when missing;
   * returns the group row. Throws `DomainError('not_found')` for an unknown user and
   * `DomainError('invalid_input')` for an empty group name.
   *
   * @example
   * const editors = await grants.addToGroup(user.id, 'editors'); // { id: 1, name: 'editors' }
   */
  async addToGroup(userId: Value, groupName: string): Promise<Row> {
    if (typeof groupName !== 'string' || groupName === '') {
      throw new DomainError('invalid_input', 'group name must not be empty', [{ field: 'name', message: 'must not be empty' }]);
    }
    const user = await this.existing('auth_user', userId, 'user');
    const group = await this.findOrInsert('permissions_group', where.eq('name', groupName), { name: groupName });
    await this.findOrInsert(
      'permissions_usergroup',
      where.all(where.eq('user_id', user.id as Value), where.eq('group_id', group.id as Value)),
      { user_id: user.id as Value, group_id: group.id as Value },
    );
    return group;
  }

  /** The ids of the permissions `perm` names; `not_found` when it is malformed or names none. */
  private async permissionIds(perm: string): Promise<Value[]> {
    const name = parsePermission(perm);
    const ids = name ? await findPermissionIds(this.store, name) : [];
    if (ids.length === 0) throw new DomainError('not_found', `no permission "${String(perm)}"`);
    return ids;
  }

  private async existing(table: string, id: Value, what: string): Promise<Row> {
    const row = await this.store.getById(table, id);
    if (!row) throw new DomainError('not_found', `no ${what} with id ${String(id)}`);
    return row;
  }

  /**
   * The row matching `match`, or `row` inserted. A unique violation from a concurrent insert
   * of the same row is swallowed and the winner returned.
   */
  private async findOrInsert(table: string, match: Condition, row: Row): Promise<Row> {
    const [found] = await this.store.find(table, { where: match, limit: 1 });
    if (found) return found;
    try {
      return await this.store.insert(table, row);
    } catch (error) {
      if (!(error instanceof ConstraintViolation) || error.kind !== 'unique') throw error;
      const [winner] = await this.store.find(table, { where: match, limit: 1 });
      if (!winner) throw error;
      return winner;
    }
  }
}
