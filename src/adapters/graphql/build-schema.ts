import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfig,
} from 'graphql';
import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { decodeCursor, encodeCursor } from '../../domain/graphql/cursor.js';
import { fieldName, plural, typeName } from '../../domain/graphql/names.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ColumnDef, ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import { PASSWORD_HASH } from '../../domain/rest/field-policy.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { RecordStore } from '../../ports/record-store.js';
import { buildMutations } from './build-mutations.js';
import { buildSubscriptions } from './build-subscriptions.js';
import { columnScalar } from './column-scalar.js';
import type { GraphqlConfig, IdentityGate } from './graphql-config.js';
import type { Loaders } from './loaders.js';

/** What every resolver sees for one request. */
export type GraphqlContext = {
  readonly identity: Identity;
  readonly loaders: Loaders;
  readonly store: RecordStore;
  readonly events: EventBus;
  /** Aborted when the client leaves: resolvers stop reading. */
  readonly signal: AbortSignal;
};

/** DESIGN §3: list fields default to 50 and are capped at 200. */
export const LIST_DEFAULT = 50;
export const LIST_MAX = 200;

const JsonScalar = new GraphQLScalarType({ name: 'JSON', description: 'Any JSON value', serialize: (v) => v });

function serialize(v: Value | undefined, col: ColumnDef): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (col.primary || col.references) return String(v);
  return v;
}

/** A page-size argument: absent means the default (introspection shows it), above the cap is clamped, negative is refused. */
const pageArg = (description: string) => ({ type: GraphQLInt, defaultValue: LIST_DEFAULT, description: `${description} (default ${LIST_DEFAULT}, at most ${LIST_MAX})` });

function pageSize(name: string, value: number | null | undefined): number {
  if (value === null || value === undefined) return LIST_DEFAULT;
  if (value < 0) throw new DomainError('invalid_input', `${name} must not be negative (got ${value})`, [{ field: name, message: 'must not be negative' }]);
  return Math.min(value, LIST_MAX);
}

const forbidden = (table: string) => new GraphQLError(`not allowed to read ${table}`, { extensions: { code: 'FORBIDDEN' } });

/**
 * Derives the read schema from the registry (SPEC "GraphQL types", "GraphQL" 1-7): one object
 * type per exposed model; nothing unexposed appears, not even in introspection; hidden columns
 * and `password_hash` are absent; a private column with an unlock rule is a nullable field read
 * as null unless unlocked; relations only where both ends are exposed, batched per request;
 * `post(id)`, `posts(limit, offset)` and `postsConnection(first, after, orderBy, desc)`.
 */
export function buildGraphqlSchema(
  registry: ModelRegistry,
  config: GraphqlConfig,
  mutable: ReadonlyMap<string, IdentityGate | undefined> = new Map(),
  subscribable: ReadonlySet<string> = new Set(),
): GraphQLSchema {
  const exposed = (table: string) => config.exposed.has(table);
  const gatePasses = (table: string, identity: Identity) => {
    const gate = config.exposed.get(table);
    return gate === undefined || gate(identity);
  };
  const checkGate = (table: string, identity: Identity) => {
    if (!gatePasses(table, identity)) throw forbidden(table);
  };
  const visible = (model: ModelDef, col: ColumnDef): boolean => {
    if (col.name === PASSWORD_HASH || col.hidden || config.hidden.get(model.table)?.has(col.name)) return false;
    return !col.private || config.unlocks.get(model.table)?.has(col.name) === true;
  };
  const types = new Map<string, GraphQLObjectType>();

  const objectType = (model: ModelDef): GraphQLObjectType =>
    new GraphQLObjectType<Row, GraphqlContext>({
      name: typeName(model.table),
      fields: () => {
        const fields: Record<string, GraphQLFieldConfig<Row, GraphqlContext>> = {};
        for (const col of model.columns) {
          if (!visible(model, col)) continue;
          const unlock = col.private ? config.unlocks.get(model.table)?.get(col.name) : undefined;
          const nullable = col.nullable || col.private;
          const type = columnScalar(col, JsonScalar);
          fields[col.name] = {
            type: nullable ? type : new GraphQLNonNull(type),
            resolve: (row, _args, ctx) => (unlock && !unlock(ctx.identity) ? null : serialize(row[col.name], col)),
          };
          const fk = col.references;
          // A relation is traversable only when both ends are exposed (hiding the key severs it).
          if (fk && exposed(fk.table) && !fields[fk.relation]) {
            const target = registry.require(fk.table);
            fields[fk.relation] = {
              type: types.get(fk.table) as GraphQLObjectType,
              resolve: async (row, _args, ctx) => {
                const id = row[col.name];
                if (id === null || id === undefined) return null;
                checkGate(target.table, ctx.identity);
                return ctx.loaders.byId(target.table).load(id);
              },
            };
          }
        }
        for (const ref of registry.reverseRelations(model.table)) {
          if (!exposed(ref.table)) continue;
          const child = registry.require(ref.table);
          const fkCol = child.columns.find((c) => c.name === ref.column) as ColumnDef;
          if (!visible(child, fkCol)) continue;
          const several = child.columns.filter((c) => c.references?.table === model.table).length > 1;
          const base = plural(fieldName(child.table));
          const name = several ? `${fkCol.references?.relation ?? ref.column}${typeName(base)}` : base;
          if (fields[name]) continue;
          fields[name] = {
            type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(types.get(child.table) as GraphQLObjectType))),
            args: { limit: pageArg('Most rows per parent') },
            resolve: async (row, args: { limit?: number | null }, ctx) => {
              checkGate(child.table, ctx.identity);
              return ctx.loaders.byParent(child.table, ref.column, pageSize('limit', args.limit)).load(row[model.primaryKey] ?? null);
            },
          };
        }
        return fields;
      },
    });

  const models = registry.all().filter((m) => exposed(m.table));
  for (const model of models) types.set(model.table, objectType(model));

  const PageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: {
      hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) },
      startCursor: { type: GraphQLString },
      endCursor: { type: GraphQLString },
    },
  });

  const query: Record<string, GraphQLFieldConfig<unknown, GraphqlContext>> = {};
  for (const model of models) {
    const type = types.get(model.table) as GraphQLObjectType;
    const one = fieldName(model.table);
    const many = plural(one);
    const pk = model.columns.find((c) => c.primary) as ColumnDef;
    query[one] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      resolve: async (_src, args: { id: string }, ctx) => {
        checkGate(model.table, ctx.identity);
        const id = coerceId(pk, args.id);
        return id === undefined ? null : ctx.loaders.byId(model.table).load(id);
      },
    };
    // A gated model's list is nullable, so a refused read nulls that field only, not the whole answer.
    const gated = config.exposed.get(model.table) !== undefined;
    const listType = new GraphQLList(new GraphQLNonNull(type));
    query[many] = {
      type: gated ? listType : new GraphQLNonNull(listType),
      args: { limit: pageArg('Most rows'), offset: { type: GraphQLInt, defaultValue: 0 } },
      resolve: async (_src, args: { limit?: number | null; offset?: number | null }, ctx) => {
        checkGate(model.table, ctx.identity);
        const limit = pageSize('limit', args.limit);
        const offset = args.offset ?? 0;
        if (offset < 0) throw new DomainError('invalid_input', `offset must not be negative (got ${offset})`, [{ field: 'offset', message: 'must not be negative' }]);
        ctx.signal.throwIfAborted();
        return ctx.store.find(model.table, { limit, offset });
      },
    };
    const Edge = new GraphQLObjectType({
      name: `${type.name}Edge`,
      fields: { node: { type: new GraphQLNonNull(type) }, cursor: { type: new GraphQLNonNull(GraphQLString) } },
    });
    const Connection = new GraphQLObjectType({
      name: `${type.name}Connection`,
      fields: { edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Edge))) }, pageInfo: { type: new GraphQLNonNull(PageInfo) } },
    });
    query[`${many}Connection`] = {
      type: gated ? Connection : new GraphQLNonNull(Connection),
      args: { first: pageArg('Page size'), after: { type: GraphQLString }, orderBy: { type: GraphQLString }, desc: { type: GraphQLBoolean } },
      resolve: async (_src, args: { first?: number | null; after?: string | null; orderBy?: string | null; desc?: boolean | null }, ctx) => {
        checkGate(model.table, ctx.identity);
        const orderBy = args.orderBy ?? pk.name;
        const col = model.columns.find((c) => c.name === orderBy);
        // SPEC "GraphQL" 7: orderBy cannot name a column absent from the schema.
        if (!col || !visible(model, col) || col.private || col.type === 'json') {
          throw new DomainError('invalid_input', `orderBy "${orderBy}" is not a column of ${type.name}`, [{ field: 'orderBy', message: 'unknown column' }]);
        }
        const desc = args.desc ?? false;
        const first = pageSize('first', args.first);
        const after = args.after ? decodeCursor(args.after, orderBy, desc) : undefined;
        ctx.signal.throwIfAborted();
        // One row beyond the page tells whether another page exists (SPEC "Limits": first + 1), even for first: 0.
        const rows = await ctx.store.find(model.table, {
          ...(after ? { where: afterCondition(orderBy, pk.name, desc, after.value as Value, after.key as Value) } : {}),
          orderBy: [
            { column: orderBy, direction: desc ? 'desc' : 'asc' },
            ...(orderBy === pk.name ? [] : [{ column: pk.name, direction: desc ? ('desc' as const) : ('asc' as const) }]),
          ],
          limit: first + 1,
        });
        const page = rows.slice(0, first);
        const edges = page.map((node) => ({
          node,
          cursor: encodeCursor({ orderBy, desc, value: cursorValue(node[orderBy]), key: node[pk.name] }),
        }));
        return {
          edges,
          // An empty page keeps the position it was asked from, so a pager resumes rather than restarting.
          pageInfo: {
            hasNextPage: rows.length > first,
            hasPreviousPage: after !== undefined,
            startCursor: edges[0]?.cursor ?? args.after ?? null,
            endCursor: edges.at(-1)?.cursor ?? args.after ?? null,
          },
        };
      },
    };
  }
  if (Object.keys(query).length === 0) {
    query._empty = { type: GraphQLBoolean, description: 'Nothing is exposed yet.', resolve: () => null };
  }
  const mutations = buildMutations(registry, config, mutable, types);
  const subscriptions = buildSubscriptions(registry, subscribable, types, checkGate);
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    ...(Object.keys(subscriptions).length > 0 ? { subscription: new GraphQLObjectType({ name: 'Subscription', fields: subscriptions }) } : {}),
    ...(Object.keys(mutations).length > 0 ? { mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutations }) } : {}),
  });
}

/** The ordering value a cursor keeps: as the store holds it (a key stays a number, not its ID string), a date as ISO text. */
function cursorValue(v: Value | undefined): Value {
  if (v === null || v === undefined) return null;
  return v instanceof Date ? v.toISOString() : v;
}

function coerceId(pk: ColumnDef, id: string): Value | undefined {
  if (pk.type === 'int' || pk.type === 'bigint') return /^-?\d+$/.test(id) ? (pk.type === 'int' ? Number(id) : id) : undefined;
  return id;
}

/**
 * Rows strictly after (value, key) in the order (column asc|desc nulls as PostgreSQL, key as
 * tie-breaker): the keyset condition of a cursor page.
 */
function afterCondition(column: string, pk: string, desc: boolean, value: Value, key: Value): Condition {
  const past = desc ? 'lt' : 'gt';
  const keyPast: Condition = { column: pk, op: past, value: key };
  if (column === pk) return keyPast;
  const isNull: Condition = { column, op: 'isnull', value: true };
  if (value === null) {
    // Ascending, nulls come last: only later nulls. Descending, nulls come first: later nulls, then every value.
    return desc ? { any: [{ all: [isNull, keyPast] }, { column, op: 'isnull', value: false }] } : { all: [isNull, keyPast] };
  }
  const beyond: Condition = { column, op: past, value };
  const tie: Condition = { all: [{ column, op: 'eq', value }, keyPast] };
  return desc ? { any: [beyond, tie] } : { any: [beyond, tie, isNull] };
}
