import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Dialect } from '../../../domain/model/migration.js';

type Db = Knex | Knex.Transaction;
type DriverRow = Record<string, unknown>;

/** What knex's client offers for a connection of its pool (a transaction's client hands out the transaction's connection). */
interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  emit(event: 'query', data: { sql: string; bindings: readonly unknown[] }): boolean;
}
interface PgConnection {
  query(config: { name?: string; text: string; values?: readonly unknown[]; query_timeout?: number }): Promise<{ rows: DriverRow[] }>;
  /** The limits this connection's session has been given (set once, by the first statement Portico runs on it). */
  porticoLimited?: boolean;
}

/**
 * Per-statement limits on PostgreSQL (issue "faults end fast"): the server cancels a long statement
 * or lock wait, and the client gives up on a reply that never comes (a silent partition) a second
 * later; all three surface as 503. Only the statements the store runs get them: migrations and
 * schema changes, which MikroORM runs on the same pool, are not cut short.
 */
export interface StatementLimits {
  readonly statementTimeoutMs: number;
  readonly lockTimeoutMs: number;
}
type RowsCallback = (error: Error | null, rows: DriverRow[]) => void;
interface SqliteStatement {
  all(params: readonly unknown[], callback: RowsCallback): void;
  finalize(callback?: () => void): void;
}
interface SqliteConnection {
  all(sql: string, params: readonly unknown[], callback: RowsCallback): void;
  prepare(sql: string): SqliteStatement;
  /** Portico's prepared statements on this connection, by text (finalized before the connection closes). */
  portico?: Map<string, SqliteStatement>;
}

/** Prepared statements kept per SQLite connection (the rest run unprepared). */
const MAX_SQLITE_STATEMENTS = 500;

/** A statement as PostgreSQL receives it: `$n` placeholders, and a name when it is prepared once per connection. */
interface PgStatement {
  readonly text: string;
  readonly name: string | undefined;
}

/** How many distinct statement texts get a prepared-statement name (the rest run unnamed, so memory stays bounded). */
const MAX_NAMED = 1_000;
const pgStatements = new Map<string, PgStatement>();

function pgStatement(sql: string): PgStatement {
  let statement = pgStatements.get(sql);
  if (!statement) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    const name = pgStatements.size < MAX_NAMED ? `portico_${createHash('sha1').update(text).digest('hex').slice(0, 20)}` : undefined;
    statement = { text, name };
    if (pgStatements.size < MAX_NAMED * 2) pgStatements.set(sql, statement);
  }
  return statement;
}

/**
 * Runs Portico's own SQL (`?` placeholders, every value bound) on a connection of the pool knex
 * manages for MikroORM, without knex's query builder: the store renders its statements itself,
 * and on PostgreSQL each distinct text is a named prepared statement, parsed and planned once per
 * connection. Statements are still announced on knex's `query` event, so observers (logs, tests
 * counting statements) see every one.
 */
export class SqlExecutor {
  private readonly client: PoolClient;

  constructor(
    db: Db,
    private readonly dialect: Dialect,
    private readonly limits?: StatementLimits,
    private readonly inTransaction = false,
  ) {
    this.client = (db as unknown as { client: PoolClient }).client;
  }

  async query(sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
    this.client.emit('query', { sql, bindings: values });
    const connection = await this.client.acquireConnection();
    try {
      if (this.dialect === 'postgresql') {
        const pg = connection as PgConnection;
        const limits = this.limits;
        // Never inside a transaction: a rollback would undo the SET while the flag says it holds.
        if (limits && !pg.porticoLimited && !this.inTransaction) {
          await pg.query({ text: `set statement_timeout = ${limits.statementTimeoutMs}; set lock_timeout = ${limits.lockTimeoutMs}`, query_timeout: limits.statementTimeoutMs + 1000 });
          pg.porticoLimited = true;
        }
        const { text, name } = pgStatement(sql);
        const timeout = limits && limits.statementTimeoutMs > 0 ? { query_timeout: limits.statementTimeoutMs + 1000 } : {};
        const result = await pg.query(name ? { name, text, values, ...timeout } : { text, values, ...timeout });
        return result.rows;
      }
      return await sqliteAll(connection as SqliteConnection, sql, values);
    } finally {
      await this.client.releaseConnection(connection);
    }
  }
}

/** Runs `sql` on a SQLite connection through a statement prepared once per connection and text. */
function sqliteAll(connection: SqliteConnection, sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
  const statements = (connection.portico ??= new Map());
  let statement = statements.get(sql);
  if (!statement && statements.size < MAX_SQLITE_STATEMENTS) {
    statement = connection.prepare(sql);
    statements.set(sql, statement);
  }
  return new Promise<DriverRow[]>((resolve, reject) => {
    const done: RowsCallback = (error, rows) => {
      if (!error) return resolve(rows);
      if (statement && statements.get(sql) === statement) {
        statements.delete(sql); // a statement that failed to prepare is not kept
        statement.finalize();
      }
      reject(error);
    };
    if (statement) statement.all(values, done);
    else connection.all(sql, values, done);
  });
}

/**
 * Finalizes the prepared statements of a SQLite database's connection, which must happen before
 * it closes (SQLite refuses to close with statements open).
 */
export async function finalizeStatements(db: Knex): Promise<void> {
  const client = (db as unknown as { client: PoolClient }).client;
  const connection = (await client.acquireConnection()) as SqliteConnection;
  try {
    const statements = [...(connection.portico?.values() ?? [])];
    connection.portico?.clear();
    await Promise.all(statements.map((s) => new Promise<void>((resolve) => s.finalize(() => resolve()))));
  } finally {
    await client.releaseConnection(connection);
  }
}
