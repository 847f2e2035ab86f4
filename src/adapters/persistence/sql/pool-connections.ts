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
}
export interface PgConnection {
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

/** The one `T` of each pool client or pool, made on first use (a WeakMap, so a destroyed pool takes its own with it). */
export function onePer<K extends object, T>(made: WeakMap<K, T>, key: K, make: () => T): T {
  let value = made.get(key);
  if (!value) {
    value = make();
    made.set(key, value);
  }
  return value;
}
