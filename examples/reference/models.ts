import { c, defineModel, type MigrationDef } from '../../src/index.js';

/** The reference app's models (REFERENCE-APP.md "Models and REST configuration"). */
export const REFERENCE_MODELS = [
  defineModel('author', {
    id: c.id(),
    name: c.text(),
    bio: c.text().nullable(),
    email: c.text().nullable(),
    secret_note: c.text().nullable(),
  }),
  defineModel(
    'post',
    {
      id: c.id(),
      title: c.text(),
      body: c.text().nullable(),
      author_id: c.fk('author'),
      created_by_id: c.fk('auth_user').nullable(),
      published: c.bool().default(false),
      featured: c.bool().default(false).privileged(),
      score: c.int().default(0).private(),
      created_at: c.timestamp().defaultNow(),
      deleted_at: c.timestamp().nullable(),
    },
    { manyToMany: { tags: { target: 'tag', through: 'post_tags' } }, setOnCreate: { created_by_id: (who) => who.id } },
  ),
  defineModel('comment', {
    id: c.id(),
    post_id: c.fk('post'),
    body: c.text(),
    votes: c.int().default(0),
    moderation_note: c.text().nullable(),
  }),
  defineModel('reply', { id: c.id(), comment_id: c.fk('comment'), body: c.text() }),
  defineModel('tag', { id: c.stringId(), label: c.text() }),
  defineModel('ticket', { id: c.uuidId(), title: c.text() }),
  defineModel('shop_order', { id: c.id(), customer: c.text(), created_at: c.timestamp().defaultNow() }),
  defineModel('order_item', {
    id: c.id(),
    order_id: c.fk('shop_order'),
    sku: c.text(),
    qty: c.int(),
    secret: c.text().nullable(),
  }),
  defineModel('item_part', { id: c.id(), item_id: c.fk('order_item'), name: c.text() }),
  defineModel('project', { id: c.id(), name: c.text() }),
  defineModel('milestone', { id: c.id(), project_id: c.fk('project'), title: c.text(), due: c.date().nullable() }),
  defineModel('member', {
    id: c.id(),
    username: c.text().unique(),
    password_hash: c.text().nullable(),
    nickname: c.text().nullable(),
  }),
  defineModel('secret_config', { id: c.id(), key: c.text().nullable(), value: c.text().nullable() }),
  defineModel('staff_report', { id: c.id(), title: c.text(), body: c.text().nullable() }),
  defineModel('announcement', { id: c.id(), title: c.text() }),
  defineModel('link', {
    id: c.id(),
    from_author_id: c.fk('author'),
    to_author_id: c.fk('author'),
    label: c.text().nullable(),
  }),
  defineModel('list_only', { id: c.id(), name: c.text() }),
  // REFERENCE-APP.md "Row policy and versions": a caller reaches only their own notes, on every surface.
  defineModel('note', { id: c.id(), owner_id: c.fk('auth_user'), body: c.text() }, { ownedBy: 'owner_id', setOnCreate: { owner_id: (who) => who.id } }),
  // REFERENCE-APP.md "Storage": a file uploaded through REST, shown by every surface with a signed link.
  defineModel('attachment', {
    id: c.id(),
    post_id: c.fk('post'),
    file: c.file({ maxBytes: 5 * 1024 * 1024, accept: ['image/png', 'image/jpeg', 'application/pdf', 'text/plain'] }),
  }),
];

/** Tables a later migration adds (an existing database gets them from it, not from 0001). */
const LATER: ReadonlySet<string> = new Set(['note', 'attachment']);

/** The reference app's schema in the fw_migrations ledger: the first tables, then each later one's migration. */
export const REFERENCE_MIGRATIONS: MigrationDef[] = [
  { name: 'reference_0001_initial', createTables: [...REFERENCE_MODELS.map((m) => m.table).filter((t) => !LATER.has(t)), 'post_tags'] },
  { name: 'reference_0002_note', createTables: ['note'] },
  { name: 'reference_0003_attachment', createTables: ['attachment'] },
];
