import { createRequire } from 'node:module';
import type DataLoader from 'dataloader';
import type { Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { Departure } from './build-schema.js';
import { keyOf, LoaderMemory } from './loader-memory.js';
import type { RowScopes } from './row-scopes.js';
import type { Projection } from './selected-columns.js';

export { keyOf } from './loader-memory.js';

/** dataloader, loaded with the first request that reads a relation (the schema is built without it). */
let dataLoaderClass: typeof DataLoader | undefined;
const loaderClass = (): typeof DataLoader => (dataLoaderClass ??= createRequire(import.meta.url)('dataloader') as typeof DataLoader);

/** A child list's loader: the children of `table` whose `column` points at the batch's keys, at most `limit` per parent. */
export interface ChildList {
  readonly table: string;
  readonly column: string;
  readonly limit: number;
  readonly projection: Projection | undefined;
}

/**
 * A many-to-many list's loader: the `target` rows linked to the batch's keys through the junction
 * `through` (its `sourceColumn` is the key, its `targetColumn` the target's key), at most `limit`
 * per key, in the order the links were made.
 */
export interface LinkList {
  readonly target: string;
  readonly through: string;
  readonly sourceColumn: string;
  readonly targetColumn: string;
  readonly limit: number;
}

/**
 * Per-request batching (SPEC "GraphQL" 6): one `IN (…)` query per relation, loaders never shared
 * across requests. `byId(table)` loads whole rows by primary key (a row loaded once serves every
 * selection of it); `byParent(table, column, limit, projection)` loads at most `limit` child rows
 * per parent whose `column` is in the batch, in one statement, reading only the projection's
 * columns when one is given (so the same child list selected two ways is two loaders). Every
 * batch first checks the request's departure: an operation whose client left stops reading.
 *
 * `rowsByIds` and `rowsByParents` serve the plain executor (`plain-execution.ts`): the keys of a
 * whole level of rows at once, through the memory the loaders use (`LoaderMemory`: the same
 * statements and rows, one promise a read instead of DataLoader's promises a key), answered as
 * maps.
 *
 * With `scopes`, every read ANDs the caller's row filter of its table (the models' row
 * policies): a row out of reach is as absent as a missing one, in the same one statement.
 * `byLinks` reads a many-to-many list as two batched reads, the junction, then the targets
 * through `byId`'s memory (so under the target's row filter).
 */
export class Loaders {
  private readonly ids = new Map<string, Kept<Row | null>>();
  private readonly parents = new Map<string, Kept<Row[]>>();
  private readonly links = new Map<string, Kept<Row[]>>();
  private lastParent: (ChildList & { kept: Kept<Row[]> }) | undefined;

  constructor(
    private readonly store: RecordStore,
    private readonly primaryKey: (table: string) => string,
    private readonly departure?: Departure,
    private readonly scopes?: RowScopes,
  ) {}

  /** Fresh loaders of the same request over another store. */
  over(store: RecordStore): Loaders {
    return new Loaders(store, this.primaryKey, this.departure, this.scopes);
  }

  /** The caller's row filter of `table` (undefined: every row), which every read of it ANDs in. */
  scopeOf(table: string): Condition | undefined {
    return this.scopes?.of(table);
  }

  byId(table: string): DataLoader<Value, Row | null, string> {
    return this.idKept(table).loader;
  }

  byParent(table: string, column: string, limit: number, projection?: Projection): DataLoader<Value, Row[], string> {
    return this.parentKept({ table, column, limit, projection }).loader;
  }

  /**
   * The rows of `table` with these primary keys, by `keyOf` (null for none): one statement for
   * the keys neither read nor being read, and one memory with `post(id)` and the relation
   * resolvers.
   */
  rowsByIds(table: string, keys: readonly Value[]): Promise<ReadonlyMap<string, Row | null>> {
    return this.idKept(table).memory.level(keys);
  }

  /** The child rows of each parent key, by `keyOf`: as `rowsByIds`, through the list's memory. */
  rowsByParents(list: ChildList, keys: readonly Value[]): Promise<ReadonlyMap<string, Row[]>> {
    return this.parentKept(list).memory.level(keys);
  }

  byLinks(list: LinkList): DataLoader<Value, Row[], string> {
    return this.linkKept(list).loader;
  }

  /** The linked rows of each source key, by `keyOf`: as `rowsByIds`, through the list's memory. */
  rowsByLinks(list: LinkList, keys: readonly Value[]): Promise<ReadonlyMap<string, Row[]>> {
    return this.linkKept(list).memory.level(keys);
  }

  private linkKept(list: LinkList): Kept<Row[]> {
    const name = `${list.through}.${list.sourceColumn}.${list.limit}`;
    let kept = this.links.get(name);
    if (!kept) {
      const fixed: LinkList = { target: list.target, through: list.through, sourceColumn: list.sourceColumn, targetColumn: list.targetColumn, limit: list.limit };
      kept = new Kept<Row[]>((keys) => this.fetchByLinks(fixed, keys), []);
      this.links.set(name, kept);
    }
    return kept;
  }

  private idKept(table: string): Kept<Row | null> {
    let kept = this.ids.get(table);
    if (!kept) {
      kept = new Kept<Row | null>((keys) => this.fetchByIds(table, keys), null);
      this.ids.set(table, kept);
    }
    return kept;
  }

  private parentKept(list: ChildList): Kept<Row[]> {
    // A list field asks once per parent row with the same arguments: the last answer is kept.
    const last = this.lastParent;
    if (last && last.table === list.table && last.column === list.column && last.limit === list.limit && last.projection === list.projection) return last.kept;
    const name = childListName(list);
    let kept = this.parents.get(name);
    if (!kept) {
      const fixed: ChildList = { table: list.table, column: list.column, limit: list.limit, projection: list.projection };
      kept = new Kept<Row[]>((keys) => this.fetchByParents(fixed, keys), []);
      this.parents.set(name, kept);
    }
    this.lastParent = { ...list, kept };
    return kept;
  }

  private async fetchByIds(table: string, keys: readonly Value[]): Promise<Map<string, Row>> {
    this.departure?.throwIfAborted();
    const scope = this.scopes?.of(table);
    const pk = this.primaryKey(table);
    const rows = scope ? await this.scopedByIds(table, pk, keys, scope) : await this.store.getManyByIds(table, [...keys]);
    return new Map(rows.map((r) => [keyOf(r[pk]), r]));
  }

  /** The rows with these keys within the caller's reach, in one statement (a key that cannot be one names no row, as `getManyByIds` has it). */
  private async scopedByIds(table: string, pk: string, keys: readonly Value[], scope: Condition): Promise<Row[]> {
    const scopes = this.scopes as RowScopes;
    const valid: Value[] = [];
    for (const k of keys) {
      const key = scopes.key(table, k);
      if (key !== undefined) valid.push(key);
    }
    if (valid.length === 0) return [];
    return this.store.find(table, { where: { all: [{ column: pk, op: 'in', value: valid }, scope] } });
  }

  private async fetchByParents({ table, column, limit, projection }: ChildList, keys: readonly Value[]): Promise<Map<string, Row[]>> {
    this.departure?.throwIfAborted();
    const columns = projection?.columns;
    const scope = this.scopes?.of(table);
    const among: Condition = { column, op: 'in', value: [...keys] };
    // A projection names every column the selection reads (the key too, when it is read): nothing else is fetched.
    const rows = await this.store.find(table, { where: scope ? { all: [among, scope] } : among, perGroup: { column, limit }, ...(columns ? { columns, withoutKey: true } : {}) });
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const k = keyOf(row[column]);
      const group = groups.get(k);
      if (group) group.push(row);
      else groups.set(k, [row]);
    }
    return groups;
  }

  /**
   * The junction's links of the keys, in the order they were made, then their targets through
   * `byId`'s memory. Under a row filter of the target, every link is read and the page cut after
   * the filter (a link to a row out of reach takes no place of the page); otherwise the junction
   * read keeps `limit` per key.
   */
  private async fetchByLinks({ target, through, sourceColumn, targetColumn, limit }: LinkList, keys: readonly Value[]): Promise<Map<string, Row[]>> {
    this.departure?.throwIfAborted();
    const filtered = this.scopes?.of(target) !== undefined;
    const links = await this.store.find(through, {
      where: { column: sourceColumn, op: 'in', value: [...keys] },
      orderBy: [{ column: this.primaryKey(through), direction: 'asc' }],
      columns: [sourceColumn, targetColumn],
      ...(filtered ? {} : { perGroup: { column: sourceColumn, limit } }),
    });
    const groups = new Map<string, Row[]>();
    if (links.length === 0) return groups;
    const rows = await this.idKept(target).memory.level(links.map((link) => link[targetColumn] ?? null));
    for (const link of links) {
      const row = rows.get(keyOf(link[targetColumn]));
      if (!row) continue;
      const k = keyOf(link[sourceColumn]);
      const group = groups.get(k) ?? [];
      if (group.length >= limit) continue;
      if (group.length === 0) groups.set(k, group);
      group.push(row);
    }
    return groups;
  }
}

/** A loader's memory, and the DataLoader over it (made when a resolver first asks for it). */
class Kept<V> {
  readonly memory: LoaderMemory<V>;
  private made: DataLoader<Value, V, string> | undefined;

  constructor(read: (keys: readonly Value[]) => Promise<ReadonlyMap<string, V>>, absent: V) {
    this.memory = new LoaderMemory<V>(read, absent);
  }

  get loader(): DataLoader<Value, V, string> {
    const memory = this.memory;
    // Its batch goes to the memory's queue at once, where the turn's level reads join it.
    this.made ??= new (loaderClass())<Value, V, string>((keys) => memory.batch(keys), { cacheKeyFn: keyOf, cacheMap: memory, batchScheduleFn: queueMicrotask });
    return this.made;
  }
}

function childListName({ table, column, limit, projection }: ChildList): string {
  return projection ? `${table}.${column}.${limit}(${projection.key})` : `${table}.${column}.${limit}`;
}
