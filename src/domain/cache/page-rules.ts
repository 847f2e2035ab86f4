/**
 * Which answers `cachePage` keeps and under which key (issue 52): GET and HEAD only, from a
 * caller without credentials (no `Authorization`, no session cookie), 200 answers only, never one
 * that sets a cookie or says `private` or `no-store`. The key holds the host, the path, the query
 * sorted and the values of the `Vary` headers, so two requests share an entry only when they would
 * get the same page.
 */

/** How a route's answers are cached. */
export interface PageCacheRule {
  /** Seconds an answer is kept: a positive number. */
  readonly ttl: number;
  /** Request headers the answer varies by (their values join the key). */
  readonly vary?: readonly string[];
  /** Models whose committed writes drop the route's answers (`['post']`). */
  readonly dependsOn?: readonly string[];
}

/** The tag every cached page of routes depending on `table` carries. */
export const pageTag = (table: string): string => `page-table:${table}`;

/** The key of a request's page: method class, host, path, sorted query, the varied header values. */
export function pageKey(request: { readonly host: string; readonly path: string; readonly query: string; readonly header: (name: string) => string }, vary: readonly string[] = []): string {
  const query = request.query === '' ? '' : request.query.split('&').sort().join('&');
  const varied = vary.map((name) => `${name.toLowerCase()}=${request.header(name)}`).join('\n');
  return `page:GET\n${request.host.toLowerCase()}\n${request.path}\n${query}\n${varied}`;
}

/** True when an answer may be kept for everyone: a 200 that sets no cookie and is not `private` or `no-store`. */
export function mayStore(status: number, setsCookie: boolean, cacheControl: string): boolean {
  return status === 200 && !setsCookie && !/(?:^|,)\s*(?:private|no-store)\b/i.test(cacheControl);
}

/** A route's rule checked when the app is built; a TTL of 0 or less throws, naming the route. */
export function checkPageRule(rule: PageCacheRule, route: string): PageCacheRule {
  if (typeof rule.ttl !== 'number' || !Number.isFinite(rule.ttl) || rule.ttl <= 0) throw new Error(`cachePage on ${route}: the TTL must be a positive number of seconds, got ${String(rule.ttl)}`);
  return rule;
}
