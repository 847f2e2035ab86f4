import type { ExceptionConverter } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import { DomainError } from '../../../domain/errors/domain-error.js';
import type { Dialect } from '../../../domain/model/migration.js';
import { columnOf } from '../../../domain/model/model-registry.js';
import type { ColumnDef, ModelDef, Row } from '../../../domain/model/types.js';
import type { Condition, FindQuery } from '../../../domain/query/condition.js';
import type { TableStore, TableWrite } from '../../../ports/table-store.js';
import { conditionSql, orderSql, quote } from './condition-sql.js';
import { decodeRow, decodeRowsInPlace, encodeRow } from './sql-codec.js';
import { SqlExecutor, type StatementLimits } from './sql-executor.js';
import type { PipelineError } from './pg-pipeline.js';
import { translateSqlError, type Operation } from './sql-error-translation.js';

type Db = Knex | Knex.Transaction;
/** A statement as the executor takes it: `?` placeholders and their values. */
interface Statement {
  readonly sql: string;
  readonly values: unknown[];
}

/** The row number a per-group read ranks rows by (a reserved name: no model should have such a column). */
const RANK = '__portico_rn';

/**
 * The tables of a SQL database (SQLite or PostgreSQL) through the knex connection MikroORM's
 * driver would make (`sql-connection.ts`). Operations are single statements (`insert … returning`,
 * one `IN` for many ids); driver errors are translated into port errors here and nowhere else.
 */
export class SqlTableStore implements TableStore {
  private readonly sql: SqlExecutor;
  readonly atomicStatements = true;
  readonly writeTogether?: (writes: readonly TableWrite[]) => Promise<(Row | null)[]>;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    /** The platform's reading of driver errors (MikroORM's ExceptionConverter for `dialect`). */
    private readonly exceptions: ExceptionConverter,
    readonly inTransaction = false,
    private readonly limits?: StatementLimits,
  ) {
    this.sql = new SqlExecutor(db, dialect, limits, inTransaction);
    // PostgreSQL pipelines the statements (outside a transaction); SQLite makes them in a transaction, in-process.
    if (dialect === 'postgresql' && !inTransaction) this.writeTogether = (writes) => this.pipelinedWrites(writes);
  }

  /** @internal The executor this store's statements go through (its transaction's, inside one): the task queue writes a job on it. */
  get executor(): SqlExecutor {
    return this.sql;
  }

  async transaction<T>(work: (tx: TableStore) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    return this.run('', 'read', () =>
      this.sql.transaction((connection) =>
        (this.db as Knex).transaction((trx) => work(new SqlTableStore(trx, this.dialect, this.exceptions, true, this.limits)), connection ? { connection } : {}),
      ),
    );
  }

  async ping(): Promise<void> {
    await this.run('', 'read', () => this.sql.query('select 1', []));
  }

  async delete(model: ModelDef, where: Condition): Promise<Row[]> {
    return this.run(model.table, 'delete', async () => {
      const w = conditionSql(model, where, this.dialect);
      return (await this.sql.query(`delete from ${quote(model.table)} where ${w.sql} returning *`, w.bindings)).map((raw) => decodeRow(model, raw));
    });
  }

  oneStatementInsert(model: ModelDef, rows: readonly Row[]): boolean {
    if (rows.length > rowsPerStatement(model)) return false;
    // An explicit integer key on PostgreSQL needs a second statement (setval), so a transaction.
    return !(this.dialect === 'postgresql' && model.pkKind === 'int-auto' && rows.some((r) => r[model.primaryKey] != null));
  }

  insertMany(model: ModelDef, rows: readonly Row[]): Promise<Row[]> {
    return this.run(model.table, 'insert', async () => {
      const encoded = rows.map((row) => encodeRow(model, row, this.dialect));
      // Multi-row INSERTs, chunked under the drivers' bound-parameter limits (SQLite 32 766).
      const stored: Record<string, unknown>[] = [];
      const per = rowsPerStatement(model);
      for (let i = 0; i < encoded.length; i += per) stored.push(...(await this.insertChunk(model, encoded.slice(i, i + per))));
      if (this.dialect === 'postgresql' && model.pkKind === 'int-auto' && rows.some((r) => r[model.primaryKey] != null)) {
        // An explicit key does not advance a serial sequence: move it past the largest key, as SQLite does.
        const pk = quote(model.primaryKey);
        await this.sql.query(`select setval(pg_get_serial_sequence(?, ?), greatest((select max(${pk}) from ${quote(model.table)}), 1))`, [model.table, model.primaryKey]);
      }
      return stored.map((raw) => decodeRow(model, raw));
    });
  }

  /** One multi-row `insert … returning *`. */
  private insertChunk(model: ModelDef, rows: readonly Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    const { sql, values } = this.insertStatement(model, rows);
    return this.sql.query(sql, values);
  }

  /**
   * The writes in one pipeline (one round trip, committed together); a refusal is translated for
   * the write the server refused.
   */
  private async pipelinedWrites(writes: readonly TableWrite[]): Promise<(Row | null)[]> {
    const statements = writes.map((w) => (w.kind === 'insert' ? this.insertStatement(w.model, [encodeRow(w.model, w.row, this.dialect)]) : this.updateStatement(w.model, w.where, w.changes)));
    try {
      const results = await this.sql.pipeline(statements);
      return results.map((rows, i) => (rows[0] ? decodeRow((writes[i] as TableWrite).model, rows[0]) : null));
    } catch (error) {
      const refused = writes[(error as PipelineError).statementIndex ?? 0] as TableWrite;
      throw this.translated(error, refused.model.table, refused.kind);
    }
  }

  /** A multi-row `insert … returning *`; a column a row lacks takes its default (PostgreSQL) or NULL (SQLite, where the store already filled defaults). */
  private insertStatement(model: ModelDef, rows: readonly Record<string, unknown>[]): Statement {
    const columns = model.columns.map((c) => c.name).filter((name) => rows.some((r) => r[name] !== undefined));
    const missing = this.dialect === 'postgresql' ? 'default' : 'null';
    const values: unknown[] = [];
    const tuples = rows.map((r) => `(${columns.map((name) => (r[name] === undefined ? missing : (values.push(r[name]), '?'))).join(', ')})`);
    const sql =
      columns.length === 0
        ? `insert into ${quote(model.table)} default values returning *`
        : `insert into ${quote(model.table)} (${columns.map(quote).join(', ')}) values ${tuples.join(', ')} returning *`;
    return { sql, values };
  }

  update(model: ModelDef, where: Condition, changes: Row): Promise<Row[]> {
    return this.run(model.table, 'update', async () => {
      const { sql, values } = this.updateStatement(model, where, changes);
      return (await this.sql.query(sql, values)).map((raw) => decodeRow(model, raw));
    });
  }

  /** `update … set … where … returning *` (no changes: the matching rows as they are). */
  private updateStatement(model: ModelDef, where: Condition, changes: Row): Statement {
    const encoded = Object.entries(encodeRow(model, changes, this.dialect));
    const w = conditionSql(model, where, this.dialect);
    if (encoded.length === 0) return { sql: `select * from ${quote(model.table)} where ${w.sql}`, values: [...w.bindings] };
    const sql = `update ${quote(model.table)} set ${encoded.map(([name]) => `${quote(name)} = ?`).join(', ')} where ${w.sql} returning *`;
    return { sql, values: [...encoded.map(([, v]) => v), ...w.bindings] };
  }

  async find(model: ModelDef, query: FindQuery): Promise<Row[]> {
    // Not through `run`: the read every request makes saves its extra promise and closure.
    try {
      const w = query.where ? conditionSql(model, query.where, this.dialect) : undefined;
      const where = w ? ` where ${w.sql}` : '';
      const order = query.orderBy && query.orderBy.length > 0 ? ` order by ${orderSql(query.orderBy)}` : '';
      // The columns are always named (never `*`), so each driver row holds exactly them and is decoded in place.
      const columns = query.columns ? query.columns.map((name) => columnOf(model, name) as ColumnDef) : model.columns;
      const selected = query.columns ? selectList(columns) : everyColumn(model);
      const bindings: unknown[] = w ? w.bindings : [];
      let sql: string;
      if (query.perGroup) {
        // At most `limit` rows per group, numbered inside their group by a window function (SQLite >= 3.25,
        // PostgreSQL); the outer query keeps the first ones, then orders and pages the whole result.
        const within = orderSql(query.orderBy && query.orderBy.length > 0 ? query.orderBy : [{ column: model.primaryKey, direction: 'asc' }]);
        sql =
          `select ${selected} from (select t.*, row_number() over (partition by ${quote(query.perGroup.column)} order by ${within}) as ${quote(RANK)}` +
          ` from ${quote(model.table)} t${where}) ranked where ${quote(RANK)} <= ?${order}${this.page(query, bindings, query.perGroup.limit)}`;
      } else {
        sql = `select ${selected} from ${quote(model.table)}${where}${order}${this.page(query, bindings)}`;
        // SQLite runs one transaction at a time on its one connection: the lock is implied there.
        if (query.lock === 'update' && this.dialect === 'postgresql') sql += ' for update';
      }
      return decodeRowsInPlace(await this.sql.query(sql, bindings), columns, columns === model.columns);
    } catch (error) {
      throw this.translated(error, model.table, 'read');
    }
  }

  findReferenced(model: ModelDef, column: string, where: Condition, target: ModelDef, targetWhere: Condition | undefined): Promise<Row[]> {
    return this.run(target.table, 'read', async () => {
      const w = conditionSql(model, where, this.dialect);
      const tw = targetWhere ? conditionSql(target, targetWhere, this.dialect) : undefined;
      const sql =
        `select * from ${quote(target.table)} where ${quote(target.primaryKey)} in (select ${quote(column)} from ${quote(model.table)} where ${w.sql})` +
        (tw ? ` and ${tw.sql}` : '');
      const raw = await this.sql.query(sql, [...w.bindings, ...(tw?.bindings ?? [])]);
      return raw.map((r) => decodeRow(target, r));
    });
  }

  count(model: ModelDef, where: Condition | undefined): Promise<number> {
    return this.run(model.table, 'read', async () => {
      const w = where ? conditionSql(model, where, this.dialect) : undefined;
      const [row] = await this.sql.query(`select count(*) as n from ${quote(model.table)}${w ? ` where ${w.sql}` : ''}`, w?.bindings ?? []);
      return Number(row?.n ?? 0);
    });
  }

  /**
   * LIMIT/OFFSET; SQLite needs a LIMIT before an OFFSET (-1: no limit). Appends their bindings to
   * `bindings` (after `first`, when given: a value bound before them) and returns the SQL.
   */
  private page(query: FindQuery, bindings: unknown[], first?: unknown): string {
    if (first !== undefined) bindings.push(first);
    const offset = query.offset !== undefined && query.offset > 0 ? query.offset : undefined;
    if (query.limit === undefined && offset === undefined) return '';
    const limit = query.limit ?? (this.dialect === 'sqlite' ? -1 : undefined);
    if (limit !== undefined) bindings.push(limit);
    if (offset !== undefined) bindings.push(offset);
    return `${limit !== undefined ? ' limit ?' : ''}${offset !== undefined ? ' offset ?' : ''}`;
  }

  /** Runs `fn` (an async function: it never throws synchronously), translating the driver's errors. */
  private run<T>(table: string, operation: Operation, fn: () => Promise<T>): Promise<T> {
    return fn().catch((error: unknown) => {
      throw this.translated(error, table, operation);
    });
  }

  /** The port's error for a driver's: domain errors as they are, the rest translated when known. */
  private translated(error: unknown, table: string, operation: Operation): unknown {
    if (error instanceof DomainError) return error;
    return translateSqlError(error, this.dialect, table, operation, this.exceptions) ?? error;
  }
}

/** Each model's full select list, quoted once (by its column list: what the list is made of). */
const everyColumnList = new WeakMap<readonly ColumnDef[], string>();

function everyColumn(model: ModelDef): string {
  let list = everyColumnList.get(model.columns);
  if (list === undefined) {
    list = selectList(model.columns);
    everyColumnList.set(model.columns, list);
  }
  return list;
}

function selectList(columns: readonly ColumnDef[]): string {
  return columns.map((col) => quote(col.name)).join(', ');
}

/** Rows one INSERT may carry: every row binds at most one parameter per column. */
function rowsPerStatement(model: ModelDef): number {
  return Math.max(1, Math.floor(30_000 / Math.max(1, model.columns.length)));
}
