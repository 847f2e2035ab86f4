import type { GraphQLSchema } from 'graphql';
import type { CallerReads } from '../../application/graphql/graphql-reads.js';
import type { CallerWrites } from '../../application/graphql/graphql-writes.js';
import { EntityTags } from '../../application/rest/entity-tags.js';
import type { Identity } from '../../domain/auth/identity.js';
import { readPolicy, type GraphqlConfig, type IdentityGate } from '../../domain/graphql/read-policy.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { EventBus } from '../../ports/event-bus.js';
import { buildMutations } from './build-mutations.js';
import { buildQueryFields } from './build-schema-queries.js';
import { buildObjectTypes, type FilePresenter } from './build-schema-types.js';
import { buildSubscriptions } from './build-subscriptions.js';
import { typeSystem } from './graphql-js.js';
import type { Loaders } from './loaders.js';
import { rejectingResolvers } from './rejecting-resolvers.js';

/** What every resolver sees for one request: its caller, and the use cases bound to it. */
export type GraphqlContext = {
  readonly identity: Identity;
  /** The read use cases, bound to the caller (they apply its row policy). */
  readonly reads: CallerReads;
  /** The write use cases, bound to the caller. */
  readonly writes: CallerWrites;
  /** The request's DataLoaders over `reads`. */
  readonly loaders: Loaders;
  readonly events: EventBus;
  /** Aborted when the client leaves: resolvers stop reading. Made when first read (an AbortSignal and its listener cost about 10 µs). */
  readonly signal: AbortSignal;
  /** The same departure, told without a signal: what Portico's own reads check before each statement. */
  readonly departure: Departure;
};

/** Whether the client has left (an AbortSignal is one; over HTTP a check of the response's state). */
export interface Departure {
  readonly aborted: boolean;
  /** Throws the reason once the client has left. */
  throwIfAborted(): void;
}

const { GraphQLObjectType, GraphQLSchema: Schema } = typeSystem;

/**
 * Derives the read schema from the registry (SPEC "GraphQL types", "GraphQL" 1-7): one object
 * type per exposed model; nothing unexposed appears, not even in introspection; hidden columns
 * and `password_hash` are absent; a private column with an unlock rule is a nullable field read
 * as null unless unlocked; relations only where both ends are exposed, batched per request;
 * `post(id)`, `posts(limit, offset)` and `postsConnection(first, after, orderBy, desc)`. The type
 * of a mutable model carries `_version`, the entity tag of the row (`tags`: the app's, so that it
 * is the REST `ETag`). A file column is a `StoredFile` object (`presentFile`: name, size, type and a
 * signed link, as REST answers it); uploads go through REST.
 */
export function buildGraphqlSchema(
  registry: ModelRegistry,
  config: GraphqlConfig,
  mutable: ReadonlyMap<string, IdentityGate | undefined> = new Map(),
  subscribable: ReadonlySet<string> = new Set(),
  tags: EntityTags = new EntityTags(undefined),
  presentFile?: FilePresenter,
): GraphQLSchema {
  const policy = readPolicy(config);
  const models = registry.all().filter((m) => policy.exposed(m.table));
  const types = buildObjectTypes(registry, models, policy, { tags, tables: new Set(mutable.keys()) }, presentFile);
  const query = buildQueryFields(models, types, policy);
  const mutations = buildMutations(registry, config, mutable, types);
  const subscriptions = buildSubscriptions(registry, subscribable, types, policy.checkGate);
  const schema = new Schema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    ...(Object.keys(subscriptions).length > 0 ? { subscription: new GraphQLObjectType({ name: 'Subscription', fields: subscriptions }) } : {}),
    ...(Object.keys(mutations).length > 0 ? { mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutations }) } : {}),
  });
  // No resolver throws: graphql-js would leave a list's other items' rejections unhandled.
  return rejectingResolvers(schema);
}
