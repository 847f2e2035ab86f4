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

/** A child list's loader: the children of `table` whose `column` points at the batch's keys, at most `limit` per parent. */
export interface ChildList {
  readonly table: string;
  readonly column: string;
  readonly limit: number;
  readonly projection: Projection | undefined;
}

/**
 * Per-request batching (SPEC "GraphQL" 6): one `IN (…)` query per relation, loaders never shared
 * across requests. `byId(table)` loads whole rows by primary key (a row loaded once serves every
 * selection of it); `byParent(table, column, limit, projection)` loads at most `limit` child rows
 * per parent whose `column` is in the batch, in one statement, reading only the projection's
 * columns when one is given (so the same child list selected two ways is two loaders). Every
 * batch first checks the request's abort signal: an operation whose client left stops reading.
 *
 * `rowsByIds` and `rowsByParents` serve the plain executor (`plain-execution.ts`): the keys of a
 * whole level of rows at once, through the same loaders (the same statements and memory),
 * answered as maps.
 */
export class Loaders {
  private readonly ids = new Map<string, DataLoader<Value, Row | null, string>>();
  private readonly parents = new Map<string, DataLoader<Value, Row[], string>>();
  private lastParent: (ChildList & { loader: DataLoader<Value, Row[], string> }) | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly primaryKey: (table: string) => string,
    private readonly signal?: AbortSignal,
  ) {}

  /** Fresh loaders of the same request over another store. */
  over(store: RecordStore): Loaders {
    return new Loaders(store, this.primaryKey, this.signal);
  }

  byId(table: string): DataLoader<Value, Row | null, string> {
    let loader = this.ids.get(table);
    if (!loader) {
      const Loader = loaderClass();
      loader = new Loader<Value, Row | null, string>(
        async (keys) => {
          const found = await this.fetchByIds(table, keys);
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
    const list: ChildList = { table, column, limit, projection };
    const name = childListName(list);
    let loader = this.parents.get(name);
    if (!loader) {
      const Loader = loaderClass();
      loader = new Loader<Value, Row[], string>(
        async (keys) => {
          const groups = await this.fetchByParents(list, keys);
          return keys.map((k) => groups.get(keyOf(k)) ?? []);
        },
        { cacheKeyFn: keyOf },
      );
      this.parents.set(name, loader);
    }
    this.lastParent = { ...list, loader };
    return loader;
  }

  /**
   * The rows of `table` with these primary keys, by `keyOf` (null for none): through the table's
   * loader, so one statement for the keys neither read nor being read, and one memory with
   * `post(id)` and the relation resolvers.
   */
  rowsByIds(table: string, keys: readonly Value[]): Promise<ReadonlyMap<string, Row | null>> {
    return loadedMap(this.byId(table), keys);
  }

  /** The child rows of each parent key, by `keyOf`: through the list's loader, as `rowsByIds`. */
  rowsByParents({ table, column, limit, projection }: ChildList, keys: readonly Value[]): Promise<ReadonlyMap<string, Row[]>> {
    return loadedMap(this.byParent(table, column, limit, projection), keys);
  }

  private async fetchByIds(table: string, keys: readonly Value[]): Promise<Map<string, Row>> {
    this.signal?.throwIfAborted();
    const rows = await this.store.getManyByIds(table, [...keys]);
    const pk = this.primaryKey(table);
    return new Map(rows.map((r) => [keyOf(r[pk]), r]));
  }

  private async fetchByParents({ table, column, limit, projection }: ChildList, keys: readonly Value[]): Promise<Map<string, Row[]>> {
    this.signal?.throwIfAborted();
    const columns = projection?.columns;
    // A projection names every column the selection reads (the key too, when it is read): nothing else is fetched.
    const rows = await this.store.find(table, { where: { column, op: 'in', value: [...keys] }, perGroup: { column, limit }, ...(columns ? { columns, withoutKey: true } : {}) });
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const k = keyOf(row[column]);
      const group = groups.get(k);
      if (group) group.push(row);
      else groups.set(k, [row]);
    }
    return groups;
  }
}

function childListName({ table, column, limit, projection }: ChildList): string {
  return projection ? `${table}.${column}.${limit}(${projection.key})` : `${table}.${column}.${limit}`;
}

/** A loader's answers for `keys` (each asked once, in the order first given), by `keyOf`; the first failure is thrown. */
async function loadedMap<V>(loader: DataLoader<Value, V, string>, keys: readonly Value[]): Promise<Map<string, V>> {
  const distinct = new Map<string, Value>();
  for (const k of keys) {
    const key = keyOf(k);
    if (!distinct.has(key)) distinct.set(key, k);
  }
  const values = await loader.loadMany([...distinct.values()]);
  const out = new Map<string, V>();
  let i = 0;
  for (const key of distinct.keys()) {
    const value = values[i++];
    if (value instanceof Error) throw value;
    out.set(key, value as V);
  }
  return out;
}
