import { onePer, usable, type PgConnection, type PoolClient, type TarnPool } from './pool-connections.js';

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

const keptByPool = new WeakMap<TarnPool, KeptConnections>();

/** The kept connections of a knex client's current pool (none while it has none). */
export function keptConnections(client: PoolClient): KeptConnections | undefined {
  const pool = client.pool;
  return pool ? onePer(keptByPool, pool, () => new KeptConnections(client, pool)) : undefined;
}
