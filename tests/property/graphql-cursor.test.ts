import fc from 'fast-check';
import { graphql as run } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import { buildGraphqlSchema } from '../../src/adapters/graphql/build-schema.js';
import { memoryRecords } from '../../src/adapters/persistence/open-database.js';
import { cryptoRandomSource } from '../../src/adapters/system/crypto-random-source.js';
import { ANONYMOUS } from '../../src/domain/auth/identity.js';
import { c, defineModel, ModelRegistry } from '../../src/domain/model/index.js';
import { graphqlContext } from '../support/graphql-context.js';
import { ManualClock } from '../support/open-test-database.js';

/** DESIGN §5: cursors page every row exactly once, whatever the ordering, ties and nulls. */
describe('GraphQL cursor connections', () => {
  const registry = ModelRegistry.build([defineModel('item', { id: c.id(), rank: c.int().nullable(), label: c.text().nullable() })]);
  const schema = buildGraphqlSchema(registry, { exposed: new Map([['item', undefined]]), hidden: new Map(), unlocks: new Map() });

  it('page every row exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ rank: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }), label: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }) }), { maxLength: 12 }),
        fc.constantFrom('id', 'rank', 'label'),
        fc.boolean(),
        fc.integer({ min: 1, max: 4 }),
        async (rows, orderBy, desc, first) => {
          const store = memoryRecords({ registry, events: new MemoryEventBus(), clock: new ManualClock(), random: cryptoRandomSource });
          if (rows.length > 0) await store.insertMany('item', rows);
          const seen: string[] = [];
          let after: string | null = null;
          for (let page = 0; page < 20; page++) {
            const result = await run({
              schema,
              source: 'query($first: Int, $after: String, $orderBy: String, $desc: Boolean) { itemsConnection(first: $first, after: $after, orderBy: $orderBy, desc: $desc) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
              variableValues: { first, after, orderBy, desc },
              contextValue: graphqlContext(store, registry, ANONYMOUS),
            });
            expect(result.errors).toBeUndefined();
            const conn = (result.data as { itemsConnection: { edges: { node: { id: string } }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }).itemsConnection;
            seen.push(...conn.edges.map((e) => e.node.id));
            if (!conn.pageInfo.hasNextPage) break;
            after = conn.pageInfo.endCursor;
          }
          expect([...seen].sort()).toEqual(rows.map((_, i) => String(i + 1)).sort());
          expect(new Set(seen).size).toBe(seen.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
