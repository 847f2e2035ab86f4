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
  /** pg's wire connection; destroying its socket ends the client (pending statements fail at once). */
  connection?: { stream?: { destroy(): void } };
  /** node-pg's client events: an error or the end of the connection makes it unusable. */
  once(event: 'error' | 'end', listener: () => void): unknown;
}

/** Connections that failed, ended or were discarded (node-pg's `error` and `end` events, and `discard`). */
const unusable = new WeakSet<object>();
/** Connections whose events are watched. */
const watched = new WeakSet<object>();
/** Connections whose session carries Portico's limits (set once, by the first statement Portico runs on it). */
const limited = new WeakSet<object>();

/** Whether the connection still works: it has not failed, ended, or been discarded. */
export function usable(pg: PgConnection): boolean {
  if (!watched.has(pg)) {
    watched.add(pg);
    const spent = (): void => void unusable.add(pg);
    pg.once('error', spent);
    pg.once('end', spent);
  }
  return !unusable.has(pg);
}

/**
 * Ends a connection that must not serve again: its socket is destroyed (node-pg fails whatever it
 * still holds) and it is unusable from now on, so the pool's `validate` (`poolValidate`) discards
 * it when it comes back, before the socket's close is seen.
 */
export function discard(pg: PgConnection): void {
  unusable.add(pg);
  pg.connection?.stream?.destroy();
}

/** knex's public `pool.validate` hook: a connection Portico found unusable never leaves the pool again. */
export const poolValidate = (connection: unknown): boolean => typeof connection !== 'object' || connection === null || !unusable.has(connection);

/** Whether the session of `pg` carries Portico's limits; `markLimited` records that it does. */
export const isLimited = (pg: PgConnection): boolean => limited.has(pg);
export const markLimited = (pg: PgConnection): void => void limited.add(pg);

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
