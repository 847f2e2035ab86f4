import type { Knex } from '@mikro-orm/knex';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';
import { columnOf } from '../../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../../domain/model/types.js';
import type { Condition, FindQuery } from '../../../domain/query/condition.js';
import type { RecordStore } from '../../../ports/record-store.js';
import { BaseRecordStore, type StoreDeps } from '../base-record-store.js';
import { conditionSql, orderSql, quote } from './condition-sql.js';
import { decodeRow, encodeRow, encodeValue } from './sql-codec.js';
import { translateSqlError, type Operation } from './sql-error-translation.js';

type Db = Knex | Knex.Transaction;

/** The row number a per-group read ranks rows by (a reserved name: no model should have such a column). */
const RANK = '__portico_rn';

/**
 * The RecordStore on a SQL database (SQLite or PostgreSQL) through the knex connection that
 * MikroORM manages. Queries are single statements (`insert … returning`, one `IN` for
 * many ids); driver errors are translated into port errors here and nowhere else.
 */
export class SqlRecordStore extends BaseRecordStore {
  constructor(
    deps: StoreDeps,
    private readonly db: Db,
    private readonly dialect: Dialect,
    protected readonly inTransaction = false,
  ) {
    super(deps);
  }

  async transaction<T>(work: (tx: RecordStore) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    // The unit spans the COMMIT: committed events are delivered only once it has succeeded.
    return this.deps.events.unitOfWork(() =>
      this.run('', 'read', () => (this.db as Knex).transaction((trx) => work(new SqlRecordStore(this.deps, trx, this.dialect, true)))),
    );
  }

  async ping(): Promise<void> {
    await this.run('', 'read', () => this.db.raw('select 1'));
  }

  protected override oneStatementInsert(model: ModelDef, rows: readonly Row[]): boolean {
    // An explicit integer key on PostgreSQL needs a second statement (setval), so a transaction.
    if (rows.length > rowsPerStatement(model)) return false;
    return !(this.dialect === 'postgresql' && model.pkKind === 'int-auto' && rows.some((r) => r[model.primaryKey] != null));
  }

  protected rawInsert(model: ModelDef, rows: readonly Row[]): Promise<Row[]> {
    return this.run(model.table, 'insert', async () => {
      const encoded = rows.map((row) => encodeRow(model, row, this.dialect));
      // Multi-row INSERTs, chunked under the drivers' bound-parameter limits (SQLite 32 766).
      const stored: Record<string, unknown>[] = [];
      const per = rowsPerStatement(model);
      for (let i = 0; i < encoded.length; i += per) {
        stored.push(...((await this.db(model.table).insert(encoded.slice(i, i + per)).returning('*')) as Record<string, unknown>[]));
      }
      if (this.dialect === 'postgresql' && model.pkKind === 'int-auto' && rows.some((r) => r[model.primaryKey] != null)) {
        // An explicit key does not advance a serial sequence: move it past the largest key, as SQLite does.
        await this.db.raw(`select setval(pg_get_serial_sequence(?, ?), greatest((select max(??) from ??), 1))`, [
          model.table,
          model.primaryKey,
          model.primaryKey,
          model.table,
        ]);
      }
      return stored.map((raw) => decodeRow(model, raw));
    });
  }

  protected rawUpdate(model: ModelDef, id: Value, changes: Row): Promise<Row | null> {
    return this.run(model.table, 'update', async () => {
      const stored = (await this.db(model.table)
        .where(model.primaryKey, this.key(model, id))
        .update(encodeRow(model, changes, this.dialect))
        .returning('*')) as Record<string, unknown>[];
      return stored[0] ? decodeRow(model, stored[0]) : null;
    });
  }

  protected rawUpdateWhere(model: ModelDef, where: Condition, changes: Row): Promise<Row[]> {
    return this.run(model.table, 'update', async () => {
      const w = conditionSql(model, where, this.dialect);
      const stored = (await this.db(model.table)
        .whereRaw(w.sql, w.bindings as Knex.ValueDict[])
        .update(encodeRow(model, changes, this.dialect))
        .returning('*')) as Record<string, unknown>[];
      return stored.map((raw) => decodeRow(model, raw));
    });
  }

  protected rawDelete(model: ModelDef, id: Value): Promise<boolean> {
    return this.run(model.table, 'delete', async () => {
      const n = await this.db(model.table).where(model.primaryKey, this.key(model, id)).del();
      return n > 0;
    });
  }

  protected rawFind(model: ModelDef, query: FindQuery): Promise<Row[]> {
    if (query.perGroup) return this.rawFindPerGroup(model, query, query.perGroup);
    return this.run(model.table, 'read', async () => {
      let qb = this.db(model.table).select('*');
      if (query.where) {
        const w = conditionSql(model, query.where, this.dialect);
        qb = qb.whereRaw(w.sql, w.bindings as Knex.ValueDict[]);
      }
      if (query.orderBy && query.orderBy.length > 0) qb = qb.orderByRaw(orderSql(query.orderBy));
      if (query.limit !== undefined) qb = qb.limit(query.limit);
      if (query.offset !== undefined && query.offset > 0) qb = qb.offset(query.offset);
      const raw = (await qb) as Record<string, unknown>[];
      return raw.map((r) => decodeRow(model, r));
    });
  }

  /**
   * `rawFind` with at most `perGroup.limit` rows per value of `perGroup.column`, in one statement:
   * the rows are numbered within their group by a window function (SQLite >= 3.25, PostgreSQL)
   * and the outer query keeps the first ones, then orders and pages the whole result. Column
   * names are unqualified, so they resolve against the table inside and the derived table outside.
   */
  private rawFindPerGroup(model: ModelDef, query: FindQuery, perGroup: NonNullable<FindQuery['perGroup']>): Promise<Row[]> {
    return this.run(model.table, 'read', async () => {
      const w = query.where ? conditionSql(model, query.where, this.dialect) : { sql: '1 = 1', bindings: [] };
      const order = orderSql(query.orderBy && query.orderBy.length > 0 ? query.orderBy : [{ column: model.primaryKey, direction: 'asc' }]);
      const ranked = this.db.raw(
        `(select t.*, row_number() over (partition by ${quote(perGroup.column)} order by ${order}) as ${quote(RANK)}` +
          ` from ${quote(model.table)} t where ${w.sql}) as ranked`,
        w.bindings as Knex.ValueDict[],
      );
      let qb = this.db.select('*').from(ranked).where(RANK, '<=', perGroup.limit).orderByRaw(order);
      if (query.limit !== undefined) qb = qb.limit(query.limit);
      if (query.offset !== undefined && query.offset > 0) qb = qb.offset(query.offset);
      const raw = (await qb) as Record<string, unknown>[];
      return raw.map(({ [RANK]: _rank, ...r }) => decodeRow(model, r));
    });
  }

  protected rawFindReferenced(model: ModelDef, column: string, where: Condition, target: ModelDef, targetWhere: Condition | undefined): Promise<Row[]> {
    return this.run(target.table, 'read', async () => {
      const w = conditionSql(model, where, this.dialect);
      let qb = this.db(target.table)
        .select('*')
        .whereRaw(`${quote(target.primaryKey)} in (select ${quote(column)} from ${quote(model.table)} where ${w.sql})`, w.bindings as Knex.ValueDict[]);
      if (targetWhere) {
        const tw = conditionSql(target, targetWhere, this.dialect);
        qb = qb.whereRaw(tw.sql, tw.bindings as Knex.ValueDict[]);
      }
      const raw = (await qb) as Record<string, unknown>[];
      return raw.map((r) => decodeRow(target, r));
    });
  }

  protected rawCount(model: ModelDef, where: Condition | undefined): Promise<number> {
    return this.run(model.table, 'read', async () => {
      let qb = this.db(model.table).count({ n: '*' });
      if (where) {
        const w = conditionSql(model, where, this.dialect);
        qb = qb.whereRaw(w.sql, w.bindings as Knex.ValueDict[]);
      }
      const [row] = (await qb) as { n: number | string }[];
      return Number(row?.n ?? 0);
    });
  }

  private key(model: ModelDef, id: Value): Knex.Value {
    const col = columnOf(model, model.primaryKey);
    return (col ? encodeValue(col, id, this.dialect) : id) as Knex.Value;
  }

  private async run<T>(table: string, operation: Operation, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw translateSqlError(error, this.dialect, table, operation) ?? error;
    }
  }
}

/** Rows one INSERT may carry: every row binds at most one parameter per column. */
function rowsPerStatement(model: ModelDef): number {
  return Math.max(1, Math.floor(30_000 / Math.max(1, model.columns.length)));
}
