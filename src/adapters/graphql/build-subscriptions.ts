import type { GraphQLFieldConfig, GraphQLObjectType } from 'graphql';
import type { Identity } from '../../domain/auth/identity.js';
import { fieldName } from '../../domain/graphql/names.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Value } from '../../domain/model/types.js';
import { keyOf } from '../../domain/model/value-key.js';
import type { SignalEvent } from '../../ports/event-bus.js';
import type { GraphqlContext } from './build-schema.js';
import { keptEvents, signalIterator } from './signal-iterator.js';
import { typeSystem } from './graphql-js.js';

const { GraphQLID, GraphQLNonNull } = typeSystem;

/**
 * Subscriptions for models marked subscribable (SPEC "GraphQL", "Events" 2): `postChanged(id)`
 * yields the row, re-read (`reads.one`) with the type's field policy, whenever that row is
 * saved; `postDeleted` yields the id of each deleted row. The access gate is evaluated once,
 * when the subscription is established. Under the model's row policy a subscriber hears only of
 * the rows it reaches: a changed row is re-read within the caller's row filter (an event whose row
 * is out of reach is skipped), a deleted row's owner column is compared with the caller's id.
 * A scope function cannot be checked against a row that is gone: a model with one is refused.
 */
export function buildSubscriptions(
  registry: ModelRegistry,
  subscribable: ReadonlySet<string>,
  types: ReadonlyMap<string, GraphQLObjectType>,
  checkGate: (table: string, identity: Identity) => void,
): Record<string, GraphQLFieldConfig<SignalEvent, GraphqlContext>> {
  const fields: Record<string, GraphQLFieldConfig<SignalEvent, GraphqlContext>> = {};
  // The events whose row was re-read within the subscriber's reach already.
  const reread = new WeakSet<SignalEvent>();
  for (const table of subscribable) {
    const type = types.get(table);
    if (!type) continue;
    const model = registry.require(table);
    if (model.rowPolicy?.scope) throw new Error(`graphql: subscribable('${table}') cannot apply the row scope function of ${table}`);
    const pk = model.primaryKey;
    const one = fieldName(table);
    fields[`${one}Changed`] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLID) } },
      subscribe: (_src, args: { id: string }, ctx) => {
        checkGate(table, ctx.identity);
        const saved = signalIterator(ctx.events, 'post_save', table, (e) => keyOf(e.row[pk]) === args.id);
        // Without a row policy (a scope function is refused above) every row is within reach.
        if (!model.rowPolicy) return saved;
        // Re-read within the caller's reach: the row as stored now, or no event at all.
        return keptEvents(saved, async (event) => {
          const row = await ctx.reads.one(table, event.row[pk] ?? null);
          if (!row) return undefined;
          const kept = { ...event, row };
          reread.add(kept);
          return kept;
        });
      },
      resolve: async (event, _args, ctx) => (reread.has(event) ? event.row : ((await ctx.reads.one(table, event.row[pk] as Value)) ?? event.row)),
    };
    fields[`${one}Deleted`] = {
      type: new GraphQLNonNull(GraphQLID),
      subscribe: (_src, _args, ctx) => {
        checkGate(table, ctx.identity);
        return signalIterator(ctx.events, 'post_delete', table, ownerTest(model, ctx.identity));
      },
      resolve: (event) => keyOf(event.row[pk]),
    };
  }
  return fields;
}

/** Whether a deleted row was the caller's under the model's `ownedBy` (every row without one; an anonymous caller owns nothing). */
function ownerTest(model: ModelDef, identity: Identity): (e: SignalEvent) => boolean {
  const owner = model.rowPolicy?.ownedBy;
  if (owner === undefined) return () => true;
  const id = identity.isAuthenticated ? identity.id : null;
  if (id === null) return () => false;
  return (e) => {
    const value = e.row[owner];
    return value !== null && value !== undefined && String(value) === String(id);
  };
}
