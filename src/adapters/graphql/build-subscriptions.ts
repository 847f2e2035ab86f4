import type { GraphQLFieldConfig, GraphQLObjectType } from 'graphql';
import type { Identity } from '../../domain/auth/identity.js';
import { fieldName } from '../../domain/graphql/names.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { Value } from '../../domain/model/types.js';
import type { SignalEvent } from '../../ports/event-bus.js';
import type { GraphqlContext } from './build-schema.js';
import { keyOf } from './loaders.js';
import { signalIterator } from './signal-iterator.js';
import { typeSystem } from './graphql-js.js';

const { GraphQLID, GraphQLNonNull } = typeSystem;


/**
 * Subscriptions for models marked subscribable (SPEC "GraphQL", "Events" 2): `postChanged(id)`
 * yields the row, re-read through the store with the type's field policy, whenever that row is
 * saved; `postDeleted` yields the id of each deleted row. The access gate is evaluated once,
 * when the subscription is established.
 */
export function buildSubscriptions(
  registry: ModelRegistry,
  subscribable: ReadonlySet<string>,
  types: ReadonlyMap<string, GraphQLObjectType>,
  checkGate: (table: string, identity: Identity) => void,
): Record<string, GraphQLFieldConfig<SignalEvent, GraphqlContext>> {
  const fields: Record<string, GraphQLFieldConfig<SignalEvent, GraphqlContext>> = {};
  for (const table of subscribable) {
    const type = types.get(table);
    if (!type) continue;
    const model = registry.require(table);
    const one = fieldName(table);
    fields[`${one}Changed`] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      subscribe: (_src, args: { id: string }, ctx) => {
        checkGate(table, ctx.identity);
        return signalIterator(ctx.events, 'post_save', table, (e) => keyOf(e.row[model.primaryKey]) === args.id);
      },
      resolve: async (event, _args, ctx) => (await ctx.store.getById(table, event.row[model.primaryKey] as Value)) ?? event.row,
    };
    fields[`${one}Deleted`] = {
      type: new GraphQLNonNull(GraphQLID),
      subscribe: (_src, _args, ctx) => {
        checkGate(table, ctx.identity);
        return signalIterator(ctx.events, 'post_delete', table, () => true);
      },
      resolve: (event) => keyOf(event.row[model.primaryKey]),
    };
  }
  return fields;
}
