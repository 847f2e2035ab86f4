import { createHash } from 'node:crypto';
import type { Knex } from '@mikro-orm/knex';
import type { Dialect } from '../../../domain/model/migration.js';
import { PG_READ_TIMEOUT } from './sql-error-translation.js';

type Db = Knex | Knex.Transaction;
type DriverRow = Record<string, unknown>;

/** What knex's client offers for a connection of its pool (a transaction's client hands out the transaction's connection). */
interface PoolClient {
  /** tarn's pool: how many acquisitions wait for a connection, and its events. */
  pool?: TarnPool | null;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  emit(event: 'query', data: { sql: string; bindings: readonly unknown[] }): boolean;
}
interface TarnPool {
  numPendingAcquires(): number;
  on(event: 'acquireRequest' | 'poolDestroyRequest', listener: () => void): void;
}
interface PgQueryConfig {
  name?: string | undefined;
  text: string;
  values?: readonly unknown[];
  query_timeout?: number;
}
interface PgConnection {
  query(config: PgQueryConfig): Promise<{ rows: DriverRow[] }>;
  /** pg's defaults for this connection: `query_timeout` applies to every query that sets none (knex's BEGIN and COMMIT). */
  connectionParameters: { query_timeout?: number | false };
  /** pg's wire connection; destroying its socket ends the client, and knex's pool then discards it. */
  connection?: { stream?: { destroy(): void; destroyed?: boolean } };
  /** The limits this connection's session has been given (set once, by the first statement Portico runs on it). */
  porticoLimited?: boolean;
  /** Set by knex when the connection failed or ended: the pool discards it. */
  __knex__disposed?: unknown;
  _ending?: boolean;
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
    if (!this.inTransaction) {
      if (this.dialect === 'sqlite') return sharedSqlite(this.client).run((connection) => sqliteAll(connection as SqliteConnection, sql, values));
      const kept = keptConnections(this.client);
      if (kept) {
        const taken = kept.take();
        const pg = (isPromise(taken) ? await taken : taken) as PgConnection;
        try {
          return await this.pgQuery(pg, sql, values);
        } finally {
          kept.keep(pg);
        }
      }
    }
    const connection = await this.client.acquireConnection();
    try {
      return this.dialect === 'postgresql' ? await this.pgQuery(connection as PgConnection, sql, values) : await sqliteAll(connection as SqliteConnection, sql, values);
    } finally {
      await this.client.releaseConnection(connection);
    }
  }

  /** One statement on a PostgreSQL connection: named once prepared, within the read deadline. */
  private async pgQuery(pg: PgConnection, sql: string, values: readonly unknown[]): Promise<DriverRow[]> {
    const budget = this.readBudget();
    const deadline = Date.now() + budget;
    // Never inside a transaction: a rollback would undo the SET while the flag says it holds.
    if (!this.inTransaction && this.limits && !pg.porticoLimited) await this.limitSession(pg, deadline);
    const { text, name } = pgStatement(sql);
    const watch = budget > 0 ? readDeadlines.watch(pg, deadline) : undefined;
    try {
      return (await pg.query({ name, text, values })).rows;
    } catch (error) {
      throw watch?.expired ? new Error(PG_READ_TIMEOUT) : droppedOnReadTimeout(pg, error);
    } finally {
      if (watch) readDeadlines.done(watch);
    }
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
    try {
      await this.limitSession(pg, Date.now() + this.readBudget());
      if (this.readBudget() > 0) params.query_timeout = this.readBudget();
      return await dropOnReadTimeout(pg, () => work(connection));
    } finally {
      params.query_timeout = previous;
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
    if (!limits || pg.porticoLimited) return;
    const text = `set statement_timeout = ${limits.statementTimeoutMs}; set lock_timeout = ${limits.lockTimeoutMs}`;
    await dropOnReadTimeout(pg, () => pg.query(this.readBudget() > 0 ? { text, query_timeout: remaining(deadline) } : { text }));
    pg.porticoLimited = true;
  }
}

/** The client's margin over the server's statement timeout before it stops waiting for a reply. */
const CLIENT_MARGIN_MS = 1_000;

/** How often the statements waiting for their reply are checked against their deadline. */
const DEADLINE_TICK_MS = 100;

interface Watch {
  readonly pg: PgConnection;
  readonly deadline: number;
  expired: boolean;
}

/**
 * The client's read deadline of the store's statements: one timer for every statement in flight,
 * instead of node-pg's `query_timeout`, which arms and clears a timer of its own around every
 * statement (about 1.5 µs each on the hot path). A statement still waiting past its deadline
 * (checked every 100 ms) has its connection's socket destroyed, which fails the statement at once
 * and makes the pool discard the connection; the caller sees node-pg's read-timeout error, as
 * before.
 */
class ReadDeadlines {
  private readonly waiting = new Set<Watch>();
  private timer: NodeJS.Timeout | undefined;

  watch(pg: PgConnection, deadline: number): Watch {
    const watch: Watch = { pg, deadline, expired: false };
    this.waiting.add(watch);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), DEADLINE_TICK_MS);
      this.timer.unref();
    }
    return watch;
  }

  done(watch: Watch): void {
    this.waiting.delete(watch);
  }

  private sweep(): void {
    const now = Date.now();
    for (const watch of this.waiting) {
      if (watch.deadline > now) continue;
      this.waiting.delete(watch);
      watch.expired = true;
      watch.pg.connection?.stream?.destroy();
    }
    if (this.waiting.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

const readDeadlines = new ReadDeadlines();

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

/** `error`, after destroying the connection's socket when it is the read timeout. */
function droppedOnReadTimeout(pg: PgConnection, error: unknown): unknown {
  if ((error as Error).message === PG_READ_TIMEOUT) pg.connection?.stream?.destroy();
  return error;
}

/** One lease of the SQLite connection, shared by the statements that joined it. */
interface Lease {
  readonly connection: Promise<unknown>;
  acquired: boolean;
  users: number;
}

/**
 * The SQLite connection, shared by statements outside a transaction. Its pool holds one
 * connection, and taking it in turn for each statement left the database idle between two
 * statements while the pool handed it on (about a third of the list's throughput): node-sqlite3
 * queues the statements it is given on one connection itself, and each runs in autocommit as it
 * would alone. So a statement joins the lease in use, unless someone else (a transaction, the
 * migrator) waits for the connection: it then queues behind them for a new lease, and the lease in
 * use goes back to the pool once its last statement is done; a transaction never sees another
 * request's statement inside it, and is never starved.
 */
class SharedSqlite {
  private current: Lease | undefined;

  constructor(private readonly client: PoolClient) {}

  async run<T>(use: (connection: unknown) => Promise<T>): Promise<T> {
    const lease = this.join();
    try {
      return await use(await lease.connection);
    } finally {
      lease.users--;
      if (lease.users === 0 && lease.acquired) this.end(lease);
    }
  }

  private join(): Lease {
    const current = this.current;
    // A lease still waiting for the pool is joined: it is granted in its turn.
    if (current && (!current.acquired || (this.client.pool?.numPendingAcquires() ?? 0) === 0)) {
      current.users++;
      return current;
    }
    const lease: Lease = { connection: this.client.acquireConnection(), acquired: false, users: 1 };
    this.current = lease;
    lease.connection.then(
      () => {
        lease.acquired = true;
        if (lease.users === 0) this.end(lease);
      },
      () => {
        if (this.current === lease) this.current = undefined;
      },
    );
    return lease;
  }

  private end(lease: Lease): void {
    if (this.current === lease) this.current = undefined;
    void lease.connection.then((connection) => this.client.releaseConnection(connection)).catch(() => undefined);
  }
}

const sharedConnections = new WeakMap<PoolClient, SharedSqlite>();

function sharedSqlite(client: PoolClient): SharedSqlite {
  let shared = sharedConnections.get(client);
  if (!shared) {
    shared = new SharedSqlite(client);
    sharedConnections.set(client, shared);
  }
  return shared;
}

const isPromise = (value: unknown): value is Promise<unknown> => value instanceof Promise;

/** How long a PostgreSQL connection is kept for the store's next statement before it goes back to the pool. */
const KEEP_MS = 5;

/**
 * PostgreSQL connections kept between the store's statements outside a transaction, for a few
 * milliseconds: the pool's acquisition (knex's async wrapper around tarn's pending operation, its
 * timeout timer and promises, about 5 kB and 1.5 µs a statement) is paid once for many statements
 * under load. Kept connections are the pool's "used" ones, so its size still bounds them. As soon
 * as anyone else asks the pool (a transaction, the migrator) or waits in it, or the pool is being
 * destroyed, every kept connection goes back at once; one that failed or ended goes back to the
 * pool, which discards it.
 */
class KeptConnections {
  private readonly kept: PgConnection[] = [];
  private timer: NodeJS.Timeout | undefined;
  private asking = false;

  constructor(
    private readonly client: PoolClient,
    private readonly pool: TarnPool,
  ) {
    pool.on('acquireRequest', () => {
      if (!this.asking) this.giveBack();
    });
    pool.on('poolDestroyRequest', () => this.giveBack());
  }

  /** A kept connection that still works, or the pool's next one. */
  take(): PgConnection | Promise<unknown> {
    for (let pg = this.kept.pop(); pg; pg = this.kept.pop()) {
      if (usable(pg)) return pg;
      this.release(pg);
    }
    this.asking = true;
    try {
      return this.client.acquireConnection();
    } finally {
      this.asking = false;
    }
  }

  /** After a statement: kept for the next one, or back to the pool when someone waits there or it no longer works. */
  keep(pg: PgConnection): void {
    if (!usable(pg) || this.pool.numPendingAcquires() > 0) {
      this.release(pg);
      return;
    }
    this.kept.push(pg);
    this.timer ??= setTimeout(() => this.giveBack(), KEEP_MS);
  }

  private giveBack(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const pg of this.kept.splice(0)) this.release(pg);
  }

  private release(pg: PgConnection): void {
    this.client.releaseConnection(pg).catch(() => undefined);
  }
}

function usable(pg: PgConnection): boolean {
  return !pg.__knex__disposed && !pg._ending && pg.connection?.stream?.destroyed !== true;
}

const keptByPool = new WeakMap<TarnPool, KeptConnections>();

/** The kept connections of a knex client's current pool (none while it has none). */
function keptConnections(client: PoolClient): KeptConnections | undefined {
  const pool = client.pool;
  if (!pool) return undefined;
  let kept = keptByPool.get(pool);
  if (!kept) {
    kept = new KeptConnections(client, pool);
    keptByPool.set(pool, kept);
  }
  return kept;
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
