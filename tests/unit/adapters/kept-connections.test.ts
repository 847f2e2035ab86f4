import { EventEmitter } from 'node:events';
import type { Knex } from '@mikro-orm/knex';
import { describe, expect, it } from 'vitest';
import { poolValidate } from '../../../src/adapters/persistence/sql/pool-connections.js';
import { SqlExecutor } from '../../../src/adapters/persistence/sql/sql-executor.js';
import { ConstraintViolation, DatabaseUnavailable } from '../../../src/domain/errors/domain-error.js';

/** A knex client over a fake tarn pool of fake PostgreSQL connections, recording what the pool sees. */
function fakeKnex(fails: (text: string) => boolean = () => false) {
  const events = new EventEmitter();
  const log: string[] = [];
  let made = 0;
  let pending = 0;
  const connection = () => {
    const id = ++made;
    // node-pg's Client is an EventEmitter: `error` and `end` say it no longer works.
    return Object.assign(new EventEmitter(), {
      id,
      connectionParameters: {},
      // node-pg's callback form, answered asynchronously as a socket would (array rows when asked).
      query: (config: { text: string; rowMode?: 'array' }, callback: (error: Error | null, result: { rows: unknown[]; fields: { name: string }[] }) => void) =>
        void setImmediate(() =>
          fails(config.text)
            ? callback(new Error(`refused: ${config.text}`), { rows: [], fields: [] })
            : callback(null, { rows: [config.rowMode === 'array' ? [id] : { id }], fields: [{ name: 'id' }] }),
        ),
    }) as unknown as EventEmitter & Record<string, unknown>;
  };
  const pool = {
    numPendingAcquires: () => pending,
    on: (event: string, listener: () => void) => void events.on(event, listener),
  };
  const client = {
    pool,
    emit: () => true,
    acquireConnection: async () => {
      events.emit('acquireRequest');
      const c = connection();
      log.push(`acquire ${String(c.id)}`);
      return c;
    },
    releaseConnection: async (c: { id: number }) => void log.push(`release ${String(c.id)}`),
  };
  const someoneElseAsks = () => events.emit('acquireRequest');
  const waiting = (n: number) => void (pending = n);
  return { db: { client } as unknown as Knex, log, someoneElseAsks, waiting };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL connections kept between statements', () => {
  it('serve the next statements without asking the pool, then go back to it', async () => {
    const { db, log } = fakeKnex();
    const sql = new SqlExecutor(db, 'postgresql');
    expect(await sql.query('select 1', [])).toEqual([{ id: 1 }]);
    expect(await sql.query('select 1', [])).toEqual([{ id: 1 }]);
    await Promise.all([sql.query('select 1', []), sql.query('select 1', [])]);
    expect(log).toEqual(['acquire 1', 'acquire 2']);
    await sleep(30);
    expect(log.slice(2).sort()).toEqual(['release 1', 'release 2']);
  });

  it('go back at once when someone else asks the pool', async () => {
    const { db, log, someoneElseAsks } = fakeKnex();
    const sql = new SqlExecutor(db, 'postgresql');
    await sql.query('select 1', []);
    expect(log).toEqual(['acquire 1']);
    someoneElseAsks();
    await sleep(0);
    expect(log).toEqual(['acquire 1', 'release 1']);
  });

  it('are not kept while someone waits in the pool, nor once they failed', async () => {
    const { db, log, waiting } = fakeKnex();
    const sql = new SqlExecutor(db, 'postgresql');
    waiting(1);
    await sql.query('select 1', []);
    await sleep(0);
    expect(log).toEqual(['acquire 1', 'release 1']);
    waiting(0);
    await sql.query('select 1', []);
    expect(log).toEqual(['acquire 1', 'release 1', 'acquire 2']);
    expect(await sql.query('select 1', [])).toEqual([{ id: 2 }]);
  });

  it('a kept connection that ended goes back to the pool, is not used, and the pool will not hand it out', async () => {
    const { db, log } = fakeKnex();
    const sql = new SqlExecutor(db, 'postgresql');
    const seen: unknown[] = [];
    const client = (db as unknown as { client: { acquireConnection: () => Promise<Record<string, unknown>> } }).client;
    const acquire = client.acquireConnection;
    client.acquireConnection = async () => {
      const c = await acquire();
      seen.push(c);
      return c;
    };
    await sql.query('select 1', []);
    (seen[0] as EventEmitter).emit('end');
    expect(await sql.query('select 1', [])).toEqual([{ id: 2 }]);
    expect(poolValidate(seen[0])).toBe(false);
    expect(poolValidate(seen[1])).toBe(true);
    await sleep(0);
    expect(log.slice(0, 3)).toEqual(['acquire 1', 'release 1', 'acquire 2']);
  });

  it('a statement the server refuses leaves its connection kept, not lost', async () => {
    const { db, log } = fakeKnex((text) => text.startsWith('select 2'));
    const sql = new SqlExecutor(db, 'postgresql');
    await expect(sql.query('select 2', [])).rejects.toThrow('refused: select 2');
    expect(await sql.query('select 1', [])).toEqual([{ id: 1 }]);
    expect(log).toEqual(['acquire 1']);
    await sleep(30);
    expect(log).toEqual(['acquire 1', 'release 1']);
  });

  it('a connection whose session limits fail to apply is not lost either, and the next statement sets them first', async () => {
    let refuse = true;
    const texts: string[] = [];
    const { db, log } = fakeKnex((text) => {
      texts.push(text);
      return text.startsWith('set ') && refuse;
    });
    const sql = new SqlExecutor(db, 'postgresql', { statementTimeoutMs: 1_000, lockTimeoutMs: 500 });
    await expect(sql.query('select 1', [])).rejects.toThrow(/refused: set statement_timeout/);
    refuse = false;
    expect(await sql.query('select 1', [])).toEqual([{ id: 1 }]);
    expect(log).toEqual(['acquire 1']);
    expect(texts.map((t) => t.split(' ')[0])).toEqual(['set', 'set', 'select']);
  });
});

describe('a transaction connection that ends with a statement unanswered', () => {
  /** SqlExecutor.transaction over fakeKnex, `work` run on the connection; what became of it. */
  async function endTransaction(work: (connection: Record<string, unknown>) => Promise<unknown>) {
    const { db, log } = fakeKnex();
    const sql = new SqlExecutor(db, 'postgresql', { statementTimeoutMs: 1_000, lockTimeoutMs: 500 });
    let destroyed = false;
    let held: Record<string, unknown> | undefined;
    const outcome = await sql
      .transaction(async (connection) => {
        held = connection as Record<string, unknown>;
        held.connection = { stream: { destroy: () => void (destroyed = true) } };
        return work(held);
      })
      .then(
        () => 'committed',
        (error: Error) => error.message,
      );
    // Unusable from now on: the pool's validate hook discards it when it comes back.
    return { outcome, destroyed, disposed: held !== undefined && !poolValidate(held), log };
  }

  it("is destroyed, not pooled, after knex's read timeout on its BEGIN (node-pg keeps the statement active)", async () => {
    const r = await endTransaction(async () => {
      throw new Error('BEGIN; - Query read timeout');
    });
    expect(r.outcome).toBe('BEGIN; - Query read timeout');
    expect(r).toMatchObject({ destroyed: true, disposed: true });
    expect(r.log).toEqual(['acquire 1', 'release 1']);
  });

  it('is destroyed when its work failed otherwise (a statement of it may still be in flight)', async () => {
    const r = await endTransaction(async () => {
      throw new Error('the handler gave up');
    });
    expect(r.outcome).toBe('the handler gave up');
    expect(r).toMatchObject({ destroyed: true, disposed: true });
  });

  it('is destroyed when the database did not answer (503)', async () => {
    const r = await endTransaction(async () => {
      throw new DatabaseUnavailable('the statement timed out');
    });
    expect(r).toMatchObject({ destroyed: true, disposed: true });
  });

  it('goes back to the pool whole after a commit or a refusal the server answered', async () => {
    const committed = await endTransaction(async () => undefined);
    expect(committed).toMatchObject({ outcome: 'committed', destroyed: false, disposed: false });
    const failed = await endTransaction(async () => {
      throw new ConstraintViolation('unique', 't', 'name');
    });
    expect(failed).toMatchObject({ destroyed: false, disposed: false });
    expect(failed.log).toEqual(['acquire 1', 'release 1']);
  });
});
