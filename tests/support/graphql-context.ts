import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import type { Departure, GraphqlContext } from '../../src/adapters/graphql/build-schema.js';
import { Loaders } from '../../src/adapters/graphql/loaders.js';
import { GraphqlReads } from '../../src/application/graphql/graphql-reads.js';
import { GraphqlWrites } from '../../src/application/graphql/graphql-writes.js';
import { EntityTags } from '../../src/application/rest/entity-tags.js';
import type { Identity } from '../../src/domain/auth/identity.js';
import type { ModelRegistry } from '../../src/domain/model/model-registry.js';
import type { RecordStore } from '../../src/ports/record-store.js';

/** A GraphQL request's resolver context over `store`, as the plugin makes it: the use cases bound to `identity`, DataLoaders over the reads. */
export function graphqlContext(store: RecordStore, registry: ModelRegistry, identity: Identity, signal: AbortSignal = new AbortController().signal, departure: Departure = signal): GraphqlContext {
  const reads = new GraphqlReads(store, registry).for(identity);
  return { identity, reads, writes: new GraphqlWrites(store, new EntityTags(undefined)).for(identity), loaders: new Loaders(reads, departure), events: new MemoryEventBus(), signal, departure };
}
