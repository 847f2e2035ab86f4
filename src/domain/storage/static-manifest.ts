/**
 * Static files (issue 51): the names a request may ask for, and the manifest `portico
 * collectstatic` writes (whitenoise's and Django's ManifestStaticFilesStorage's idea): every file
 * also under a name holding a hash of its bytes, served immutable for a year.
 */

/** What collectstatic wrote: each file's hashed name, and which precompressed copies exist. */
export interface StaticManifest {
  readonly version: 1;
  /** `site.css` → `site.3f2a9c1d0b7e.css`. */
  readonly paths: Readonly<Record<string, string>>;
  /** Both names of a file → the encodings written beside it (`br`, `gzip`). */
  readonly encoded: Readonly<Record<string, readonly ('br' | 'gzip')[]>>;
}

/** The manifest's file name in the collected folder. */
export const MANIFEST_FILE = 'staticfiles.json';

/**
 * The relative file name a decoded static path names, or undefined when it names none the
 * server may serve: empty, a NUL or another control character, a backslash, an absolute path,
 * an empty, `.` or `..` segment, or a dotfile (`.env`, `.git/`).
 */
export function staticName(decoded: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (!decoded || decoded.length > 1024 || /[\u0000-\u001f\u007f\\]/.test(decoded)) return undefined;
  const segments = decoded.split('/');
  if (segments.some((s) => s === '' || s.startsWith('.'))) return undefined;
  return decoded;
}

/** `name` with `hash` before its extension: `css/site.css` → `css/site.<hash>.css`. */
export function hashedName(name: string, hash: string): string {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  return dot > slash + 1 ? `${name.slice(0, dot)}.${hash}${name.slice(dot)}` : `${name}.${hash}`;
}

/** Reads a manifest's JSON text, or undefined when it is not one. */
export function readManifest(text: string): StaticManifest | undefined {
  try {
    const value = JSON.parse(text) as Partial<StaticManifest>;
    if (value.version !== 1 || typeof value.paths !== 'object' || value.paths === null || typeof value.encoded !== 'object' || value.encoded === null) return undefined;
    return value as StaticManifest;
  } catch {
    return undefined;
  }
}
