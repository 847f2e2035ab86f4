import type { Identity } from '../../domain/auth/identity.js';
import type { Value } from '../../domain/model/types.js';

/** The four per-model rights of the admin (Django's `view_`, `add_`, `change_`, `delete_<model>` codenames). */
export type AdminAction = 'view' | 'add' | 'change' | 'delete';

/** What one caller may do in the admin, per table. */
export interface AdminRights {
  can(table: string, action: AdminAction): boolean;
}

/** Where the admin reads a user's permissions (the permissions plugin's `CheckPermission`). */
export interface PermissionSource {
  all(userId: Value): Promise<Set<string>>;
}

/**
 * The caller's admin rights. A superuser has all; without a permission source (the permissions
 * plugin is not mounted) every staff user has all; otherwise a staff user has `<appLabel>.<action>_<table>`
 * as granted, and `change` implies `view` (as in Django). Non-staff callers have none.
 * One permissions read per request (a bounded number of statements).
 *
 * @example
 * const rights = await adminRights(identity, 'app', checkPermission);
 * rights.can('post', 'change');
 */
export async function adminRights(identity: Identity, appLabel: string, source?: PermissionSource): Promise<AdminRights> {
  if (!identity.isAuthenticated || !identity.isStaff) return { can: () => false };
  if (identity.isSuperuser || !source || identity.id === null) return { can: () => identity.isSuperuser || !source };
  const granted = await source.all(identity.id);
  const has = (table: string, action: AdminAction) => granted.has(`${appLabel}.${action}_${table}`);
  return { can: (table, action) => has(table, action) || (action === 'view' && has(table, 'change')) };
}
