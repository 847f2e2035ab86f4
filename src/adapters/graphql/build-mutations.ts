import type { GraphQLFieldConfig, GraphQLObjectType, GraphQLInputFieldConfig } from 'graphql';
import type { WriteSurface } from '../../application/write/write-body.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { fieldName, typeName } from '../../domain/graphql/names.js';
import type { GraphqlConfig, IdentityGate } from '../../domain/graphql/read-policy.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import { fieldPolicy } from '../../domain/rest/field-policy.js';
import type { GraphqlContext } from './build-schema.js';
import { columnScalar } from './column-scalar.js';
import { graphqlJs, typeSystem } from './graphql-js.js';

const { GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLNonNull, GraphQLScalarType, GraphQLString } = typeSystem;

/** The optional argument of `updateX` and `deleteX` naming the version the write is for. */
const EXPECTED_VERSION = {
  type: GraphQLString,
  description: 'Write only if the row is still at this version (its `_version`, or its REST ETag); else PRECONDITION_FAILED, nothing written.',
};

/** The JSON scalar for inputs (any JSON literal or variable). */
const JsonInput = new GraphQLScalarType({
  name: 'JSONInput',
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
  // Literals are read during validation and execution, once graphql-js is loaded whole.
  parseLiteral: (ast, variables) => graphqlJs().valueFromASTUntyped(ast, variables),
});

/** A key given as an ID string, converted to the column's type (an int key from "12" is 12). */
function fromId(col: ColumnDef | undefined, v: unknown): Value {
  if (v === null || v === undefined || !col) return (v ?? null) as Value;
  if (col.type === 'int' && typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return v as Value;
}

/** GraphQL's write surface of a model: the model's write policy plus GraphQL's own hide list (SPEC "GraphQL" 3). */
export function graphqlSurface(model: ModelDef, config: GraphqlConfig): WriteSurface {
  return { model, policy: fieldPolicy(model, { table: model.table, hide: [...(config.hidden.get(model.table) ?? [])] }) };
}

/**
 * The input fields of a model: what the shared write path accepts (not generated keys, hidden,
 * noform or server-set columns, never `password_hash`, never a file column), plus the privileged columns, which the
 * write path refuses with `privileged_field` so a caller learns why rather than meeting a schema error.
 */
function inputColumns(surface: WriteSurface): ColumnDef[] {
  const { model, policy } = surface;
  // A file is uploaded through REST: no GraphQL input takes one.
  return model.columns.filter(
    (c) => !c.file && !(c.primary && (c.pkKind === 'int-auto' || c.pkKind === 'uuid')) && !model.setOnCreate[c.name] && (policy.writable(c.name) || policy.privileged(c.name)),
  );
}

function inputField(surface: WriteSurface, c: ColumnDef, required: boolean): GraphQLInputFieldConfig {
  const type = columnScalar(c, JsonInput);
  return {
    type: required ? new GraphQLNonNull(type) : type,
    ...(surface.policy.privileged(c.name) ? { description: 'Privileged: refused with privileged_field from API callers.' } : {}),
  };
}

/**
 * Mutations for models marked mutable (SPEC "GraphQL types" 4, "GraphQL" 8): `createPost(data:
 * PostInput!)`, `updatePost(id, data: PostPatch!)` (reads the stored row back), `deletePost(id)`
 * → Boolean. They run the request's write use cases (`ctx.writes`: CreateRecord, UpdateRecord,
 * DeleteRecord, as REST does): the model's write policy, server-set columns, defaults, value checks, signals,
 * and its row policy for the caller (another owner's row is NOT_FOUND to update or delete; a row
 * that would not be the caller's is FORBIDDEN; the owner column is optional, the caller's id when
 * left out). `updatePost` and `deletePost` take an optional `expectedVersion` (the row's
 * `_version`): compared with the row read locked in the writing transaction, a stale one is
 * PRECONDITION_FAILED and nothing is written, so of racing writers naming one version one wins.
 */
export function buildMutations(
  registry: ModelRegistry,
  config: GraphqlConfig,
  mutable: ReadonlyMap<string, IdentityGate | undefined>,
  types: ReadonlyMap<string, GraphQLObjectType>,
): Record<string, GraphQLFieldConfig<unknown, GraphqlContext>> {
  const fields: Record<string, GraphQLFieldConfig<unknown, GraphqlContext>> = {};
  for (const [table, gate] of mutable) {
    const model = registry.require(table);
    const type = types.get(table);
    if (!type) continue;
    const surface = graphqlSurface(model, config);
    const cols = inputColumns(surface);
    const name = typeName(table);
    // The owner column of a row policy may be left out: the write path makes the row the caller's.
    const required = (c: ColumnDef) => !c.nullable && !c.default && !surface.policy.privileged(c.name) && c.name !== model.rowPolicy?.ownedBy;
    const Input = new GraphQLInputObjectType({ name: `${name}Input`, fields: Object.fromEntries(cols.map((c) => [c.name, inputField(surface, c, required(c))])) });
    const Patch = new GraphQLInputObjectType({
      name: `${name}Patch`,
      fields: Object.fromEntries(cols.filter((c) => !c.primary).map((c) => [c.name, inputField(surface, c, false)])),
    });
    const pk = model.columns.find((c) => c.primary);
    const toRow = (data: Record<string, unknown>): Row =>
      Object.fromEntries(Object.entries(data).map(([k, v]) => [k, fromId(model.columns.find((c) => c.name === k && (c.references || c.primary)), v)]));
    const allowed = (ctx: GraphqlContext) => {
      if (gate && !gate(ctx.identity)) throw new DomainError('forbidden', `not allowed to write ${table}`);
    };
    const one = fieldName(table);
    const cap = one.charAt(0).toUpperCase() + one.slice(1);
    fields[`create${cap}`] = {
      type,
      args: { data: { type: new GraphQLNonNull(Input) } },
      resolve: async (_src, args: { data: Record<string, unknown> }, ctx) => {
        allowed(ctx);
        return ctx.writes.create(surface, toRow(args.data));
      },
    };
    fields[`update${cap}`] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, data: { type: new GraphQLNonNull(Patch) }, expectedVersion: EXPECTED_VERSION },
      resolve: async (_src, args: { id: string; data: Record<string, unknown>; expectedVersion?: string | null }, ctx) => {
        allowed(ctx);
        return ctx.writes.update(surface, fromId(pk, args.id), toRow(args.data), args.expectedVersion);
      },
    };
    fields[`delete${cap}`] = {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, expectedVersion: EXPECTED_VERSION },
      resolve: async (_src, args: { id: string; expectedVersion?: string | null }, ctx) => {
        allowed(ctx);
        await ctx.writes.delete(model, fromId(pk, args.id), args.expectedVersion);
        return true;
      },
    };
  }
  return fields;
}
