/**
 * The exposure decision of SPEC "Exposure controls": which tables the REST layer serves.
 * A pure function of the table name and the configuration; first match wins.
 */

/** SPEC's default block-list, plus every table Portico itself creates (DESIGN §3 "block-list"). */
export const DEFAULT_BLOCKLIST: ReadonlySet<string> = new Set([
  'auth_user',
  'session',
  'fw_migrations',
  'permissions_permission',
  'permissions_contenttype',
  'permissions_group',
  'permissions_usergroup',
  'permissions_userpermission',
  'task_row',
  'admin_audit_log',
  'auth_token',
  'auth_email_code',
  'auth_password_reset',
  'social_account',
  'portico_cache',
  'auth_throttle',
  'permissions_grouppermission',
  'idempotency_key',
]);

export interface ExposureConfig {
  /** When set, only these tables pass (rule 1). */
  readonly includeOnly?: ReadonlySet<string>;
  /** Default-blocked tables opted into (rule 2, still subject to exclude). */
  readonly expose: ReadonlySet<string>;
  /** Tables added to the block-list (rule 4). */
  readonly exclude: ReadonlySet<string>;
  /**
   * Tables blocked by default besides DEFAULT_BLOCKLIST: the junction tables of many-to-many
   * relations, whose links are read and written through the owning resources (DESIGN §3).
   */
  readonly junctions?: ReadonlySet<string>;
}

/**
 * True when the REST layer serves `table`. Order: include_only (exclusive; an excluded or
 * default-blocked table inside it is still refused), expose (a default-blocked table opted
 * into, unless also excluded), default block-list, exclude, otherwise served.
 */
export function isExposed(table: string, config: ExposureConfig): boolean {
  if (config.exclude.has(table)) return false;
  const blocked = DEFAULT_BLOCKLIST.has(table) || config.junctions?.has(table) === true;
  if (config.includeOnly) {
    if (!config.includeOnly.has(table)) return false;
    return !blocked || config.expose.has(table);
  }
  if (config.expose.has(table)) return true;
  return !blocked;
}
