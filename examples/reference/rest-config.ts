import {
  AllowAny,
  bearerAuthentication,
  chainAuthentication,
  IsAuthenticated,
  IsStaff,
  rest,
  sessionAuthentication,
  DomainError,
  type ActionDef,
  type ResourceConfig,
  type RestPlugin,
  type Row,
  type Value,
} from '../../src/index.js';

/** What the reference app does once a post is published (it announces it on the `news` channel). */
export type OnPublished = (post: Row) => unknown;
/** How the reference app mails a post to the caller who asked (it enqueues `export_post`). */
export type OnExport = (userId: Value, post: Record<string, unknown>) => Promise<unknown>;

/** `POST /api/post/{id}/publish/`: marks the post published and answers it (REFERENCE-APP.md). */
const publishAction = (onPublished: OnPublished): ActionDef => ({
  name: 'publish',
  method: 'POST',
  scope: 'Detail',
  summary: 'Publish a post',
  input: {
    type: 'object',
    required: ['reason'],
    properties: { reason: { type: 'string' }, channel: { type: 'string', enum: ['web', 'email'] } },
  },
  output: { $ref: '#/components/schemas/Post' },
  async handler({ row }, { store, present }) {
    const updated = await store.update('post', row?.id ?? null, { published: true });
    if (updated) await onPublished(updated);
    return { status: 200, body: updated ? present(updated) : null };
  },
});

/** `POST /api/post/{id}/export/`: 202; a task mails the caller the post, as this resource shows it to them, as `post-<id>.json`. */
const exportAction = (onExport: OnExport): ActionDef => ({
  name: 'export',
  method: 'POST',
  scope: 'Detail',
  summary: 'Mail the post to the caller as a JSON attachment',
  status: 202,
  output: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['accepted'] } } },
  async handler({ row, identity }, { present }) {
    if (!row) throw new DomainError('not_found', 'not found');
    await onExport(identity.id, present(row));
    return { body: { status: 'accepted' } };
  },
});

/** `GET /api/post/recent/?limit=5`: the latest published posts, newest first (default 5, at most 50). */
const recentAction: ActionDef = {
  name: 'recent',
  method: 'GET',
  scope: 'List',
  summary: 'The latest published posts',
  output: { type: 'array', items: { $ref: '#/components/schemas/Post' } },
  async handler({ query }, { store, present }) {
    const raw = Array.isArray(query.limit) ? query.limit[0] : query.limit;
    const n = raw === undefined ? 5 : Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new DomainError('invalid_query', 'invalid query parameter "limit"');
    const rows = await store.find('post', {
      where: { column: 'published', op: 'eq', value: true },
      orderBy: [
        { column: 'created_at', direction: 'desc' },
        { column: 'id', direction: 'desc' },
      ],
      limit: Math.min(n, 50),
    });
    return { body: rows.map((r) => present(r)) };
  },
};

/** Per-table REST configuration (REFERENCE-APP.md "Models and REST configuration"). */
/** The resources of REFERENCE-APP.md; `onPublished` runs after the `publish` action. */
export const referenceResources = (onPublished: OnPublished = () => undefined, onExport: OnExport = async () => undefined): ResourceConfig[] => [
  { table: 'author', permission: AllowAny, hide: ['secret_note'], nested: [{ key: 'links', table: 'link' }] },
  {
    table: 'post',
    permission: IsAuthenticated,
    noform: ['created_by_id'],
    bulk: true,
    nested: [{ key: 'comments', table: 'comment' }],
    actions: [publishAction(onPublished), recentAction, exportAction(onExport)],
  },
  { table: 'comment', permission: AllowAny, hide: ['moderation_note'], nested: [{ key: 'replies', table: 'reply' }] },
  { table: 'reply', permission: AllowAny },
  { table: 'tag', permission: AllowAny, bulk: true },
  { table: 'ticket', permission: AllowAny, views: ['List', 'Retrieve'] },
  { table: 'shop_order', permission: AllowAny, bulk: true, nested: [{ key: 'items', table: 'order_item' }] },
  { table: 'order_item', permission: AllowAny, hide: ['secret'], bulk: true, nested: [{ key: 'parts', table: 'item_part' }] },
  { table: 'item_part', permission: AllowAny },
  { table: 'project', permission: AllowAny },
  { table: 'milestone', permission: AllowAny, under: { parent: 'project', fk: 'project_id' }, bulk: true },
  { table: 'member', permission: AllowAny },
  { table: 'secret_config', permission: AllowAny },
  { table: 'staff_report', permission: IsStaff },
  { table: 'link', permission: AllowAny },
  { table: 'list_only', permission: AllowAny, views: ['List'] },
  // The model's row policy (ownedBy owner_id) keeps each caller to their own notes.
  { table: 'note', permission: IsAuthenticated },
  { table: 'attachment', permission: IsAuthenticated },
];

/** The REST plugin of the reference app; `PROFILE=allowlist` serves only author and post. */
export function referenceRest(profile: string | undefined, onPublished?: OnPublished, onExport?: OnExport): RestPlugin {
  const plugin = rest()
    .authenticate(chainAuthentication(sessionAuthentication(), bearerAuthentication()))
    .resources(referenceResources(onPublished, onExport))
    .exclude(['secret_config']);
  if (profile === 'allowlist') plugin.includeOnly(['author', 'post']).expose(['auth_user']).exclude(['auth_user']);
  return plugin;
}
