import { c } from './column.js';
import { defineModel } from './define-model.js';
import type { SchemaOf } from './typed-model.js';
import type { MigrationDef } from './migration.js';

/**
 * The tables Portico itself owns (SPEC "Resources": auth_user; DESIGN §3 block-list).
 * They are registered in every app so foreign keys such as `post.created_by_id` can target them.
 */
export const BUILTIN_MODELS = [
  defineModel('auth_user', {
    id: c.id(),
    username: c.text().uniqueIgnoreCase(),
    email: c.text().uniqueIgnoreCase(),
    password_hash: c.text().nullable().hidden(),
    is_staff: c.bool().default(false).privileged(),
    is_superuser: c.bool().default(false).privileged(),
    is_active: c.bool().default(true).privileged(),
    date_joined: c.timestamp().defaultNow(),
    last_login: c.timestamp().nullable(),
    email_verified_at: c.timestamp().nullable(),
  }),
  defineModel('session', {
    id: c.id(),
    token_hash: c.text().unique(),
    user_id: c.fk('auth_user').nullable(),
    data: c.json().default({}),
    created_at: c.timestamp().defaultNow(),
    expires_at: c.timestamp(),
  }),
  defineModel('auth_token', {
    id: c.id(),
    token_hash: c.text().unique(),
    user_id: c.fk('auth_user'),
    created_at: c.timestamp().defaultNow(),
    last_used_at: c.timestamp().nullable(),
  }),
  defineModel('auth_email_code', {
    id: c.id(),
    user_id: c.fk('auth_user'),
    code_hash: c.text(),
    attempts: c.int().default(0),
    created_at: c.timestamp().defaultNow(),
    expires_at: c.timestamp(),
    used_at: c.timestamp().nullable(),
    invalidated_at: c.timestamp().nullable(),
  }),
  // A password reset token, stored only as a keyed digest; one live per user (a new request, a login or a password change ends it).
  defineModel('auth_password_reset', {
    id: c.id(),
    user_id: c.fk('auth_user'),
    token_hash: c.text().unique(),
    created_at: c.timestamp().defaultNow(),
    expires_at: c.timestamp(),
    used_at: c.timestamp().nullable(),
    invalidated_at: c.timestamp().nullable(),
  }),
  // An account at an external identity provider linked to a user (social login). The provider's
  // tokens are sealed (AES-256-GCM, a key id, the provider and user as associated data).
  defineModel(
    'social_account',
    {
      id: c.id(),
      user_id: c.fk('auth_user'),
      provider: c.text(),
      subject: c.text(),
      email: c.text().nullable(),
      access_token: c.text().nullable().hidden(),
      refresh_token: c.text().nullable().hidden(),
      expires_at: c.timestamp().nullable(),
      created_at: c.timestamp().defaultNow(),
      updated_at: c.timestamp().defaultNow(),
    },
    { uniqueTogether: [['provider', 'subject'], ['user_id', 'provider']] },
  ),
  // The cache of `cache({ url: 'database' })`: one encoded entry per key (base64), its expiry in
  // epoch milliseconds of the app's clock, and its tags as `|a|b|`.
  defineModel('portico_cache', { key: c.stringId(), entry: c.text(), expires_at: c.float(), tags: c.text().default('') }),
  defineModel('auth_throttle', {
    key: c.stringId(),
    hits: c.int().default(0),
    window_ends_at: c.timestamp(),
  }),
  defineModel(
    'permissions_contenttype',
    { id: c.id(), app_label: c.text(), model: c.text() },
    { uniqueTogether: [['app_label', 'model']] },
  ),
  defineModel(
    'permissions_permission',
    { id: c.id(), codename: c.text(), name: c.text(), content_type_id: c.fk('permissions_contenttype') },
    { uniqueTogether: [['content_type_id', 'codename']] },
  ),
  defineModel('permissions_group', { id: c.id(), name: c.text().unique() }),
  defineModel(
    'permissions_usergroup',
    { id: c.id(), user_id: c.fk('auth_user'), group_id: c.fk('permissions_group') },
    { uniqueTogether: [['user_id', 'group_id']] },
  ),
  defineModel(
    'permissions_userpermission',
    { id: c.id(), user_id: c.fk('auth_user'), permission_id: c.fk('permissions_permission') },
    { uniqueTogether: [['user_id', 'permission_id']] },
  ),
  defineModel(
    'permissions_grouppermission',
    { id: c.id(), group_id: c.fk('permissions_group'), permission_id: c.fk('permissions_permission') },
    { uniqueTogether: [['group_id', 'permission_id']] },
  ),
  // The task queue (docs/tasks.md); created by portico_0004_task_queue, which replaced the unused
  // placeholder portico_0001 made. Read and written only through the task queue adapter.
  defineModel('task_row', {
    id: c.id(),
    name: c.text(),
    queue: c.text().default('default'),
    payload: c.json().nullable(),
    state: c.text().default('queued'),
    priority: c.int().default(0),
    attempts: c.int().default(0),
    max_attempts: c.int().default(1),
    run_at: c.timestamp(),
    lease_until: c.timestamp().nullable(),
    locked_by: c.text().nullable(),
    unique_key: c.text().nullable(),
    last_error: c.text().nullable(),
    created_at: c.timestamp(),
    finished_at: c.timestamp().nullable(),
    // What the running handler last reported (`ctx.progress(n)`, 0-100), added by portico_0005.
    progress: c.int().nullable(),
  }),
  defineModel('admin_audit_log', {
    id: c.id(),
    user_id: c.fk('auth_user').nullable(),
    action: c.text(),
    table_name: c.text(),
    row_id: c.text(),
    changes: c.json().nullable(),
    created_at: c.timestamp().defaultNow(),
  }),
  // DESIGN §3 "idempotency": the first answer to a request sent with an Idempotency-Key, per caller.
  defineModel(
    'idempotency_key',
    {
      id: c.id(),
      key: c.text(),
      scope: c.text(),
      fingerprint: c.text(),
      status: c.int().nullable(),
      response: c.json().nullable(),
      created_at: c.timestamp().defaultNow(),
    },
    { uniqueTogether: [['key', 'scope']] },
  ),
] as const;

/** Portico's own tables, typed: every app's schema holds them (`app.store.find('auth_user')`). */
export type BuiltinSchema = SchemaOf<typeof BUILTIN_MODELS>;

/** Tables added by a later built-in migration (an existing database gets them from it, not from 0001). */
const LATER: ReadonlySet<string> = new Set(['idempotency_key', 'task_row', 'auth_password_reset', 'social_account', 'portico_cache']);

/** The migration that creates Portico's own tables; always first in the ledger. */
export const BUILTIN_MIGRATIONS: readonly MigrationDef[] = [
  {
    name: 'portico_0001_builtin_tables',
    createTables: BUILTIN_MODELS.map((m) => m.table).filter((t) => !LATER.has(t)),
  },
  { name: 'portico_0002_idempotency_keys', createTables: ['idempotency_key'] },
  {
    // Events too large for a PostgreSQL NOTIFY travel by reference through this table (the
    // PostgreSQL event bus). Not a model: no surface can serve it.
    name: 'portico_0003_event_payloads',
    sql: {
      postgresql: ['create table portico_event_payload (id bigserial primary key, body text not null, created_at timestamptz not null default now())'],
    },
  },
  {
    // The task queue. A database migrated before this had an unused placeholder task_row (never
    // written): it is replaced. The partial unique index makes a unique key unique among
    // unfinished jobs only; the second index serves claims, the third retention and lease sweeps.
    name: 'portico_0004_task_queue',
    sql: { sqlite: taskQueueSql('sqlite'), postgresql: taskQueueSql('postgresql') },
  },
  {
    // A running job's progress, as its handler reports it (`ctx.progress(n)`).
    name: 'portico_0005_task_progress',
    sql: { sqlite: ['alter table "task_row" add column "progress" integer null'], postgresql: ['alter table "task_row" add column "progress" integer null'] },
  },
  { name: 'portico_0006_password_reset', createTables: ['auth_password_reset'] },
  { name: 'portico_0007_social_account', createTables: ['social_account'] },
  { name: 'portico_0008_cache', createTables: ['portico_cache'] },
];

/** The DDL of `task_row` (kept by hand to match the model above: a partial index has no model form). */
function taskQueueSql(dialect: 'sqlite' | 'postgresql'): string[] {
  const pg = dialect === 'postgresql';
  const time = pg ? 'timestamptz' : 'datetime';
  return [
    'drop table if exists "task_row"',
    [
      'create table "task_row" (',
      pg ? '"id" serial primary key,' : '"id" integer not null primary key autoincrement,',
      '"name" text not null, "queue" text not null default \'default\',',
      `"payload" ${pg ? 'jsonb' : 'json'} null, "state" text not null default 'queued',`,
      '"priority" integer not null default 0, "attempts" integer not null default 0, "max_attempts" integer not null default 1,',
      `"run_at" ${time} not null, "lease_until" ${time} null, "locked_by" text null, "unique_key" text null,`,
      `"last_error" text null, "created_at" ${time} not null, "finished_at" ${time} null)`,
    ].join(' '),
    `create unique index "task_row_unique_key_unfinished" on "task_row" ("unique_key") where "state" in ('queued', 'running', 'failed')`,
    // A claim reads waiting jobs of a queue in priority order: this partial index hands them over in that order, without a sort.
    `create index "task_row_waiting" on "task_row" ("queue", "priority" desc, "run_at", "id") where "state" in ('queued', 'failed')`,
    'create index "task_row_state" on "task_row" ("state", "finished_at")',
  ];
}
