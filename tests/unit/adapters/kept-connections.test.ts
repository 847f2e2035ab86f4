import { EventEmitter } from 'node:events';
import type { Knex } from '@mikro-orm/knex';
import { describe, expect, it } from 'vitest';
import { SqlExecutor } from '../../../src/adapters/persistence/sql/sql-executor.js';

/** A knex client over a fake tarn pool of fake PostgreSQL connections, recording what the pool sees. */
function fakeKnex(fails: (text: string) => boolean = () => false) {
  const events = new EventEmitter();
  const log: string[] = [];
  let made = 0;
  let pending = 0;
  const connection = () => {
    const id = ++made;
    return {
      id,
      connectionParameters: {},
      // node-pg's callback form, answered asynchronously as a socket would.
      query: (config: { text: string }, callback: (error: Error | null, result: { rows: unknown[] }) => void) =>
        void setImmediate(() => (fails(config.text) ? callback(new Error(`refused: ${config.text}`), { rows: [] }) : callback(null, { rows: [{ id }] }))),
    } as Record<string, unknown>;
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

  it('a disposed kept connection goes back to the pool and is not used', async () => {
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
    (seen[0] as Record<string, unknown>).__knex__disposed = new Error('gone');
    expect(await sql.query('select 1', [])).toEqual([{ id: 2 }]);
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
