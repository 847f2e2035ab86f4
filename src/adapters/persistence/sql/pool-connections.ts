/** The connections of the pool knex manages for MikroORM, as Portico's SQL executor uses them. */

export type DriverRow = Record<string, unknown>;

/** What knex's client offers for a connection of its pool (a transaction's client hands out the transaction's connection). */
export interface PoolClient {
  /** tarn's pool: how many acquisitions wait for a connection, and its events. */
  pool?: TarnPool | null;
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  emit(event: 'query', data: { sql: string; bindings: readonly unknown[] }): boolean;
}
export interface TarnPool {
  numPendingAcquires(): number;
  on(event: 'acquireRequest' | 'poolDestroyRequest', listener: () => void): void;
}
export interface PgQueryConfig {
  name?: string | undefined;
  text: string;
  values?: readonly unknown[];
  query_timeout?: number;
  /** `'array'`: each row as an array of its values in column order (the result's `fields` name them). */
  rowMode?: 'array';
}
/** A statement's result: object rows, or arrays of values in the order of `fields` with `rowMode: 'array'`. */
export interface PgResult {
  rows: unknown[];
  fields: readonly { readonly name: string }[];
}
export interface PgConnection {
  /** node-pg's callback form (see `pgRows`). */
  query(config: PgQueryConfig, callback: (error: Error | null, result: PgResult) => void): void;
  /** pg's defaults for this connection: `query_timeout` applies to every query that sets none (knex's BEGIN and COMMIT). */
  connectionParameters: { query_timeout?: number | false };
  /** pg's wire connection; destroying its socket ends the client, and knex's pool then discards it. */
  connection?: { stream?: { destroy(): void; destroyed?: boolean } };
  /** The limits this connection's session has been given (set once, by the first statement Portico runs on it). */
  porticoLimited?: boolean;
  /** Set by knex when the connection failed or ended: the pool discards it. */
  __knex__disposed?: unknown;
  _ending?: boolean;
  /** node-pg's statement in flight, and the ones queued behind it. */
  _activeQuery?: unknown;
  _queryQueue?: unknown[];
}

/**
 * Ends a connection that must not serve again: its socket is destroyed (node-pg fails whatever it
 * still holds) and it is marked the way knex marks a connection that ended, so the pool discards it
 * when it comes back instead of handing it out before the socket's close is seen.
 */
export function discard(pg: PgConnection): void {
  pg.__knex__disposed ??= new Error('discarded by Portico: a statement on it had no answer');
  pg.connection?.stream?.destroy();
}

/** The one `T` of each pool client or pool, made on first use (a WeakMap, so a destroyed pool takes its own with it). */
export function onePer<K extends object, T>(made: WeakMap<K, T>, key: K, make: () => T): T {
  let value = made.get(key);
  if (!value) {
    value = make();
    made.set(key, value);
  }
  return value;
}

/**
 * One statement's rows, with node-pg's callback form. Its promise form (`query(config)` without a
 * callback) chains a promise of its own onto each result, and with it V8's young-generation
 * collector kept every result alive through two collections, promoting it to the old generation:
 * in one process, a 50-row read promoted 12.6 kB a request and spent 36 µs a request in scavenges
 * that way, 0.1 kB and 5 µs with the callback (docs/performance.md, "Garbage"). pg-pool's own
 * `pool.query` uses the callback form too.
 */
export function pgRows(pg: PgConnection, config: PgQueryConfig): Promise<DriverRow[]> {
  return new Promise((resolve, reject) => {
    pg.query(config, (error, result) => (error ? reject(error) : resolve(result.rows as DriverRow[])));
  });
}
