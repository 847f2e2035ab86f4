import type { Dialect } from '../../domain/model/migration.js';

/** A parsed database address (REFERENCE-APP.md "Starting it"). */
export type DatabaseConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'sql'; readonly dialect: 'sqlite'; readonly file: string }
  | { readonly kind: 'sql'; readonly dialect: 'postgresql'; readonly url: string; readonly schema?: string };

/** Thrown for a database address Portico cannot use (a configuration error). */
export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

/**
 * Parses `memory:`, `sqlite:<path>`, `sqlite::memory:` or `postgres(ql)://user@host:port/db`
 * with an optional `?schema=name` (tables and the migration ledger then live in that schema).
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
    return { kind: 'sql', dialect: 'postgresql', url: url.toString(), ...(schema ? { schema } : {}) };
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

export function dialectOf(config: DatabaseConfig): Dialect | undefined {
  return config.kind === 'sql' ? config.dialect : undefined;
}
