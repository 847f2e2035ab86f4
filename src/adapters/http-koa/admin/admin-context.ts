import type { StoredFiles } from '../../../application/storage/stored-files.js';
import type { AdminRights, PermissionSource } from '../../../application/admin/admin-rights.js';
import { adminRights } from '../../../application/admin/admin-rights.js';
import type { AdminRows } from '../../../application/admin/admin-rows.js';
import type { DeleteAdminRecords } from '../../../application/admin/delete-admin-records.js';
import type { LogIn } from '../../../application/auth/log-in.js';
import type { ListAdminRows } from '../../../application/admin/list-admin-rows.js';
import type { SaveAdminRecord } from '../../../application/admin/save-admin-record.js';
import type { AdminVersions } from '../../../application/admin/admin-versions.js';
import type { ReadAdminHistory } from '../../../application/admin/read-admin-history.js';
import type { RestoreAdminRecord } from '../../../application/admin/restore-admin-record.js';
import type { SetUserPassword } from '../../../application/admin/set-user-password.js';
import type { ReviewJobs } from '../../../application/tasks/tasks.js';
import { adminPolicy, type AdminModelOptions, type AdminPolicy } from '../../../domain/admin/admin-config.js';
import type { Identity } from '../../../domain/auth/identity.js';
import { isSafePath } from '../../../domain/auth/redirect-guard.js';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../../domain/model/model-registry.js';
import type { ModelDef } from '../../../domain/model/types.js';
import { sessionAuthentication } from '../authentication.js';
import type { HttpRequest, HttpResponse } from '../http-route.js';
import { problemHeaders, STATUS_BY_CODE, statusTitle, toProblem } from '../problem-mapping.js';
import { csrfInput } from './csrf.js';
import { html, layout } from './html.js';
import type { SafeHtml } from '../safe-html.js';

/** Everything the admin's routes are built from (wired by the admin plugin). */
export interface AdminDeps {
  readonly prefix: string;
  /**
   * The host's login page when it gives one (`loginUrl`); undefined: the admin's own,
   * `<prefix>/login/`. Anonymous callers are sent there with `?redirect=<admin path>`.
   */
  readonly loginUrl: string | undefined;
  /** The login use case the app's form login uses (its throttle, its checks). */
  readonly logIn: LogIn;
  readonly appLabel: string;
  readonly registry: ModelRegistry;
  /** Every read of rows, within the caller's row policy (superusers: every row); the pages never read the store themselves. */
  readonly rows: AdminRows;
  readonly history: ReadAdminHistory;
  /** The managed tables, in index order, with their options. */
  readonly models: ReadonlyMap<string, { readonly model: ModelDef; readonly options: AdminModelOptions }>;
  readonly permissions: PermissionSource | undefined;
  readonly list: ListAdminRows;
  readonly save: SaveAdminRecord;
  /** The versions change forms carry (the row's entity tag) and saves compare. */
  readonly versions: AdminVersions;
  readonly remove: DeleteAdminRecords;
  readonly setPassword: SetUserPassword;
  readonly restore: RestoreAdminRecord;
  /**
   * The jobs page's use case when the tasks battery is mounted (resolved when asked: tasks() may
   * be mounted after the admin); undefined: there is no jobs page (`<prefix>/jobs` is a 404).
   */
  readonly jobs: () => ReviewJobs | undefined;
  /** The files of file columns (the storage() plugin; resolved when asked, as it may be mounted later). */
  readonly files: () => StoredFiles | undefined;
}

/** One admin request: the caller (a staff user), their rights, and page helpers. */
export interface AdminCall {
  readonly req: HttpRequest;
  readonly deps: AdminDeps;
  readonly identity: Identity;
  readonly rights: AdminRights;
  /** A full HTML page. */
  page(title: string, crumbs: readonly [string, string | null][], body: SafeHtml, status?: number): Promise<HttpResponse>;
  /** The table of the URL, when managed and the caller may `action` it; throws not_found / forbidden. */
  entry(action: 'view' | 'add' | 'change' | 'delete'): { model: ModelDef; options: AdminModelOptions; policy: AdminPolicy; label: string };
}

const redirect = (location: string): HttpResponse => ({ status: 303, headers: { location }, body: '' });

/** Where anonymous callers sign in: the host's `loginUrl`, else the admin's own login page. */
export const loginPagePath = (deps: AdminDeps): string => deps.loginUrl ?? `${deps.prefix}/login/`;

/** The login page with a way back to `target` when it is a safe site-relative path, else to the admin index. */
export const loginRedirect = (deps: AdminDeps, target: string | undefined): string =>
  `${loginPagePath(deps)}?redirect=${encodeURIComponent(isSafePath(target) ? target : `${deps.prefix}/`)}`;

/** The table label shown in the admin. */
export const tableLabel = (deps: AdminDeps, table: string): string => deps.models.get(table)?.options.label ?? table;

/**
 * An expected error as an HTML page: its status is REST's (`STATUS_BY_CODE`, the one table HTTP
 * maps codes with), its heading that status's title, with the headers a problem answer would carry
 * (`Retry-After`, `Allow`, …).
 */
async function errorPage(call: AdminCall, e: DomainError): Promise<HttpResponse> {
  const status = STATUS_BY_CODE[e.code];
  // A refused list parameter is described generically: the caller's parameter names are not echoed (nothing hidden can be probed).
  const detail = e.code === 'invalid_query' ? 'This list cannot be filtered or ordered that way.' : e.detail;
  const page = await call.page(statusTitle(status), [['Home', `${call.deps.prefix}/`]], html`<p class="error">${detail}</p>`, status);
  const headers = problemHeaders(toProblem(e), e);
  return Object.keys(headers).length > 0 ? { ...page, headers: { ...page.headers, ...headers } } : page;
}

/**
 * Wraps an admin handler: an anonymous caller is sent to the login page (303, with a safe
 * `redirect` back), a signed-in caller who is not staff gets a 403 page; an expected error (a
 * DomainError) becomes a page with the status REST gives its code, never a 500.
 */
export function adminHandler(deps: AdminDeps, handler: (call: AdminCall) => Promise<HttpResponse>): (req: HttpRequest) => Promise<HttpResponse> {
  return async (req) => {
    const identity = await req.identity(sessionAuthentication());
    if (!identity.isAuthenticated) return redirect(loginRedirect(deps, req.path));
    const call = makeCall(req, deps, identity, await adminRights(identity, deps.appLabel, deps.permissions));
    if (!identity.isStaff) return call.page('Forbidden', [], html`<p class="error">Only staff users may use the admin.</p>`, 403);
    try {
      return await handler(call);
    } catch (e) {
      if (e instanceof DomainError) return errorPage(call, e);
      throw e;
    }
  };
}

function makeCall(req: HttpRequest, deps: AdminDeps, identity: Identity, rights: AdminRights): AdminCall {
  const logout = html`<form method="post" action="${deps.prefix}/logout/">${csrfInput(req)}<button type="submit" class="secondary">Log out</button></form>`;
  return {
    req,
    deps,
    identity,
    rights,
    async page(title, crumbs, body, status = 200) {
      const flash = req.session ? await req.session.takeFlash() : [];
      const flashHtml = flash.map((m) => html`<p class="flash ${m.level === 'error' ? 'error' : ''}" role="status">${m.body}</p>`);
      return { status, type: 'text/html; charset=utf-8', body: layout({ title, prefix: deps.prefix, username: identity.username, logout, crumbs, body, flash: html`${flashHtml}` }) };
    },
    entry(action) {
      const table = req.params.table ?? '';
      const found = deps.models.get(table);
      if (!found) throw new DomainError('not_found', `no admin page for "${table}"`);
      if (!rights.can(table, action)) throw new DomainError('forbidden', `you may not ${action} ${tableLabel(deps, table)}`);
      return { ...found, policy: adminPolicy(found.model, found.options, identity.isSuperuser, action === 'add'), label: tableLabel(deps, table) };
    },
  };
}

export { redirect };
