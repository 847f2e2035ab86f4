import { ConstraintViolation } from '../../../domain/errors/domain-error.js';
import { columnOf } from '../../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../../domain/model/types.js';
import { compareValues } from '../../../domain/model/values.js';
import { pinnedValue, type Condition, type FindQuery } from '../../../domain/query/condition.js';
import type { ModelRegistry } from '../../../domain/model/model-registry.js';
import type { TableStore } from '../../../ports/table-store.js';
import { evaluate } from './evaluate-condition.js';

/** Tables by name, rows by stringified primary key, plus the integer sequences. */
interface Data {
  tables: Map<string, Map<string, Row>>;
  sequences: Map<string, number>;
}

interface Shared {
  data: Data;
  /** Serialises transactions: the tail of the queue. */
  lock: Promise<unknown>;
}

const keyOf = (v: Value): string => (v instanceof Date ? v.toISOString() : JSON.stringify(v));
const uniqueKey = (v: Value, ignoreCase: boolean): string => (ignoreCase && typeof v === 'string' ? v.toLowerCase() : keyOf(v));
/** The group of a `perGroup` value: Dates by ISO string, others by String(v); null is a group of its own, as in SQL. */
const groupKey = (v: Value | undefined): string | null => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

/**
 * Tables held in process memory, with the same integrity rules as the SQL stores (NOT NULL,
 * unique, case-insensitive unique, foreign keys, restrict on delete) and snapshot-based
 * transactions serialised by a lock. For tests and throwaway apps.
 */
export class MemoryTableStore implements TableStore {
  /** Its statements are not atomic on their own: every write runs in a transaction. */
  readonly atomicStatements = false;

  constructor(
    /** The models, for the references a delete must respect. */
    private readonly registry: ModelRegistry,
    private readonly shared: Shared = { data: { tables: new Map(), sequences: new Map() }, lock: Promise.resolve() },
    readonly inTransaction = false,
  ) {}

  async transaction<T>(work: (tx: TableStore) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    const run = async (): Promise<T> => {
      const snapshot = structuredClone(this.shared.data);
      try {
        return await work(new MemoryTableStore(this.registry, this.shared, true));
      } catch (error) {
        this.shared.data = snapshot;
        throw error;
      }
    };
    const result = this.shared.lock.then(run, run);
    this.shared.lock = result.catch(() => undefined);
    return result;
  }

  oneStatementInsert(): boolean {
    return false;
  }

  async ping(): Promise<void> {}

  private table(name: string): Map<string, Row> {
    let t = this.shared.data.tables.get(name);
    if (!t) {
      t = new Map();
      this.shared.data.tables.set(name, t);
    }
    return t;
  }

  async insertMany(model: ModelDef, rows: readonly Row[]): Promise<Row[]> {
    const out: Row[] = [];
    for (const input of rows) {
      const row: Row = {};
      for (const col of model.columns) row[col.name] = input[col.name] ?? null;
      const sequence = this.shared.data.sequences.get(model.table) ?? 0;
      if (model.pkKind === 'int-auto' && row[model.primaryKey] === null) {
        row[model.primaryKey] = sequence + 1;
        this.shared.data.sequences.set(model.table, sequence + 1);
      } else if (model.pkKind === 'int-auto') {
        this.shared.data.sequences.set(model.table, Math.max(row[model.primaryKey] as number, sequence));
      }
      this.checkIntegrity(model, row, undefined);
      this.table(model.table).set(keyOf(row[model.primaryKey] as Value), row);
      out.push(structuredClone(row));
    }
    return out;
  }

  async update(model: ModelDef, where: Condition, changes: Row): Promise<Row[]> {
    const out: Row[] = [];
    for (const [key, row] of this.entries(model, where)) {
      if (!this.matches(model, where, row)) continue;
      const next = { ...row, ...changes };
      this.checkIntegrity(model, next, key);
      this.table(model.table).set(key, next);
      out.push(structuredClone(next));
    }
    return out;
  }

  async delete(model: ModelDef, where: Condition): Promise<Row[]> {
    const t = this.table(model.table);
    const gone = this.entries(model, where).filter(([, row]) => this.matches(model, where, row));
    const keys = new Set(gone.map(([key]) => key));
    // All or nothing: a referenced row refuses before any row goes.
    for (const ref of this.registry.reverseRelations(model.table)) {
      for (const row of this.table(ref.table).values()) {
        if (row[ref.column] !== null && keys.has(keyOf(row[ref.column] as Value)) && !(ref.table === model.table && keys.has(keyOf(row[model.primaryKey] as Value)))) {
          throw new ConstraintViolation('still_referenced', model.table);
        }
      }
    }
    for (const key of keys) t.delete(key);
    return gone.map(([, row]) => structuredClone(row));
  }

  async find(model: ModelDef, query: FindQuery): Promise<Row[]> {
    const rows = this.entries(model, query.where).map(([, row]) => row).filter((row) => this.matches(model, query.where, row));
    const terms = query.orderBy ?? [];
    rows.sort((a, b) => {
      for (const term of terms) {
        const type = columnOf(model, term.column)?.type ?? 'text';
        // Nulls sort as the largest value, as PostgreSQL does (asc: last, desc: first).
        const d = compareValues(type, a[term.column] ?? null, b[term.column] ?? null);
        if (d !== 0) return term.direction === 'desc' ? -d : d;
      }
      return 0;
    });
    const kept = query.perGroup ? this.perGroup(rows, query.perGroup) : rows;
    const start = query.offset ?? 0;
    const end = query.limit === undefined ? undefined : start + query.limit;
    const page = kept.slice(start, end);
    const columns = query.columns;
    return columns ? page.map((r) => structuredClone(Object.fromEntries(columns.map((name) => [name, r[name] ?? null])))) : page.map((r) => structuredClone(r));
  }

  /**
   * The rows (with their stored keys) a condition can match: the one row of its key when it pins the primary key (found by
   * the key's text, as rows are stored), else every row. A key the lookup misses (a value written
   * differently from the stored key) falls back to every row, so the condition still decides.
   */
  private entries(model: ModelDef, where: Condition | undefined): [string, Row][] {
    const key = where ? pinnedValue(where, model.primaryKey) : undefined;
    const table = this.table(model.table);
    const stored = key === undefined ? undefined : keyOf(key);
    const row = stored === undefined ? undefined : table.get(stored);
    return row ? [[stored as string, row]] : [...table.entries()];
  }

  /** The first `limit` rows (in their current order) of each distinct value of `column`. */
  private perGroup(rows: readonly Row[], perGroup: NonNullable<FindQuery['perGroup']>): Row[] {
    const seen = new Map<string | null, number>();
    return rows.filter((row) => {
      const key = groupKey(row[perGroup.column]);
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      return n < perGroup.limit;
    });
  }

  async findReferenced(model: ModelDef, column: string, where: Condition, target: ModelDef, targetWhere: Condition | undefined): Promise<Row[]> {
    const keys = new Set<string>();
    for (const row of this.table(model.table).values()) {
      const v = row[column];
      if (v !== null && v !== undefined && this.matches(model, where, row)) keys.add(keyOf(v));
    }
    const out: Row[] = [];
    for (const row of this.table(target.table).values()) {
      if (keys.has(keyOf(row[target.primaryKey] ?? null)) && this.matches(target, targetWhere, row)) out.push(structuredClone(row));
    }
    return out;
  }

  async count(model: ModelDef, where: Condition | undefined): Promise<number> {
    let n = 0;
    for (const row of this.table(model.table).values()) if (this.matches(model, where, row)) n++;
    return n;
  }

  private matches(model: ModelDef, where: Condition | undefined, row: Row): boolean {
    return where === undefined || evaluate(model, where, row) === true;
  }

  /** NOT NULL, unique (single, case-insensitive, together) and foreign keys, as the SQL stores enforce them. */
  private checkIntegrity(model: ModelDef, row: Row, selfKey: string | undefined): void {
    for (const col of model.columns) {
      if (!col.nullable && row[col.name] === null) throw new ConstraintViolation('not_null', model.table, col.name);
    }
    const table = this.table(model.table);
    if (selfKey === undefined && table.has(keyOf(row[model.primaryKey] as Value))) {
      throw new ConstraintViolation('unique', model.table, model.primaryKey);
    }
    const others = [...table.entries()].filter(([k]) => k !== selfKey).map(([, r]) => r);
    for (const col of model.columns) {
      const v = row[col.name] ?? null;
      if (!col.unique || v === null) continue;
      const k = uniqueKey(v, col.uniqueIgnoreCase);
      if (others.some((o) => o[col.name] !== null && uniqueKey(o[col.name] as Value, col.uniqueIgnoreCase) === k)) {
        throw new ConstraintViolation('unique', model.table, col.name);
      }
    }
    for (const set of model.uniqueTogether) {
      if (set.some((name) => row[name] === null)) continue;
      const k = set.map((name) => keyOf(row[name] as Value)).join('|');
      if (others.some((o) => set.map((name) => keyOf((o[name] ?? null) as Value)).join('|') === k)) {
        throw new ConstraintViolation('unique', model.table, set.join(', '));
      }
    }
    for (const col of model.columns) {
      const v = row[col.name] ?? null;
      if (!col.references || v === null) continue;
      if (!this.table(col.references.table).has(keyOf(v))) throw new ConstraintViolation('foreign_key', model.table, col.name);
    }
  }
}

