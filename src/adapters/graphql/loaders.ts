import { createRequire } from 'node:module';
import type DataLoader from 'dataloader';
import type { CallerReads } from '../../application/graphql/graphql-reads.js';
import type { ChildList } from '../../application/read/read-children.js';
import type { LinkList } from '../../application/read/read-links.js';
import type { Row, Value } from '../../domain/model/types.js';
import { keyOf } from '../../domain/model/value-key.js';
import type { Departure } from './build-schema.js';
import type { Projection } from './selected-columns.js';

export { keyOf } from '../../domain/model/value-key.js';
export type { LinkList } from '../../application/read/read-links.js';

/** dataloader, loaded with the first request that reads a relation (the schema is built without it). */
let dataLoaderClass: typeof DataLoader | undefined;
const loaderClass = (): typeof DataLoader => (dataLoaderClass ??= createRequire(import.meta.url)('dataloader') as typeof DataLoader);

/** A child list's loader: the children of `table` whose `column` points at the batch's keys, at most `limit` per parent, reading the projection's columns. */
export interface ChildLoad {
  readonly table: string;
  readonly column: string;
  readonly limit: number;
  readonly projection: Projection | undefined;
}

/**
 * Per-request batching (SPEC "GraphQL" 6) with DataLoader: each loader hands its batch of keys to
 * one of the request's read use cases (`CallerReads`, bound to the caller, which applies the
 * row policy), so a relation is one statement per level; loaders are never shared across
 * requests. `byId(table)` loads whole rows by primary key (a row loaded once serves every
 * selection of it); `byParent(table, column, limit, projection)` at most `limit` child rows per
 * parent, reading only the projection's columns when one is given (so the same child list
 * selected two ways is two loaders); `byLinks` a many-to-many list, its targets through `byId`
 * (one memory of the target's rows). Every batch first checks the request's departure: an
 * operation whose client left stops reading.
 */
export class Loaders {
  private readonly ids = new Map<string, DataLoader<Value, Row | null, string>>();
  private readonly parents = new Map<string, DataLoader<Value, Row[], string>>();
  private readonly links = new Map<string, DataLoader<Value, Row[], string>>();
  private lastParent: (ChildLoad & { loader: DataLoader<Value, Row[], string> }) | undefined;

  constructor(
    private readonly reads: CallerReads,
    private readonly departure?: Departure,
  ) {}

  byId(table: string): DataLoader<Value, Row | null, string> {
    let loader = this.ids.get(table);
    if (!loader) {
      loader = this.loader<Row | null>(async (keys) => {
        const found = await this.reads.byIds(table, keys);
        return keys.map((k) => found.get(keyOf(k)) ?? null);
      });
      this.ids.set(table, loader);
    }
    return loader;
  }

  byParent(table: string, column: string, limit: number, projection?: Projection): DataLoader<Value, Row[], string> {
    // A list field asks once per parent row with the same arguments: the last answer is kept.
    const last = this.lastParent;
    if (last && last.table === table && last.column === column && last.limit === limit && last.projection === projection) return last.loader;
    const name = projection ? `${table}.${column}.${limit}(${projection.key})` : `${table}.${column}.${limit}`;
    let loader = this.parents.get(name);
    if (!loader) {
      const list: ChildList = { table, column, limit, columns: projection?.columns };
      loader = this.loader<Row[]>(async (keys) => {
        const groups = await this.reads.children(list, keys);
        return keys.map((k) => groups.get(keyOf(k)) ?? []);
      });
      this.parents.set(name, loader);
    }
    this.lastParent = { table, column, limit, projection, loader };
    return loader;
  }

  byLinks(list: LinkList): DataLoader<Value, Row[], string> {
    const name = `${list.through}.${list.sourceColumn}.${list.limit}`;
    let loader = this.links.get(name);
    if (!loader) {
      const fixed: LinkList = { target: list.target, through: list.through, sourceColumn: list.sourceColumn, targetColumn: list.targetColumn, limit: list.limit };
      loader = this.loader<Row[]>(async (keys) => {
        const groups = await this.reads.links(fixed, keys, (targets) => this.targetRows(fixed.target, targets));
        return keys.map((k) => groups.get(keyOf(k)) ?? []);
      });
      this.links.set(name, loader);
    }
    return loader;
  }

  /** The linked rows through `byId`'s loader (a row read once per request, whichever field asks), by `keyOf`; the first failed read is thrown. */
  private async targetRows(table: string, keys: readonly Value[]): Promise<Map<string, Row | null>> {
    const present = keys.filter((k) => k !== null && k !== undefined);
    const loaded = await this.byId(table).loadMany(present);
    const rows = new Map<string, Row | null>();
    for (const [i, row] of loaded.entries()) {
      if (row instanceof Error) throw row;
      rows.set(keyOf(present[i]), row);
    }
    return rows;
  }

  /** A DataLoader whose every batch first checks the departure. */
  private loader<V>(read: (keys: readonly Value[]) => Promise<V[]>): DataLoader<Value, V, string> {
    return new (loaderClass())<Value, V, string>(
      async (keys) => {
        this.departure?.throwIfAborted();
        return read(keys);
      },
      { cacheKeyFn: keyOf },
    );
  }
}
