import type { ColumnDef } from '../../domain/model/types.js';
import { BULK_VERSION_FIELD } from '../../application/rest/bulk-update.js';
import { MAX_BATCH } from '../../application/rest/bulk-writes.js';
import { MAX_LINKS } from '../../application/rest/m2m-links.js';
import { MAX_NESTED_NODES } from '../../application/rest/nested-tree.js';
import type { RestResource } from '../../application/rest/rest-resource.js';
import type { RestServed } from '../../application/rest/rest-served.js';
import { requiredForReplace } from '../../application/write/update-record.js';
import { columnSchema, isGeneratedKey, keySchema, ref, reserveName, typeNameOf, uploadColumnSchema, type Json, type Names } from './openapi-schemas.js';

/*
 * The write-body schemas (docs/decisions.md "HTTP, REST and OpenAPI"):
 * what the server accepts, no more. Server-set (`setOnCreate`), computed, hidden, noform and
 * privileged columns and generated keys are absent; a key the URL supplies (the row's own key on
 * PUT/PATCH, the parent key of an `under()` resource or of a nested child) is absent; unknown
 * fields are refused (`additionalProperties: false`); batches say their size. The links of a
 * many-to-many relation are an optional array of distinct target keys on the single create, PUT
 * and PATCH bodies (and nested items) of a resource not scoped under a parent; bulk items have none.
 */

/** The schemas (as `$ref`s) of the bodies one resource's writes take. */
export interface WriteBodies {
  /** A single create (POST of an object). */
  readonly create: Json;
  /** A replacement (PUT). */
  readonly replace: Json;
  /** A partial update (PATCH). */
  readonly patch: Json;
  /** One item of a bulk create (POST of an array): no nested arrays, no many-to-many links. */
  readonly bulkItem: Json;
  /** One item of a bulk PATCH: its key, required, the changes, and optionally the version it changes (`_version`). */
  readonly bulkPatchItem: Json;
  /** The `multipart/form-data` bodies of a model with file columns (the files as parts, the other columns as text fields). */
  readonly uploads?: { readonly create: Json; readonly replace: Json; readonly patch: Json };
}

/** The columns a write body may carry: writable, not privileged, not computed, not set by the server, not a generated key. */
export function inputColumns(resource: RestResource, omit?: string): ColumnDef[] {
  const { policy, config } = resource;
  return resource.model.columns.filter(
    (c) =>
      c.name !== omit &&
      policy.writable(c.name) &&
      !policy.privileged(c.name) &&
      !config.computed?.[c.name] &&
      !resource.model.setOnCreate[c.name] &&
      !isGeneratedKey(c),
  );
}

type Mode = 'create' | 'update';

const object = (properties: Json, required: readonly string[], description?: string): Json => ({
  type: 'object',
  ...(description ? { description } : {}),
  properties,
  ...(required.length > 0 ? { required: [...required] } : {}),
  additionalProperties: false,
});

/** The optional version of a bulk PATCH item (never a column written). */
const BULK_VERSION: Json = {
  type: 'string',
  description: 'Change the row only if it is still at this version: its strong `ETag` (with or without the quotes). A stale one answers 412 `precondition_failed` naming the item, and the whole batch is rolled back',
};

/** Builds and registers the write-body schemas; equal bodies share one component. */
export class WriteSchemas {
  private readonly nested = new Map<string, string>();

  constructor(
    private readonly served: RestServed,
    private readonly schemas: Record<string, Json>,
    private readonly taken: Set<string>,
  ) {}

  forResource(resource: RestResource, names: Names): WriteBodies {
    const fk = resource.config.under?.fk;
    const nest = !resource.config.under; // a parent-scoped write takes the ordinary path (docs/decisions.md "Nested writes")
    const create = this.body(resource, 'create', fk, nest);
    const replace = this.body(resource, 'update', fk, nest, true);
    const patch = this.body(resource, 'update', fk, nest);
    const bulkItem = this.body(resource, 'create', fk, false);
    const patchItem = this.body(resource, 'update', fk, false);
    const pk = resource.model.primaryKey;
    const bulkPatchItem = object(
      { [pk]: keySchema(pkColumn(resource)), ...(patchItem.properties as Json), [BULK_VERSION_FIELD]: BULK_VERSION },
      [pk],
      `One ${resource.model.table} change of a bulk PATCH: its key plus the columns to change, and optionally the version of the row it changes`,
    );
    const createRef = this.register(names.input, create);
    const uploads = resource.model.columns.some((c) => c.file)
      ? { create: this.body(resource, 'create', fk, false, false, true), replace: this.body(resource, 'update', fk, false, true, true), patch: this.body(resource, 'update', fk, false, false, true) }
      : undefined;
    return {
      ...(uploads ? { uploads } : {}),
      create: createRef,
      replace: same(replace, create) ? createRef : this.register(names.replace, replace),
      patch: this.register(names.patch, patch),
      bulkItem: same(bulkItem, create) ? createRef : this.register(names.bulkItem, bulkItem),
      bulkPatchItem: this.register(names.bulkPatchItem, bulkPatchItem),
    };
  }

  private register(name: string, schema: Json): Json {
    this.schemas[name] = schema;
    return ref('schemas', name);
  }

  /**
   * A write body of `resource`. `create`: the caller-chosen key (string keys) may be given and
   * the columns a create needs are required; `update`: no key (the URL names the row), and a
   * replacement requires what PUT requires. Nested arrays follow SPEC "Nested writes".
   */
  private body(resource: RestResource, mode: Mode, omit: string | undefined, nest: boolean, replace = false, upload = false): Json {
    // A JSON body sets no file (null clears a nullable one); a multipart body carries the files as parts.
    const columns = inputColumns(resource, omit).filter((c) => (mode === 'create' || !c.primary) && (upload || !c.file || c.nullable));
    const properties: Json = Object.fromEntries(columns.map((c) => [c.name, upload ? uploadColumnSchema(c) : columnSchema(c, false)]));
    const needed = new Set(requiredForReplace(resource).filter((name) => upload || !resource.model.columns.find((c) => c.name === name)?.file));
    // A caller-supplied (string) key has no default: a create must name it.
    const required = mode === 'create' || replace ? columns.filter((c) => needed.has(c.name) || (mode === 'create' && c.primary && !c.nullable && !c.default)).map((c) => c.name) : [];
    if (nest) Object.assign(properties, this.linkArrays(resource), this.nestedArrays(resource, mode));
    return object(properties, required);
  }

  /** The many-to-many relations of `resource` a body may name: each an array of distinct target keys that replaces the row's links. */
  private linkArrays(resource: RestResource): Json {
    const out: Json = {};
    for (const rel of resource.model.manyToMany) {
      if (!resource.policy.writable(rel.name)) continue;
      out[rel.name] = {
        type: 'array',
        maxItems: MAX_LINKS,
        uniqueItems: true,
        description: `The keys of the ${rel.target} rows linked to this row: replaces its links (a missing ${rel.target} answers 400); absent leaves them as they are`,
        items: keySchema(pkColumn(this.served.resourceOf(rel.target))),
      };
    }
    return out;
  }

  /** The declared nested arrays of `parent` (SPEC "Nested writes"): children without their parent key. */
  private nestedArrays(parent: RestResource, mode: Mode): Json {
    const out: Json = {};
    for (const decl of parent.config.nested ?? []) {
      const child = this.served.resourceOf(decl.table);
      const fks = child.model.columns.filter((c) => c.references?.table === parent.model.table);
      if (fks.length !== 1) continue; // no or an ambiguous foreign key: the server refuses the key (SPEC "Nested writes" 6)
      const fk = (fks[0] as ColumnDef).name;
      const created = this.nestedItem(parent, decl.key, child, fk, 'create');
      const items = mode === 'create' ? created : isGeneratedKey(pkColumn(child) as ColumnDef) ? { oneOf: [created, this.nestedItem(parent, decl.key, child, fk, 'update')] } : this.nestedItem(parent, decl.key, child, fk, 'update');
      out[decl.key] = {
        type: 'array',
        maxItems: MAX_NESTED_NODES,
        description:
          mode === 'create'
            ? `${decl.table} rows created with this row (their \`${fk}\` is set from it)`
            : `${decl.table} rows of this row: an item with its key is changed in place (404 when it belongs to another row), one without is created; rows not named are left untouched`,
        items,
      };
    }
    return out;
  }

  /** `<Parent><Key>Item` (a new child) or `<Parent><Key>ItemUpdate` (an existing child, named by its key). */
  private nestedItem(parent: RestResource, key: string, child: RestResource, fk: string, mode: Mode): Json {
    const memo = `${parent.model.table}\u0000${key}\u0000${mode}`;
    const known = this.nested.get(memo);
    if (known) return ref('schemas', known);
    const name = reserveName(this.taken, `${typeNameOf(parent.model.table)}${typeNameOf(key)}Item${mode === 'update' ? 'Update' : ''}`);
    this.nested.set(memo, name);
    const body = this.body(child, mode, fk, true);
    const pk = child.model.primaryKey;
    this.schemas[name] =
      mode === 'create'
        ? { ...body, description: `A new ${child.model.table} row under ${parent.model.table}.${key}` }
        : object({ [pk]: keySchema(pkColumn(child)), ...(body.properties as Json) }, [pk], `An existing ${child.model.table} row under ${parent.model.table}.${key}, named by its key`);
    return ref('schemas', name);
  }
}

function pkColumn(resource: RestResource): ColumnDef | undefined {
  return resource.model.columns.find((c) => c.name === resource.model.primaryKey);
}

const same = (a: Json, b: Json): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The body of a bulk DELETE: `{ids: [...]}`, 1 to 1000 distinct keys (a repeated key is a 404 like an unknown one). */
export function bulkDeleteBody(resource: RestResource): Json {
  return {
    type: 'object',
    required: ['ids'],
    properties: { ids: { type: 'array', minItems: 1, maxItems: MAX_BATCH, uniqueItems: true, items: keySchema(pkColumn(resource)) } },
  };
}

/** A batch of 1 to 1000 items. */
export const batch = (items: Json): Json => ({ type: 'array', minItems: 1, maxItems: MAX_BATCH, items });
