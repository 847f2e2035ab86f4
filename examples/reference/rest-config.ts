import {
  AllowAny,
  bearerAuthentication,
  chainAuthentication,
  IsAuthenticated,
  IsStaff,
  rest,
  sessionAuthentication,
  type ResourceConfig,
  type RestPlugin,
} from '../../src/index.js';

/** Per-table REST configuration (REFERENCE-APP.md "Models and REST configuration"). */
export const REFERENCE_RESOURCES: ResourceConfig[] = [
  { table: 'author', permission: AllowAny, hide: ['secret_note'] },
  {
    table: 'post',
    permission: IsAuthenticated,
    noform: ['created_by_id'],
    bulk: true,
    setOnCreate: { created_by_id: (identity) => identity.id },
  },
  { table: 'comment', permission: AllowAny, hide: ['moderation_note'] },
  { table: 'reply', permission: AllowAny },
  { table: 'tag', permission: AllowAny, bulk: true },
  { table: 'ticket', permission: AllowAny, views: ['List', 'Retrieve'] },
  { table: 'shop_order', permission: AllowAny, bulk: true },
  { table: 'order_item', permission: AllowAny, hide: ['secret'], bulk: true },
  { table: 'item_part', permission: AllowAny },
  { table: 'project', permission: AllowAny },
  { table: 'milestone', permission: AllowAny, under: { parent: 'project', fk: 'project_id' }, bulk: true },
  { table: 'member', permission: AllowAny },
  { table: 'secret_config', permission: AllowAny },
  { table: 'staff_report', permission: IsStaff },
  { table: 'link', permission: AllowAny },
  { table: 'list_only', permission: AllowAny, views: ['List'] },
];

/** The REST plugin of the reference app; `PROFILE=allowlist` serves only author and post. */
export function referenceRest(profile: string | undefined): RestPlugin {
  const plugin = rest()
    .authenticate(chainAuthentication(sessionAuthentication(), bearerAuthentication()))
    .resources(REFERENCE_RESOURCES)
    .exclude(['secret_config']);
  if (profile === 'allowlist') plugin.includeOnly(['author', 'post']).expose(['auth_user']).exclude(['auth_user']);
  return plugin;
}
