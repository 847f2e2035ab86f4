import { createRequire } from 'node:module';
import type DataLoader from 'dataloader';
import type { Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Projection } from './selected-columns.js';

/** dataloader, loaded with the first request that reads a relation (the schema is built without it). */
let dataLoaderClass: typeof DataLoader | undefined;
const loaderClass = (): typeof DataLoader => (dataLoaderClass ??= createRequire(import.meta.url)('dataloader') as typeof DataLoader);

/** A map key for a column value (Dates by instant). */
export const keyOf = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

/**
 * Per-request batching (SPEC "GraphQL" 6): one `IN (…)` query per relation, loaders never shared
 * across requests. `byId(table)` loads whole rows by primary key (a row loaded once serves every
 * selection of it); `byParent(table, column, limit, projection)` loads at most `limit` child rows
 * per parent whose `column` is in the batch, in one statement, reading only the projection's
 * columns when one is given (so the same child list selected two ways is two loaders). Every
 * batch first checks the request's abort signal: an operation whose client left stops reading.
 */
export class Loaders {
  private readonly ids = new Map<string, DataLoader<Value, Row | null, string>>();
  private readonly parents = new Map<string, DataLoader<Value, Row[], string>>();
  private lastParent:
    | { table: string; column: string; limit: number; projection: Projection | undefined; loader: DataLoader<Value, Row[], string> }
    | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly primaryKey: (table: string) => string,
    private readonly signal?: AbortSignal,
  ) {}

  byId(table: string): DataLoader<Value, Row | null, string> {
    let loader = this.ids.get(table);
    if (!loader) {
      const Loader = loaderClass();
      loader = new Loader<Value, Row | null, string>(
        async (keys) => {
          this.signal?.throwIfAborted();
          const rows = await this.store.getManyByIds(table, [...keys]);
          const pk = this.primaryKey(table);
          const found = new Map(rows.map((r) => [keyOf(r[pk]), r]));
          return keys.map((k) => found.get(keyOf(k)) ?? null);
        },
        { cacheKeyFn: keyOf },
      );
      this.ids.set(table, loader);
    }
    return loader;
  }

  byParent(table: string, column: string, limit: number, projection?: Projection): DataLoader<Value, Row[], string> {
    // A list field asks once per parent row with the same arguments: the last answer is kept.
    const last = this.lastParent;
    if (last && last.table === table && last.column === column && last.limit === limit && last.projection === projection) return last.loader;
    const name = projection ? `${table}.${column}.${limit}(${projection.key})` : `${table}.${column}.${limit}`;
    const columns = projection?.columns;
    let loader = this.parents.get(name);
    if (!loader) {
      const Loader = loaderClass();
      loader = new Loader<Value, Row[], string>(
        async (keys) => {
          this.signal?.throwIfAborted();
          // A projection names every column the selection reads (the key too, when it is read): nothing else is fetched.
          const rows = await this.store.find(table, { where: { column, op: 'in', value: [...keys] }, perGroup: { column, limit }, ...(columns ? { columns, withoutKey: true } : {}) });
          const groups = new Map<string, Row[]>();
          for (const row of rows) {
            const k = keyOf(row[column]);
            const group = groups.get(k);
            if (group) group.push(row);
            else groups.set(k, [row]);
          }
          return keys.map((k) => groups.get(keyOf(k)) ?? []);
        },
        { cacheKeyFn: keyOf },
      );
      this.parents.set(name, loader);
    }
    this.lastParent = { table, column, limit, projection, loader };
    return loader;
  }
}
