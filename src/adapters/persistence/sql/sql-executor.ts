import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import { DatabaseUnavailable, DomainError, ShuttingDown } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';
import { keptConnections } from './pg-kept-connections.js';
import { PgPipeline, type PipelinedResult, type PipelineError, type TypeSource } from './pg-pipeline.js';
import { readDeadlines } from './pg-read-deadlines.js';
import { discard, isLimited, markLimited, pgRows, type DriverRow, type PgConnection, type PgResult, type PoolClient } from './pool-connections.js';
import { sharedSqlite } from './sqlite-shared-connection.js';
import { RowShapes, type ShapeSlot } from './pg-row-shapes.js';
import { isPgMessage, PG_READ_TIMEOUT } from './sql-error-translation.js';

type Db = Knex | Knex.Transaction;

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
  /** `prepared` is called once the statement is prepared (`null`) or could not be (the error). */
  prepare(sql: string, prepared: (error: Error | null) => void): SqliteStatement;
  /** Portico's prepared statements on this connection, by text (finalized before the connection closes). */
  portico?: Map<string, KeptStatement>;
}

/** A prepared statement kept on its connection. */
interface KeptStatement {
  readonly statement: SqliteStatement;
  /**
   * Until SQLite has prepared it, the rejections of the runs queued on it (a statement that fails
   * to prepare never calls their callbacks); undefined once it is prepared.
   */
  waiting: Set<(error: Error) => void> | undefined;
}

/** Prepared statements kept per SQLite connection (the rest run unprepared). */
const MAX_SQLITE_STATEMENTS = 500;

/** A statement as PostgreSQL receives it: `$n` placeholders, and a name when it is prepared once per connection. */
interface PgStatement extends ShapeSlot {
  readonly text: string;
  readonly name: string | undefined;
}

/** How many distinct statement texts get a prepared-statement name (the rest run unnamed, so memory stays bounded). */
const MAX_NAMED = 1_000;
const pgStatements = new Map<string, PgStatement>();
/** The statements' rows are read as arrays and made objects by their result's shape (see RowShapes). */
const rowShapes = new RowShapes();

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

  /**
   * Runs one statement. Outside a transaction on PostgreSQL it goes on a kept connection (one the
   * last statement gave back within a few milliseconds) or the pool's next one, and the connection
   * is kept again as soon as the driver answers: one promise a statement, no async frame of its own.
   */
  query(sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
    try {
      this.client.emit('query', { sql, bindings: values });
      if (!this.inTransaction) {
        if (this.dialect === 'sqlite') return sharedSqlite(this.client).run((connection) => sqliteAll(connection as SqliteConnection, sql, values));
        const kept = keptConnections(this.client);
        if (kept) {
          const taken = kept.take();
          if (!isPromise(taken)) return this.pgQuery(taken as PgConnection, sql, values, () => kept.keep(taken as PgConnection));
          return taken.then((pg) => this.pgQuery(pg as PgConnection, sql, values, () => kept.keep(pg as PgConnection)));
        }
      }
      return this.pooledQuery(sql, values);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs statements as one atomic unit in one round trip (PostgreSQL, outside a transaction:
   * `pg-pipeline.ts`), on a kept connection like `query`, and returns each statement's rows. A
   * failure carries `statementIndex`, the statement the server refused.
   */
  pipeline(statements: readonly { readonly sql: string; readonly values: readonly unknown[] }[]): Promise<DriverRow[][]> {
    if (this.dialect !== 'postgresql' || this.inTransaction) return Promise.reject(new Error('pipelines run on PostgreSQL outside a transaction'));
    for (const { sql, values } of statements) this.client.emit('query', { sql, bindings: values });
    const kept = keptConnections(this.client);
    if (!kept) return this.pooled((pg) => this.limited(pg as PgConnection, undefined, (deadline) => pipelineRows(pg as PgConnection, statements, deadline)));
    const run = (pg: PgConnection): Promise<DriverRow[][]> => this.limited(pg, () => kept.keep(pg), (deadline, settled) => pipelineRows(pg, statements, deadline, settled));
    const taken = kept.take();
    return isPromise(taken) ? taken.then((pg) => run(pg as PgConnection)) : run(taken as PgConnection);
  }

  /** `work` on a connection acquired from the pool (the transaction's, inside one), released after it. */
  private async pooled<T>(work: (connection: unknown) => Promise<T>): Promise<T> {
    const connection = await this.client.acquireConnection();
    try {
      return await work(connection);
    } finally {
      await this.client.releaseConnection(connection);
    }
  }

  /** One statement on a connection acquired from the pool (the transaction's, inside one) and released after it. */
  private pooledQuery(sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
    return this.pooled((connection) =>
      this.dialect === 'postgresql' ? this.pgQuery(connection as PgConnection, sql, values) : sqliteAll(connection as SqliteConnection, sql, values),
    );
  }

  /**
   * One statement on a PostgreSQL connection: named once prepared, within the read deadline.
   * `settled` runs once the connection is done with it (answered, failed, or never sent).
   */
  private pgQuery(pg: PgConnection, sql: string, values: readonly unknown[], settled?: () => void): Promise<DriverRow[]> {
    return this.limited(pg, settled, (deadline, done) => this.pgStatementRows(pg, sql, values, deadline, done));
  }

  /**
   * `send` within the read deadline, after giving the connection's session its limits when it
   * has none yet; `settled` runs once the connection is done (answered, failed, or never sent).
   */
  private limited<T>(pg: PgConnection, settled: (() => void) | undefined, send: (deadline: number, settled: (() => void) | undefined) => Promise<T>): Promise<T> {
    const budget = this.readBudget();
    // One deadline for the session's limits (the connection's first statement) and the statement.
    const deadline = budget > 0 ? Date.now() + budget : 0;
    // Never inside a transaction: a rollback would undo the SET while the flag says it holds.
    if (!this.inTransaction && this.limits && !isLimited(pg)) {
      return this.limitSession(pg, deadline).then(
        () => send(deadline, settled),
        (error: unknown) => {
          settled?.();
          throw error;
        },
      );
    }
    return send(deadline, settled);
  }

  /**
   * The statement's rows through node-pg's callback form (see `pgRows`), watched by the read
   * deadline when there is one (0: none).
   */
  private pgStatementRows(pg: PgConnection, sql: string, values: readonly unknown[], deadline: number, settled: (() => void) | undefined): Promise<DriverRow[]> {
    const statement = pgStatement(sql);
    const { text, name } = statement;
    const watch = deadline > 0 ? readDeadlines.watch(pg, deadline) : undefined;
    return new Promise<DriverRow[]>((resolve, reject) => {
      const done = (error: Error | null, result?: PgResult): void => {
        if (watch) readDeadlines.done(watch);
        // The error first: a read timeout destroys the connection, which is then not kept.
        const failure = error ? (watch?.expired ? new Error(PG_READ_TIMEOUT) : droppedOnReadTimeout(pg, error)) : undefined;
        settled?.();
        if (failure !== undefined) reject(failure);
        else resolve(rowShapes.objects((result as PgResult).rows, (result as PgResult).fields, statement));
      };
      try {
        pg.query({ name, text, values, rowMode: 'array' }, done);
      } catch (error) {
        done(error as Error);
      }
    });
  }

  /**
   * Runs a transaction on a connection that carries the limits: the session's server-side
   * timeouts, and the client's read deadline on every statement of the transaction, knex's
   * BEGIN, COMMIT and ROLLBACK included (a partition during any of them ends like any other
   * statement). `work` receives the connection to hand to knex (none on SQLite).
   */
  async transaction<T>(work: (connection: unknown) => Promise<T>): Promise<T> {
    if (this.dialect !== 'postgresql' || !this.limits) return work(undefined);
    const connection = await this.client.acquireConnection();
    const pg = connection as PgConnection;
    const params = pg.connectionParameters;
    const previous = params.query_timeout;
    let clean = false;
    try {
      await this.limitSession(pg, Date.now() + this.readBudget());
      if (this.readBudget() > 0) params.query_timeout = this.readBudget();
      const result = await dropOnReadTimeout(pg, () => work(connection));
      clean = true;
      return result;
    } catch (error) {
      clean = answered(error);
      throw error;
    } finally {
      params.query_timeout = previous;
      if (!clean) discard(pg);
      await this.client.releaseConnection(connection);
    }
  }

  /** How long the client waits for a reply: the statement timeout and a second's margin (0: no limit). */
  private readBudget(): number {
    const ms = this.limits?.statementTimeoutMs ?? 0;
    return ms > 0 ? ms + CLIENT_MARGIN_MS : 0;
  }

  /** Gives the session its limits once per connection, within the same deadline as the statement that follows. */
  private async limitSession(pg: PgConnection, deadline: number): Promise<void> {
    const limits = this.limits;
    if (!limits || isLimited(pg)) return;
    const text = `set statement_timeout = ${limits.statementTimeoutMs}; set lock_timeout = ${limits.lockTimeoutMs}`;
    await dropOnReadTimeout(pg, () => pgRows(pg, this.readBudget() > 0 ? { text, query_timeout: remaining(deadline) } : { text }));
    markLimited(pg);
  }
}

/** The client's margin over the server's statement timeout before it stops waiting for a reply. */
const CLIENT_MARGIN_MS = 1_000;

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

/**
 * A reply that never came leaves pg's connection mid-protocol (a late reply would be read as the
 * next statement's): its socket is destroyed so the pool discards it instead of reusing it.
 */
async function dropOnReadTimeout<T>(pg: PgConnection, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw droppedOnReadTimeout(pg, error);
  }
}

/**
 * `error`, after destroying the connection's socket when it is the read timeout, bare (the store's
 * statements) or as knex reports it (`BEGIN; - Query read timeout`): node-pg answers the statement
 * but keeps it as the connection's active one, so the connection must not serve anything again.
 */
function droppedOnReadTimeout(pg: PgConnection, error: unknown): unknown {
  if (isPgMessage(String((error as Error | undefined)?.message), PG_READ_TIMEOUT)) discard(pg);
  return error;
}

/**
 * Whether a failed transaction leaves its connection clean: a refusal (a `DomainError`: the
 * server answered every statement, or Portico refused before sending one). Anything else (the
 * database unreachable or too slow, a driver failure, an unexpected error while a statement may
 * still be in flight) may leave node-pg holding a statement of this connection, which the next
 * holder's statements would queue behind, inside that transaction: such a connection is discarded.
 */
function answered(error: unknown): boolean {
  return error instanceof DomainError && !(error instanceof DatabaseUnavailable) && !(error instanceof ShuttingDown);
}

const isPromise = (value: unknown): value is Promise<unknown> => value instanceof Promise;

/** A pipeline's rows (see `PgPipeline`), watched by the read deadline when there is one (0: none). */
function pipelineRows(pg: PgConnection, statements: readonly { readonly sql: string; readonly values: readonly unknown[] }[], deadline: number, settled?: () => void): Promise<DriverRow[][]> {
  const watch = deadline > 0 ? readDeadlines.watch(pg, deadline) : undefined;
  const prepared = statements.map(({ sql }) => pgStatement(sql));
  return new Promise<DriverRow[][]>((resolve, reject) => {
    const done = (error: PipelineError | null, results?: PipelinedResult[]): void => {
      if (watch) readDeadlines.done(watch);
      const failure = error ? (watch?.expired ? Object.assign(new Error(PG_READ_TIMEOUT), { statementIndex: error.statementIndex }) : droppedOnReadTimeout(pg, error)) : undefined;
      settled?.();
      if (failure !== undefined) reject(failure);
      else resolve((results as PipelinedResult[]).map((result, i) => rowShapes.objects(result.rows, result.fields, prepared[i])));
    };
    const pipelined = prepared.map(({ text }, i) => ({ text, values: (statements[i] as { readonly values: readonly unknown[] }).values }));
    try {
      (pg as unknown as { query(submittable: PgPipeline): void }).query(new PgPipeline(pipelined, pg as unknown as TypeSource, done));
    } catch (error) {
      done(error as PipelineError);
    }
  });
}

/**
 * Runs `sql` on a SQLite connection through a statement prepared once per connection and text.
 *
 * A statement SQLite cannot prepare (a column or table the database lacks: a model ahead of its
 * schema) is reported by node-sqlite3 to the callback given to `prepare` and to nothing else: the
 * runs queued on the statement are dropped without their callbacks, and without a `prepare`
 * callback the failure is an `error` event on the statement that nobody listens to, thrown as an
 * uncaught exception that ends the process. So the `prepare` callback drops the statement and
 * rejects the runs waiting on it.
 */
function sqliteAll(connection: SqliteConnection, sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
  const statements = (connection.portico ??= new Map<string, KeptStatement>());
  const entry = statements.get(sql) ?? (statements.size < MAX_SQLITE_STATEMENTS ? keepStatement(connection, statements, sql) : undefined);
  return new Promise<DriverRow[]>((resolve, reject) => {
    if (!entry) return connection.all(sql, values, (error, rows) => (error ? reject(error) : resolve(rows)));
    entry.waiting?.add(reject);
    entry.statement.all(values, (error, rows) => {
      entry.waiting?.delete(reject);
      if (!error) return resolve(rows);
      if (statements.get(sql) === entry) {
        statements.delete(sql); // a statement that failed is not kept
        entry.statement.finalize();
      }
      reject(error);
    });
  });
}

/** Prepares `sql` on the connection and keeps it; a failure to prepare drops it and rejects the runs waiting on it. */
function keepStatement(connection: SqliteConnection, statements: Map<string, KeptStatement>, sql: string): KeptStatement {
  const kept: KeptStatement = {
    statement: connection.prepare(sql, (error) => {
      const waiting = kept.waiting;
      kept.waiting = undefined;
      if (!error) return;
      if (statements.get(sql) === kept) statements.delete(sql);
      for (const fail of waiting ?? []) fail(error);
    }),
    waiting: new Set(),
  };
  statements.set(sql, kept);
  return kept;
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
    await Promise.all(statements.map(({ statement }) => new Promise<void>((resolve) => statement.finalize(() => resolve()))));
  } finally {
    await client.releaseConnection(connection);
  }
}
