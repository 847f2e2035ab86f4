import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ColumnDef, ManyToManyDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { NestedDoc, NestedSpecOf } from '../../domain/model/typed-model.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { TableOf, TypedStore } from '../../ports/typed-store.js';
import { CreateRecord } from '../write/create-record.js';
import { UpdateRecord } from '../write/update-record.js';
import type { WriteSurface } from '../write/write-body.js';
import { linkIds, replaceLinks } from './m2m-links.js';

/** SPEC "Nested writes": parent table → its declared (json key, child table) pairs. */
export type NestedSpec = ReadonlyMap<string, readonly { readonly key: string; readonly table: string }[]>;

/** SPEC "Nested writes" 5. */
export const MAX_NESTED_DEPTH = 16;
/** Every node of a tree counts against the batch cap (DESIGN §4). */
export const MAX_NESTED_NODES = 1000;

/**
 * The security gate the REST endpoints put around the writer (SPEC "Nested writes" 8): every node
 * is written through the shared create and update paths (`CreateRecord`, `UpdateRecord`) on the
 * surface the gate names for its table, as `identity`: the field policy (hidden fields stripped,
 * privileged refused), the server-set columns and the model's row policy at every level; the gate
 * checks each table's create/change permission and keeps updates inside the object scope.
 */
export interface NestedWriteGate {
  /** Who writes: the row policy and the server-set columns are theirs; hooks and signals see them. */
  readonly identity: Identity;
  /** The surface (model and field policy) nodes of `table` are written through; throws unless the caller may `mode` rows of `table`. */
  surface(table: string, mode: 'create' | 'update'): WriteSurface;
  /** The guard of an update of row `id` of `table`, in the writing transaction: throws (404) unless the caller may change that row (it reads it within the caller's row scope). */
  mayUpdate(table: string, id: Value, tx: RecordStore): Promise<void>;
  /** False when the links of many-to-many `relation` of `table` are not writable here (then stripped silently, like a hidden column); absent: all are. */
  linkable?(table: string, relation: string): boolean;
}

/** Namespaced error constructors of the nested writer (DESIGN §3 names: `NestedError.NotFound`). */
export const NestedError = {
  /** A child key that belongs to another parent, or a missing row: 404, the whole write rolls back. */
  NotFound: (path: string, table: string, id: unknown) => new DomainError('not_found', `${path}: ${table} ${String(id)} not found under this parent`),
  /** An undeclared array key, an ambiguous or missing foreign key, depth or size over the cap: 400. */
  Invalid: (path: string, message: string) => new DomainError('invalid_input', `${path}: ${message}`, [{ field: path, message }]),
};

/** The one foreign key of `child` that targets `parent` (SPEC "Nested writes" 6: none or several → 400). */
function parentKey(child: ModelDef, parent: string, path: string): ColumnDef {
  const fks = child.columns.filter((c) => c.references?.table === parent);
  if (fks.length === 0) throw NestedError.Invalid(path, `${child.table} has no foreign key to ${parent}`);
  if (fks.length > 1) throw NestedError.Invalid(path, `${child.table} has several foreign keys to ${parent} (${fks.map((f) => f.name).join(', ')}): ambiguous`);
  return fks[0] as ColumnDef;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The document tree written: the stored row, its written children and its written many-to-many links under their keys. */
export interface WrittenTree {
  readonly row: Row;
  readonly children: Readonly<Record<string, { readonly table: string; readonly rows: readonly WrittenTree[] }>>;
  /** The target ids of each many-to-many relation the document named (`tags: ['orm', 'rest']`), as written. */
  readonly links: Readonly<Record<string, readonly Value[]>>;
}

type Links = { rel: ManyToManyDef; ids: Value[] }[];

/**
 * Writes a tree node by node. Behind a gate, every node goes through the shared create and update
 * paths; without one (trusted code), a node's fields go to the store as given.
 */
class TreeWriter {
  private nodes = 0;
  private readonly creates = new CreateRecord();
  private readonly updates = new UpdateRecord();

  constructor(
    private readonly tx: RecordStore,
    private readonly registry: ModelRegistry,
    private readonly spec: NestedSpec,
    private readonly gate?: NestedWriteGate,
  ) {}

  /**
   * Splits a node into its own fields, its declared child arrays and its many-to-many links
   * (an array of distinct target ids under the relation's name); refuses undeclared arrays.
   */
  private split(table: string, node: unknown, path: string, depth: number) {
    if (depth > MAX_NESTED_DEPTH) throw NestedError.Invalid(path, `nesting deeper than ${MAX_NESTED_DEPTH} levels`);
    if (!isObject(node)) throw NestedError.Invalid(path, 'must be a JSON object');
    if (++this.nodes > MAX_NESTED_NODES) throw NestedError.Invalid(path, `a nested write holds at most ${MAX_NESTED_NODES} rows`);
    const model = this.registry.require(table);
    const declared = this.spec.get(table) ?? [];
    const own: Record<string, unknown> = {};
    const children: { key: string; table: string; items: unknown[] }[] = [];
    const links: Links = [];
    for (const [key, value] of Object.entries(node)) {
      const decl = declared.find((d) => d.key === key);
      const m2m = model.manyToMany.find((r) => r.name === key);
      if (decl) {
        if (!Array.isArray(value)) throw NestedError.Invalid(`${path}.${key}`, 'must be an array');
        children.push({ key, table: decl.table, items: value });
      } else if (m2m) {
        if (this.gate?.linkable?.(table, key) === false) continue;
        links.push({ rel: m2m, ids: linkIds(this.registry, m2m, value, `${path}.${key}`) });
      } else if (Array.isArray(value) && !model.columns.some((c) => c.name === key && c.type === 'json')) {
        // SPEC "Nested writes" 4: an array key with no declaration is rejected, not ignored.
        throw NestedError.Invalid(`${path}.${key}`, `"${key}" is not a declared nested key of ${table}`);
      } else {
        own[key] = value;
      }
    }
    return { model, own, children, links };
  }

  async create(table: string, node: unknown, path: string, depth: number, parent?: ParentScope): Promise<WrittenTree> {
    const { model, own, children, links } = this.split(table, node, path, depth);
    const surface = this.gate?.surface(table, 'create');
    fromParent(own, parent, path);
    const writing = this.gate && surface ? this.creates.execute(this.tx, surface, this.gate.identity, own, parent) : this.tx.insert(table, withParent(own as Row, parent));
    const row = await writing.catch((e: unknown) => located(e, path));
    const out: Record<string, { table: string; rows: WrittenTree[] }> = {};
    const written = await this.writeLinks(model, row, links, path);
    for (const child of children) {
      const childModel = this.registry.require(child.table);
      const fk = parentKey(childModel, table, `${path}.${child.key}`);
      const rows: WrittenTree[] = [];
      for (const [i, item] of child.items.entries()) {
        rows.push(await this.create(child.table, item, `${path}.${child.key}[${i}]`, depth + 1, { column: fk.name, value: row[model.primaryKey] ?? null }));
      }
      out[child.key] = { table: child.table, rows };
    }
    return { row, children: out, links: written };
  }

  async update(table: string, id: Value, node: unknown, path: string, depth: number, parent?: ParentScope): Promise<WrittenTree> {
    const { model, own, children, links } = this.split(table, node, path, depth);
    const { gate } = this;
    const surface = gate?.surface(table, 'update');
    delete own[model.primaryKey];
    fromParent(own, parent, path);
    const writing =
      gate && surface
        ? this.updates.execute(this.tx, surface, gate.identity, id, own, { guard: (tx) => gate.mayUpdate(table, id, tx), guardChecksScope: true })
        : this.tx.update(table, id, own as Row);
    const row = await writing.catch((e: unknown) => located(e, path));
    if (!row) throw NestedError.NotFound(path, table, id);
    const out: Record<string, { table: string; rows: WrittenTree[] }> = {};
    const written = await this.writeLinks(model, row, links, path);
    for (const child of children) {
      const childModel = this.registry.require(child.table);
      const fk = parentKey(childModel, table, `${path}.${child.key}`);
      const parentValue = row[model.primaryKey] ?? null;
      const rows: WrittenTree[] = [];
      for (const [i, item] of child.items.entries()) {
        const at = `${path}.${child.key}[${i}]`;
        const childId = isObject(item) ? item[childModel.primaryKey] : undefined;
        if (childId === undefined || childId === null) {
          rows.push(await this.create(child.table, item, at, depth + 1, { column: fk.name, value: parentValue }));
          continue;
        }
        // SPEC "Nested writes" 2: a child of another parent is a 404 that rolls everything back.
        const existing = await this.tx.getById(child.table, childId as Value);
        if (!existing || existing[fk.name] !== parentValue) throw NestedError.NotFound(at, child.table, childId);
        rows.push(await this.update(child.table, existing[childModel.primaryKey] ?? null, item, at, depth + 1, { column: fk.name, value: parentValue }));
      }
      out[child.key] = { table: child.table, rows };
    }
    return { row, children: out, links: written };
  }

  /** Replaces the many-to-many links named in the document, on the same transaction. */
  private async writeLinks(model: ModelDef, row: Row, links: Links, path: string): Promise<Record<string, Value[]>> {
    const written: Record<string, Value[]> = {};
    for (const { rel, ids } of links) written[rel.name] = await replaceLinks(this.tx, model, row, rel, ids, `${path}.${rel.name}`);
    return written;
  }
}

/** A child's own fields: its key to the parent may be left out or repeat the parent's, and is then dropped (it is set from the parent). */
function fromParent(own: Record<string, unknown>, parent: ParentScope | undefined, path: string): void {
  if (!parent || !(parent.column in own)) return;
  if (own[parent.column] !== parent.value) throw NestedError.Invalid(`${path}.${parent.column}`, 'is set from the parent');
  delete own[parent.column];
}

/** The row a trusted node writes: its fields as given, with the key to its parent. */
function withParent(own: Row, parent: ParentScope | undefined): Row {
  return parent ? { ...own, [parent.column]: parent.value } : { ...own };
}

/** Prefixes a failure with the document path where it happened. */
function located(error: unknown, path: string): never {
  if (error instanceof DomainError && !error.message.startsWith(path)) {
    throw new DomainError(error.code, `${path}: ${error.detail}`, error.errors.map((e) => ({ ...e, field: `${path}.${e.field}` })));
  }
  throw error;
}

/**
 * Writes a document tree on the caller's transaction (SPEC "Nested writes" 8): the parent
 * first, then each declared child array with its foreign key to the parent set automatically,
 * recursively. An array of target ids under a many-to-many relation's name (`tags: ['orm']`)
 * replaces that row's links (distinct ids of the target key's type; a missing target is a 400
 * naming `<path>.tags[i]`). No security gating (use the `Gated` variant for untrusted documents).
 *
 * Typed: on a typed store (`app.store`, its transactions) a plain-object spec checks the table,
 * the document's columns and each child array's items (without the key to the parent).
 *
 * @example
 * await store.transaction((tx) => writeNestedTree(tx, registry, spec, 'shop_order', { customer: 'Ada', items: [{ sku: 'A', qty: 1 }] }));
 * await app.store.transaction((tx) => writeNestedTree(tx, app.registry, { shelf: [{ key: 'books', table: 'book' }] }, 'shelf', { name: 'Fiction', books: [{ title: 'Dune' }] }));
 */
export function writeNestedTree<S, const Spec extends NestedSpecOf<S>, N extends TableOf<S>>(tx: TypedStore<S>, registry: ModelRegistry, spec: Spec, table: N, doc: NestedDoc<S, Spec, N>): Promise<WrittenTree>;
export function writeNestedTree(tx: RecordStore, registry: ModelRegistry, spec: NestedSpec, table: string, doc: unknown): Promise<WrittenTree>;
export function writeNestedTree(tx: RecordStore | TypedStore<unknown>, registry: ModelRegistry, spec: NestedSpec | NestedSpecOf<unknown>, table: string, doc: unknown): Promise<WrittenTree> {
  const asMap: NestedSpec = spec instanceof Map ? spec : new Map(Object.entries(spec as Record<string, readonly { key: string; table: string }[]>));
  return new TreeWriter(tx as RecordStore, registry, asMap).create(table, doc, table, 1);
}

/** `writeNestedTree` behind a gate (field policy, child permissions, object scope). */
export function writeNestedTreeGated(tx: RecordStore, registry: ModelRegistry, spec: NestedSpec, table: string, doc: unknown, gate: NestedWriteGate): Promise<WrittenTree> {
  return new TreeWriter(tx, registry, spec, gate).create(table, doc, table, 1);
}

/**
 * Updates row `id` of `table` and its declared children (SPEC "Nested writes"): children with a
 * key are updated in place (404 when they belong to another parent), children without one are
 * created; children not mentioned are left untouched.
 */
export function updateNestedTree(tx: RecordStore, registry: ModelRegistry, spec: NestedSpec, table: string, id: Value, doc: unknown): Promise<WrittenTree> {
  return new TreeWriter(tx, registry, spec).update(table, id, doc, table, 1);
}

/** `updateNestedTree` behind a gate. */
export function updateNestedTreeGated(tx: RecordStore, registry: ModelRegistry, spec: NestedSpec, table: string, id: Value, doc: unknown, gate: NestedWriteGate): Promise<WrittenTree> {
  return new TreeWriter(tx, registry, spec, gate).update(table, id, doc, table, 1);
}
