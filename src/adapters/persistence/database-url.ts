/** A parsed database address (REFERENCE-APP.md "Starting it"). */
export type DatabaseConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sql'; readonly dialect: 'sqlite'; readonly file: string }
  | {
      readonly kind: 'sql';
      readonly dialect: 'postgresql';
      readonly url: string;
      readonly schema?: string;
      /** Server-side cap on one statement (`?statement_timeout=` ms; default 5 000). */
      readonly statementTimeoutMs: number;
      /** Server-side cap on waiting for a lock (`?lock_timeout=` ms; default 2 000). */
      readonly lockTimeoutMs: number;
    };

/** DESIGN §3 / issue "faults end fast": defaults for the per-statement limits on PostgreSQL. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5_000;
export const DEFAULT_LOCK_TIMEOUT_MS = 2_000;

/** Thrown for a database address Portico cannot use (a configuration error). */
export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

/**
 * Parses `memory:`, `sqlite:<path>`, `sqlite::memory:` or `postgres(ql)://user@host:port/db`
 * with an optional `?schema=name` (tables and the migration ledger then live in that schema),
 * `?statement_timeout=ms` and `?lock_timeout=ms` (0 turns a limit off).
 */
export function parseDatabaseUrl(text: string): DatabaseConfig {
  if (text === 'memory:' || text === 'memory') return { kind: 'memory' };
  if (text.startsWith('sqlite:')) {
    const file = text.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!file) throw new DatabaseUrlError('sqlite: needs a file path or :memory:');
    return { kind: 'sql', dialect: 'sqlite', file };
  }
  if (/^postgres(ql)?:\/\//.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new DatabaseUrlError('the PostgreSQL address is not a valid URL');
    }
    const schema = url.searchParams.get('schema') ?? undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new DatabaseUrlError('schema must be a lower-case identifier');
    url.searchParams.delete('schema');
    const millis = (name: string, fallback: number): number => {
      const raw = url.searchParams.get(name);
      url.searchParams.delete(name);
      if (raw === null) return fallback;
      if (!/^\d{1,9}$/.test(raw)) throw new DatabaseUrlError(`${name} must be a whole number of milliseconds (got ${JSON.stringify(raw)})`);
      return Number(raw);
    };
    const statementTimeoutMs = millis('statement_timeout', DEFAULT_STATEMENT_TIMEOUT_MS);
    const lockTimeoutMs = millis('lock_timeout', DEFAULT_LOCK_TIMEOUT_MS);
    return { kind: 'sql', dialect: 'postgresql', url: url.toString(), ...(schema ? { schema } : {}), statementTimeoutMs, lockTimeoutMs };
  }
  throw new DatabaseUrlError(`unsupported database address (use sqlite:<path>, sqlite::memory:, postgres://… or memory:)`);
}

/** The address without credentials, safe for logs and error messages. */
export function describeDatabase(config: DatabaseConfig): string {
  if (config.kind === 'memory') return 'in-memory store';
  if (config.dialect === 'sqlite') return `sqlite:${config.file}`;
  const url = new URL(config.url);
  return `postgresql://${url.hostname}:${url.port || '5432'}${url.pathname}`;
}
