/**
 * How a stored file is answered (issue 51): images of this list open in the browser; anything
 * else downloads (`Content-Disposition: attachment`), and every answer carries
 * `X-Content-Type-Options: nosniff` and a sandboxing CSP, so an uploaded page or SVG never runs.
 */
export const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** The CSP of every stored file's answer: nothing loads, and the document is sandboxed. */
export const MEDIA_CSP = "default-src 'none'; sandbox";

/** How long a media URL works unless the host says otherwise. */
export const MEDIA_URL_SECONDS = 3600;

/** A client's file name made safe to keep and to show: no path, no control characters, at most 200 characters. */
export function safeDisplayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').replace(/^\.+/, '').trim().slice(0, 200);
  return clean || 'file';
}
