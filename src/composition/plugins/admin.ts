import { AdminRows } from '../../application/admin/admin-rows.js';
import { DeleteAdminRecords } from '../../application/admin/delete-admin-records.js';
import { ListAdminRows } from '../../application/admin/list-admin-rows.js';
import { AdminVersions } from '../../application/admin/admin-versions.js';
import { SaveAdminRecord } from '../../application/admin/save-admin-record.js';
import { ReadAdminHistory } from '../../application/admin/read-admin-history.js';
import { RestoreAdminRecord } from '../../application/admin/restore-admin-record.js';
import { SetUserPassword } from '../../application/admin/set-user-password.js';
import { ReviewJobs } from '../../application/tasks/tasks.js';
import { adminRoutes } from '../../adapters/http-koa/index.js';
import { adminTables, type AdminModelOptions } from '../../domain/admin/admin-config.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface AdminOptions {
  /** Mount point (default `/admin`). */
  readonly prefix?: string;
  /**
   * The host's login page: anonymous callers are sent to `<loginUrl>?redirect=<admin path>`, and
   * the admin serves no login form of its own. Default: the admin's own `<prefix>/login/`.
   */
  readonly loginUrl?: string;
  /**
   * The app label of the admin's permission codenames: `<appLabel>.view_<table>`, `add_`,
   * `change_`, `delete_` (default `app`). Only read when the permissions plugin is mounted.
   */
  readonly appLabel?: string;
  /** Per-table options (list columns, search, filters, read-only fields, fieldsets, ordering, label, hidden). */
  readonly models?: Readonly<Record<string, AdminModelOptions>>;
  /** Tables the admin leaves out (besides Portico's internal tables and many-to-many junctions). */
  readonly exclude?: readonly string[];
}

/**
 * The admin site: server-rendered HTML pages (no script, no CDN) to list, search, filter, add,
 * change and delete the rows of every model the REST exposure rules serve by default, plus
 * `auth_user`. Only staff users get in; with the permissions plugin mounted, each table needs
 * `<appLabel>.view_/add_/change_/delete_<table>` (superusers have all); without it every staff
 * user has all. Every write goes through the shared write path (field policy, privileged
 * columns, signals) and leaves a row in `admin_audit_log`. It serves its own login and logout
 * pages (`<prefix>/login/`, `<prefix>/logout/`) through the app's login use case and throttle,
 * unless `loginUrl` names the host's. With `tasks()` mounted, `<prefix>/jobs` lists the task
 * queue's jobs for staff, with Retry for dead ones (docs/admin.md "Jobs"). Mount it after
 * `sessions()`, `security()` and `auth()` (and `permissions()` if used); without sessions() or
 * auth() before it, the app refuses to start.
 *
 * @example
 * app.use(sessions()).use(security()).use(auth()).use(permissions())
 *   .use(admin({ models: { post: { listDisplay: ['id', 'title', 'author_id', 'published'], searchFields: ['title'] } } }));
 */
export function admin(options: AdminOptions = {}): Plugin {
  return {
    name: 'admin',
    install(ctx: PluginContext) {
      // Without a session and the login use case nobody could ever sign in: refuse to start.
      const missing = [ctx.getOptional(TOKENS.Sessions) ? undefined : 'sessions()', ctx.getOptional(TOKENS.LogIn) ? undefined : 'auth()'].filter((name) => name !== undefined);
      if (missing.length > 0) throw new Error(`admin() needs ${missing.join(' and ')} mounted before it`);
      const logIn = ctx.get(TOKENS.LogIn);
      const raw = options.prefix ?? '/admin';
      const prefix = raw.endsWith('/') ? raw.slice(0, -1) : raw;
      for (const table of Object.keys(options.models ?? {})) {
        if (!ctx.registry.has(table)) throw new Error(`admin: models.${table} names no registered model`);
      }
      const models = new Map(adminTables(ctx.registry, new Set(options.exclude ?? [])).map((model) => [model.table, { model, options: options.models?.[model.table] ?? {} }]));
      // Every unsafe request under the admin needs the CSRF token, with or without a session cookie.
      ctx.getOptional(TOKENS.CsrfProtectedPrefixes)?.add(prefix === '' ? '/' : prefix);
      const versions = new AdminVersions(ctx.get(TOKENS.EntityTags));
      // The jobs page exists with tasks(), mounted before or after this plugin: looked up when a
      // request asks (the index, <prefix>/jobs). A managed table named `jobs` keeps its URL.
      let review: ReviewJobs | undefined;
      const reviewJobs = (): ReviewJobs | undefined => {
        if (review || models.has('jobs')) return review;
        const client = ctx.getOptional(TOKENS.Tasks);
        review = client ? new ReviewJobs(client) : undefined;
        return review;
      };
      const routes = adminRoutes({
        prefix,
        loginUrl: options.loginUrl,
        logIn,
        appLabel: options.appLabel ?? 'app',
        registry: ctx.registry,
        rows: new AdminRows(ctx.store, ctx.registry),
        history: new ReadAdminHistory(ctx.store, ctx.registry),
        models,
        permissions: ctx.getOptional(TOKENS.CheckPermission),
        list: new ListAdminRows(ctx.store, ctx.registry),
        save: new SaveAdminRecord(ctx.store, ctx.registry, versions),
        versions,
        remove: new DeleteAdminRecords(ctx.store, ctx.registry),
        setPassword: new SetUserPassword(ctx.store, ctx.hasher),
        restore: new RestoreAdminRecord(ctx.store),
        jobs: reviewJobs,
        files: () => ctx.getOptional(TOKENS.StoredFiles),
      });
      for (const route of routes) ctx.route(route);
    },
  };
}
