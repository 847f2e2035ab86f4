import { onePer, type PoolClient } from './pool-connections.js';

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

/** The shared SQLite connection of a knex client. */
export function sharedSqlite(client: PoolClient): SharedSqlite {
  return onePer(sharedConnections, client, () => new SharedSqlite(client));
}
