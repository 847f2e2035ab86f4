/** Where files are stored, as `STORAGE_URL` names it (REFERENCE-APP.md). */
export type StorageChoice =
  | { readonly kind: 'file'; readonly dir: string }
  | { readonly kind: 's3'; readonly bucket: string; readonly endpoint?: string; readonly region?: string }
  | { readonly kind: 'memory' };

/**
 * Reads `file:<dir>`, `s3://<bucket>?endpoint=<url>&region=<r>` or `memory:`; throws one line
 * naming `variable` for anything else.
 */
export function parseStorageUrl(text: string, variable = 'STORAGE_URL'): StorageChoice {
  const hint = `${variable} is file:<dir>, s3://<bucket>?endpoint=<url>&region=<region> or memory:`;
  if (text === 'memory:') return { kind: 'memory' };
  if (text.startsWith('file:')) {
    const dir = text.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (!dir) throw new Error(`${hint}; got ${JSON.stringify(text)} (no folder)`);
    return { kind: 'file', dir };
  }
  if (text.startsWith('s3://')) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Error(`${hint}; got ${JSON.stringify(text)}`);
    }
    const bucket = url.hostname;
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || (url.pathname !== '' && url.pathname !== '/')) throw new Error(`${hint}; got ${JSON.stringify(text)} (not a bucket name)`);
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    if (endpoint !== undefined && !/^https?:\/\/[^/?#\s]+\/?$/.test(endpoint)) throw new Error(`${hint}; got endpoint ${JSON.stringify(endpoint)}`);
    const region = url.searchParams.get('region') ?? undefined;
    return { kind: 's3', bucket, ...(endpoint ? { endpoint: endpoint.replace(/\/$/, '') } : {}), ...(region ? { region } : {}) };
  }
  throw new Error(`${hint}; got ${JSON.stringify(text)}`);
}
