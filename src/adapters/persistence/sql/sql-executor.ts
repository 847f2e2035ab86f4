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
  query(config: { name?: string; text: string; values: readonly unknown[] }): Promise<{ rows: DriverRow[] }>;
}
interface SqliteConnection {
  all(sql: string, params: readonly unknown[], callback: (error: Error | null, rows: DriverRow[]) => void): void;
}

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
  ) {
    this.client = (db as unknown as { client: PoolClient }).client;
  }

  async query(sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
    this.client.emit('query', { sql, bindings: values });
    const connection = await this.client.acquireConnection();
    try {
      if (this.dialect === 'postgresql') {
        const { text, name } = pgStatement(sql);
        const result = await (connection as PgConnection).query(name ? { name, text, values } : { text, values });
        return result.rows;
      }
      return await new Promise<DriverRow[]>((resolve, reject) =>
        (connection as SqliteConnection).all(sql, values, (error, rows) => (error ? reject(error) : resolve(rows))),
      );
    } finally {
      await this.client.releaseConnection(connection);
    }
  }
}
