import { CheckPermission } from '../../application/check-permission.js';
import { GrantPermission } from '../../application/grant-permission.js';
import type { Value } from '../../domain/model/types.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';

/**
 * The permissions plugin: Django-style `has_perm` over the built-in permissions tables
 * (created by the built-in migration, so the plugin contributes no models). It binds to the
 * app's store when the app starts; `hasPerm` and `grants` throw before that.
 *
 * @example
 * const perms = permissions();
 * app.use(perms);
 * await app.start();
 * await perms.grants().ensurePermission('blog', 'post', 'change_post');
 * await perms.hasPerm(user.id, 'blog.change_post'); // false until granted
 */
export class PermissionsPlugin implements Plugin {
  readonly name = 'permissions';
  private check: CheckPermission | undefined;
  private grant: GrantPermission | undefined;

  /** Binds `TOKENS.CheckPermission` and `TOKENS.GrantPermission` on the app's store; called by the app on start. */
  install(ctx: PluginContext): void {
    ctx.bindFactory(TOKENS.CheckPermission, (get) => new CheckPermission(get(TOKENS.Store)));
    ctx.bindFactory(TOKENS.GrantPermission, (get) => new GrantPermission(get(TOKENS.Store)));
    this.check = ctx.get(TOKENS.CheckPermission);
    this.grant = ctx.get(TOKENS.GrantPermission);
  }

  /**
   * Whether user `userId` has `perm` (`'<app_label>.<codename>'`); see `CheckPermission`.
   *
   * @example
   * if (!(await perms.hasPerm(userId, 'blog.delete_post'))) return { status: 403, body: 'forbidden' };
   */
  async hasPerm(userId: Value, perm: string): Promise<boolean> {
    return this.checker().execute(userId, perm);
  }

  /**
   * Every `'<app_label>.<codename>'` user `userId` has; see `CheckPermission.all`.
   *
   * @example
   * const perms = await plugin.permissionsOf(userId); // Set { 'blog.change_post' }
   */
  async permissionsOf(userId: Value): Promise<Set<string>> {
    return this.checker().all(userId);
  }

  /**
   * The admin helpers (define permissions, grant them, manage groups) on the app's store.
   *
   * @example
   * await perms.grants().grantToUser(userId, 'blog.change_post');
   */
  grants(): GrantPermission {
    if (!this.grant) throw notStarted();
    return this.grant;
  }

  private checker(): CheckPermission {
    if (!this.check) throw notStarted();
    return this.check;
  }
}

function notStarted(): Error {
  return new Error('permissions plugin used before the app started: call app.use(permissions()) and start the app first');
}

/**
 * Creates the permissions plugin.
 *
 * @example
 * const perms = permissions();
 * app.use(perms);
 */
export function permissions(): PermissionsPlugin {
  return new PermissionsPlugin();
}
