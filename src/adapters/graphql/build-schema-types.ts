import type { GraphQLFieldConfig, GraphQLObjectType } from 'graphql';
import type { EntityTags } from '../../application/rest/entity-tags.js';
import { fieldName, plural, typeName } from '../../domain/graphql/names.js';
import { pageSize } from '../../domain/graphql/page-size.js';
import type { ReadPolicy } from '../../domain/graphql/read-policy.js';
import type { ModelRegistry, ReverseRelation } from '../../domain/model/model-registry.js';
import type { ColumnDef, ManyToManyDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import { jsonTimestamp } from '../../domain/model/values.js';
import type { PresentedFile } from '../../domain/storage/file-value.js';
import type { GraphqlContext } from './build-schema.js';
import { columnScalar } from './column-scalar.js';
import { COLUMNS_EXTENSION, columnsReader } from './selected-columns.js';
import { typeSystem } from './graphql-js.js';
import { pageArg } from './page-args.js';

type Fields = Record<string, GraphQLFieldConfig<Row, GraphqlContext>>;

const { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType: ObjectType, GraphQLScalarType, GraphQLString } = typeSystem;

/** The versions of the rows of updatable models: their entity tags, and the tables whose types carry `_version`. */
export interface RowVersions {
  readonly tags: EntityTags;
  readonly tables: ReadonlySet<string>;
}

/** A file column's value as every surface answers it (the storage() plugin's). */
export type FilePresenter = (value: Value | undefined) => PresentedFile | null;

/** What every object type is built from: the models, the read policy, and the types (filled before any field is read). */
interface TypeScope {
  readonly registry: ModelRegistry;
  readonly policy: ReadPolicy;
  readonly types: ReadonlyMap<string, GraphQLObjectType>;
  readonly versions: RowVersions | undefined;
  readonly presentFile: FilePresenter | undefined;
  /** The `StoredFile` type, made when a model has a file column. */
  fileType?: GraphQLObjectType;
}

/** The field that answers a row's version (left out where a column has the name). */
export const VERSION_FIELD = '_version';

const JsonScalar = new GraphQLScalarType({ name: 'JSON', description: 'Any JSON value', serialize: (v) => v });

function serialize(v: Value | undefined, col: ColumnDef): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return jsonTimestamp(v);
  if (col.primary || col.references) return String(v);
  return v;
}

/**
 * One object type per exposed model, keyed by table: its visible columns, its foreign keys as
 * relations (only where both ends are exposed, batched per request), the rows pointing at it and
 * its many-to-many relations as lists of the target type (where the target is exposed). Every
 * relation reads through the per-request loaders, under the target's gate and row policy. Fields
 * are resolved lazily, so relations may name any type of the map.
 */
export function buildObjectTypes(registry: ModelRegistry, models: readonly ModelDef[], policy: ReadPolicy, versions?: RowVersions, presentFile?: FilePresenter): Map<string, GraphQLObjectType> {
  const types = new Map<string, GraphQLObjectType>();
  const scope: TypeScope = { registry, policy, types, versions, presentFile };
  for (const model of models) types.set(model.table, objectType(scope, model));
  return types;
}

function objectType(scope: TypeScope, model: ModelDef): GraphQLObjectType {
  return new ObjectType<Row, GraphqlContext>({
    name: typeName(model.table),
    fields: () => {
      const fields: Fields = {};
      addColumnFields(scope, model, fields);
      if (scope.versions?.tables.has(model.table) && !fields[VERSION_FIELD]) fields[VERSION_FIELD] = versionField(model, scope.versions.tags);
      addReverseRelationFields(scope, model, fields);
      addManyToManyFields(scope, model, fields);
      return fields;
    },
  });
}

/** Each visible column, and after a foreign key its relation to the parent row. */
function addColumnFields(scope: TypeScope, model: ModelDef, fields: Fields): void {
  for (const col of model.columns) {
    if (!scope.policy.visible(model, col)) continue;
    fields[col.name] = columnField(scope, model, col);
    const fk = col.references;
    // A relation is traversable only when both ends are exposed (hiding the key severs it).
    if (fk && scope.policy.exposed(fk.table) && !fields[fk.relation]) {
      fields[fk.relation] = parentField(scope, scope.registry.require(fk.table), col);
    }
  }
}

/** The object a file column answers: what REST answers for it, never the storage key. */
function fileType(scope: TypeScope): GraphQLObjectType {
  scope.fileType ??= new ObjectType({
    name: 'StoredFile',
    description: 'A stored file (upload it through REST as multipart/form-data).',
    fields: {
      name: { type: new GraphQLNonNull(GraphQLString), description: 'The uploaded file name, made safe' },
      size: { type: new GraphQLNonNull(GraphQLInt), description: 'In bytes' },
      content_type: { type: new GraphQLNonNull(GraphQLString), description: 'The type its bytes show' },
      url: { type: new GraphQLNonNull(GraphQLString), description: 'A signed link to the file, valid for a limited time' },
    },
  });
  return scope.fileType;
}

/** A file column's field: the `StoredFile` object of the stored value. */
function fileField(scope: TypeScope, model: ModelDef, col: ColumnDef): GraphQLFieldConfig<Row, GraphqlContext> {
  const present = scope.presentFile;
  if (!present) throw new Error(`graphql: ${model.table}.${col.name} is a file column: mount the storage() plugin`);
  const unlock = scope.policy.unlockOf(model, col);
  const type = fileType(scope);
  return {
    type: col.nullable || col.private ? type : new GraphQLNonNull(type),
    extensions: { [COLUMNS_EXTENSION]: [col.name] },
    resolve: (row, _args, ctx) => (unlock && !unlock(ctx.identity) ? null : present(row[col.name])),
  };
}

/** A column's field: nullable when the column is or when it is private (read as null unless unlocked). */
function columnField(scope: TypeScope, model: ModelDef, col: ColumnDef): GraphQLFieldConfig<Row, GraphqlContext> {
  if (col.file) return fileField(scope, model, col);
  const unlock = scope.policy.unlockOf(model, col);
  const nullable = col.nullable || col.private;
  const type = columnScalar(col, JsonScalar);
  const field = { type: nullable ? type : new GraphQLNonNull(type), extensions: { [COLUMNS_EXTENSION]: [col.name] } };
  // Without a gate or a timestamp to format, the scalar serializes the row's value as `serialize`
  // would (ID turns a key into its string): no resolver, so graphql-jit reads the property inline.
  if (!unlock && col.type !== 'timestamp') return field;
  return { ...field, resolve: (row, _args, ctx) => (unlock && !unlock(ctx.identity) ? null : serialize(row[col.name], col)) };
}

/**
 * `_version` of an updatable model: the entity tag of the stored row (the REST `ETag`), which
 * `updateX`/`deleteX` take back as `expectedVersion`. It covers every column, so a selection of it
 * reads whole rows (its declared columns are all of them); a row read without some (none should
 * be) is read again whole, through the request's loader.
 */
function versionField(model: ModelDef, tags: EntityTags): GraphQLFieldConfig<Row, GraphqlContext> {
  const names = model.columns.map((c) => c.name);
  return {
    type: new GraphQLNonNull(GraphQLString),
    description: 'The version of the row as stored (its REST ETag): pass it as expectedVersion to update or delete only that version.',
    extensions: { [COLUMNS_EXTENSION]: names },
    resolve: (row, _args, ctx) => {
      if (names.every((n) => row[n] !== undefined)) return tags.of(model, row);
      return ctx.loaders
        .byId(model.table)
        .load(row[model.primaryKey] ?? null)
        .then((whole) => (whole ? tags.of(model, whole) : null));
    },
  };
}

/** The row a foreign key points at, read through the per-request loader (null when the caller's row policy does not reach it). */
function parentField(scope: TypeScope, target: ModelDef, col: ColumnDef): GraphQLFieldConfig<Row, GraphqlContext> {
  return {
    type: scope.types.get(target.table) as GraphQLObjectType,
    extensions: { [COLUMNS_EXTENSION]: [col.name] },
    // Not async: the loader's promise is the answer, without a promise around it per row (a refused
    // gate throws, which the schema's resolvers answer as a rejection: rejecting-resolvers.ts).
    resolve: (row, _args, ctx) => {
      const id = row[col.name];
      if (id === null || id === undefined) return null;
      scope.policy.checkGate(target.table, ctx.identity);
      return ctx.loaders.byId(target.table).load(id);
    },
  };
}

/** The exposed rows whose visible foreign key points at this model (`posts`, or `authorPosts` when several keys do). */
function addReverseRelationFields(scope: TypeScope, model: ModelDef, fields: Fields): void {
  for (const ref of scope.registry.reverseRelations(model.table)) {
    if (!scope.policy.exposed(ref.table)) continue;
    const child = scope.registry.require(ref.table);
    const fkCol = child.columns.find((c) => c.name === ref.column) as ColumnDef;
    if (!scope.policy.visible(child, fkCol)) continue;
    const name = childrenFieldName(model, child, fkCol, ref);
    if (fields[name]) continue;
    fields[name] = childrenField(scope, model, child, ref);
  }
}

function childrenFieldName(model: ModelDef, child: ModelDef, fkCol: ColumnDef, ref: ReverseRelation): string {
  const several = child.columns.filter((c) => c.references?.table === model.table).length > 1;
  const base = plural(fieldName(child.table));
  return several ? `${fkCol.references?.relation ?? ref.column}${typeName(base)}` : base;
}

function childrenField(scope: TypeScope, model: ModelDef, child: ModelDef, ref: ReverseRelation): GraphQLFieldConfig<Row, GraphqlContext> {
  // The child rows are grouped by the key they point with; their own key is read only when the
  // selection reads it (a field, or a list of the rows pointing at them): 250 comments selected
  // by `comments { body }` cost pg about 35 µs less to parse without theirs.
  const projection = columnsReader([ref.column]);
  return {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(scope.types.get(child.table) as GraphQLObjectType))),
    args: { limit: pageArg('Most rows per parent') },
    extensions: { [COLUMNS_EXTENSION]: [model.primaryKey] },
    resolve: (row, args: { limit?: number | null }, ctx, info) => {
      scope.policy.checkGate(child.table, ctx.identity);
      return ctx.loaders.byParent(child.table, ref.column, pageSize('limit', args.limit), projection(info)).load(row[model.primaryKey] ?? null);
    },
  };
}

/** Each many-to-many relation whose target is exposed, under its name (unless a column or another relation has it, or it is hidden). */
function addManyToManyFields(scope: TypeScope, model: ModelDef, fields: Fields): void {
  for (const rel of model.manyToMany) {
    if (!scope.policy.exposed(rel.target) || !scope.policy.relationVisible(model, rel.name) || fields[rel.name]) continue;
    fields[rel.name] = linksField(scope, model, rel);
  }
}

/**
 * The rows linked to this one (`post { tags { name } }`), in the order the links were made, at
 * most `limit`: the junction and the targets, one batched read each per level.
 */
function linksField(scope: TypeScope, model: ModelDef, rel: ManyToManyDef): GraphQLFieldConfig<Row, GraphqlContext> {
  return {
    type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(scope.types.get(rel.target) as GraphQLObjectType))),
    args: { limit: pageArg('Most linked rows per row') },
    extensions: { [COLUMNS_EXTENSION]: [model.primaryKey] },
    resolve: (row, args: { limit?: number | null }, ctx) => {
      scope.policy.checkGate(rel.target, ctx.identity);
      const list = { target: rel.target, through: rel.through, sourceColumn: rel.sourceColumn, targetColumn: rel.targetColumn, limit: pageSize('limit', args.limit) };
      return ctx.loaders.byLinks(list).load(row[model.primaryKey] ?? null);
    },
  };
}
