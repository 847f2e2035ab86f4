import type { GraphQLFieldConfig, GraphQLObjectType } from 'graphql';
import type { ConnectionArgs } from '../../application/graphql/read-connection-page.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { fieldName, plural } from '../../domain/graphql/names.js';
import { pageSize } from '../../domain/graphql/page-size.js';
import type { ReadPolicy } from '../../domain/graphql/read-policy.js';
import type { ColumnDef, ModelDef, Value } from '../../domain/model/types.js';
import type { GraphqlContext } from './build-schema.js';
import { typeSystem } from './graphql-js.js';
import { pageArg } from './page-args.js';
import { columnsReader } from './selected-columns.js';

const { GraphQLBoolean, GraphQLID, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType: ObjectType, GraphQLString } = typeSystem;

type QueryField = GraphQLFieldConfig<unknown, GraphqlContext>;

/** One exposed model as the query fields see it. */
interface QueryModel {
  readonly model: ModelDef;
  readonly type: GraphQLObjectType;
  readonly pk: ColumnDef;
  readonly policy: ReadPolicy;
}

/**
 * The Query fields: per exposed model `post(id)`, `posts(limit, offset)` and
 * `postsConnection(first, after, orderBy, desc)`; `_empty` when nothing is exposed.
 */
export function buildQueryFields(models: readonly ModelDef[], types: ReadonlyMap<string, GraphQLObjectType>, policy: ReadPolicy): Record<string, QueryField> {
  const PageInfo = pageInfoType();
  const query: Record<string, QueryField> = {};
  for (const model of models) {
    const q: QueryModel = { model, type: types.get(model.table) as GraphQLObjectType, pk: model.columns.find((c) => c.primary) as ColumnDef, policy };
    const one = fieldName(model.table);
    const many = plural(one);
    query[one] = oneField(q);
    query[many] = listField(q);
    query[`${many}Connection`] = connectionField(q, PageInfo);
  }
  if (Object.keys(query).length === 0) {
    query._empty = { type: GraphQLBoolean, description: 'Nothing is exposed yet.', resolve: () => null };
  }
  return query;
}

function pageInfoType(): GraphQLObjectType {
  return new ObjectType({
    name: 'PageInfo',
    fields: {
      hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      startCursor: { type: GraphQLString },
      endCursor: { type: GraphQLString },
    },
  });
}

/** `post(id)`: one row by key (null when the key cannot be one of this model, or the caller's row policy does not reach it). */
function oneField({ model, type, pk, policy }: QueryModel): QueryField {
  return {
    type,
    args: { id: { type: new GraphQLNonNull(GraphQLID) } },
    resolve: async (_src, args: { id: string }, ctx) => {
      policy.checkGate(model.table, ctx.identity);
      const id = coerceId(pk, args.id);
      return id === undefined ? null : ctx.loaders.byId(model.table).load(id);
    },
  };
}

/**
 * `posts(limit, offset)`: the rows the caller's row policy reaches. A gated model's list is
 * nullable, so a refused read nulls that field only, not the whole answer.
 */
function listField({ model, type, policy }: QueryModel): QueryField {
  const columnsOf = columnsReader([model.primaryKey]);
  const listType = new GraphQLList(new GraphQLNonNull(type));
  return {
    type: policy.gated(model.table) ? listType : new GraphQLNonNull(listType),
    args: { limit: pageArg('Most rows'), offset: { type: GraphQLInt, defaultValue: 0 } },
    resolve: async (_src, args: { limit?: number | null; offset?: number | null }, ctx, info) => {
      policy.checkGate(model.table, ctx.identity);
      const limit = pageSize('limit', args.limit);
      const offset = args.offset ?? 0;
      if (offset < 0) throw new DomainError('invalid_input', `offset must not be negative (got ${offset})`, [{ field: 'offset', message: 'must not be negative' }]);
      ctx.departure.throwIfAborted();
      return ctx.reads.list(model.table, { limit, offset, columns: columnsOf(info)?.columns });
    },
  };
}

/** `postsConnection(first, after, orderBy, desc)`: a cursor page (nullable for a gated model, as the list). */
function connectionField({ model, type, pk, policy }: QueryModel, PageInfo: GraphQLObjectType): QueryField {
  const Edge = new ObjectType({
    name: `${type.name}Edge`,
    fields: { node: { type: new GraphQLNonNull(type) }, cursor: { type: new GraphQLNonNull(GraphQLString) } },
  });
  const Connection = new ObjectType({
    name: `${type.name}Connection`,
    fields: { edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Edge))) }, pageInfo: { type: new GraphQLNonNull(PageInfo) } },
  });
  return {
    type: policy.gated(model.table) ? Connection : new GraphQLNonNull(Connection),
    args: { first: pageArg('Page size'), after: { type: GraphQLString }, orderBy: { type: GraphQLString }, desc: { type: GraphQLBoolean } },
    resolve: async (_src, args: ConnectionArgs, ctx) => {
      policy.checkGate(model.table, ctx.identity);
      ctx.departure.throwIfAborted();
      return ctx.reads.connectionPage({ model, typeName: type.name, pk, policy }, args);
    },
  };
}

function coerceId(pk: ColumnDef, id: string): Value | undefined {
  if (pk.type === 'int' || pk.type === 'bigint') return /^-?\d+$/.test(id) ? (pk.type === 'int' ? Number(id) : id) : undefined;
  return id;
}
