/**
 * The open-redirect guard (SPEC "Form authentication" 3, DESIGN §3 "form redirects"): only
 * site-relative paths are followed.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** True for a path that starts with exactly one `/`, with no `\` and no control characters. */
export function isSafePath(target: string | undefined | null): target is string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return false;
  if (!target.startsWith('/') || target.startsWith('//')) return false;
  if (target.includes('\\') || CONTROL.test(target)) return false;
  return true;
}

/** Where a successful form post goes: a safe `redirect`, else `/`. */
export function successTarget(redirect: string | undefined): string {
  return isSafePath(redirect) ? redirect : '/';
}

/**
 * Where a failed form post goes: the same-host Referer's path, else a safe `redirect`, else `/`.
 * The Referer counts only when its host equals the request's host exactly.
 */
export function failureTarget(referer: string | undefined, host: string | undefined, redirect: string | undefined): string {
  if (referer && host) {
    try {
      const url = new URL(referer);
      const path = `${url.pathname}${url.search}`;
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.host === host && isSafePath(path)) return path;
    } catch {
      // An unparsable Referer is ignored.
    }
  }
  return successTarget(redirect);
}
