import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLScalarType,
  valueFromASTUntyped,
  type GraphQLFieldConfig,
  type GraphQLObjectType,
} from 'graphql';
import { DomainError } from '../../domain/errors/domain-error.js';
import { fieldName, typeName } from '../../domain/graphql/names.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import { ALWAYS_PRIVILEGED, PASSWORD_HASH } from '../../domain/rest/field-policy.js';
import type { GraphqlContext } from './build-schema.js';
import { columnScalar } from './column-scalar.js';
import type { GraphqlConfig, IdentityGate } from './graphql-config.js';

/** The JSON scalar for inputs (any JSON literal or variable). */
const JsonInput = new GraphQLScalarType({
  name: 'JSONInput',
  description: 'Any JSON value',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/** A key given as an ID string, converted to the column's type (an int key from "12" is 12). */
function fromId(col: ColumnDef | undefined, v: unknown): Value {
  if (v === null || v === undefined || !col) return (v ?? null) as Value;
  if (col.type === 'int' && typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return v as Value;
}

/** Columns a GraphQL writer may set (SPEC "GraphQL" 8): not generated keys, not hidden, never privileged or password_hash. */
function writable(model: ModelDef, config: GraphqlConfig): ColumnDef[] {
  return model.columns.filter(
    (c) =>
      !(c.primary && (c.pkKind === 'int-auto' || c.pkKind === 'uuid')) &&
      c.name !== PASSWORD_HASH &&
      !c.hidden &&
      !c.noform &&
      !c.privileged &&
      !ALWAYS_PRIVILEGED.has(c.name) &&
      !config.hidden.get(model.table)?.has(c.name),
  );
}

/**
 * Mutations for models marked mutable (SPEC "GraphQL types" 4, "GraphQL" 8): `createPost(data:
 * PostInput!)`, `updatePost(id, data: PostPatch!)` (reads the stored row back), `deletePost(id)`
 * → Boolean. They go through the RecordStore's write path (defaults, value checks, signals,
 * soft delete); privileged columns and `password_hash` are not in the input types at all.
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
    const cols = writable(model, config);
    const name = typeName(table);
    const required = (c: ColumnDef) => !c.nullable && !c.default;
    const Input = new GraphQLInputObjectType({
      name: `${name}Input`,
      fields: Object.fromEntries(cols.map((c) => [c.name, { type: required(c) ? new GraphQLNonNull(columnScalar(c, JsonInput)) : columnScalar(c, JsonInput) }])),
    });
    const patchCols = cols.filter((c) => !c.primary);
    const Patch = new GraphQLInputObjectType({
      name: `${name}Patch`,
      fields: Object.fromEntries(patchCols.map((c) => [c.name, { type: columnScalar(c, JsonInput) }])),
    });
    const pk = model.columns.find((c) => c.primary);
    const toRow = (data: Record<string, unknown>): Row =>
      Object.fromEntries(Object.entries(data).map(([k, v]) => [k, fromId(model.columns.find((c) => c.name === k && (c.references || c.primary)), v)]));
    const allowed = (ctx: GraphqlContext) => {
      if (gate && !gate(ctx.identity)) throw new GraphQLError(`not allowed to write ${table}`, { extensions: { code: 'FORBIDDEN' } });
    };
    const one = fieldName(table);
    const cap = one.charAt(0).toUpperCase() + one.slice(1);
    fields[`create${cap}`] = {
      type,
      args: { data: { type: new GraphQLNonNull(Input) } },
      resolve: async (_src, args: { data: Record<string, unknown> }, ctx) => {
        allowed(ctx);
        return ctx.store.insert(table, toRow(args.data));
      },
    };
    fields[`update${cap}`] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, data: { type: new GraphQLNonNull(Patch) } },
      resolve: async (_src, args: { id: string; data: Record<string, unknown> }, ctx) => {
        allowed(ctx);
        const row = await ctx.store.update(table, fromId(pk, args.id), toRow(args.data));
        if (!row) throw new DomainError('not_found', `${table} ${args.id} not found`);
        return row;
      },
    };
    fields[`delete${cap}`] = {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: async (_src, args: { id: string }, ctx) => {
        allowed(ctx);
        const done = await ctx.store.delete(table, fromId(pk, args.id));
        if (!done) throw new DomainError('not_found', `${table} ${args.id} not found`);
        return true;
      },
    };
  }
  return fields;
}
