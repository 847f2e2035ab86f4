import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Condition } from '../../src/domain/query/condition.js';
import { openTestDatabase, type TestDatabase } from '../support/open-test-database.js';

/**
 * Differential property: for random rows and random conditions, orderings and pages, the
 * in-memory store selects exactly what SQLite selects (SQL null logic included). And a
 * transaction that fails leaves the store exactly as it was.
 */
describe('stores agree', () => {
  let memory: TestDatabase;
  let sqlite: TestDatabase;
  beforeAll(async () => {
    memory = await openTestDatabase('memory');
    sqlite = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    await memory.close();
    await sqlite.close();
  });

  const name = fc.stringMatching(/^[a-cA-C%_]{0,4}$/);
  const row = fc.record({ name, bio: fc.option(name, { nil: null }) });
  const leaf: fc.Arbitrary<Condition> = fc.oneof(
    fc.record({ column: fc.constantFrom('name', 'bio'), op: fc.constantFrom('eq', 'iexact', 'ne', 'gt', 'lte', 'contains', 'icontains', 'startswith'), value: name }) as fc.Arbitrary<Condition>,
    fc.record({ column: fc.constant('bio'), op: fc.constant('isnull'), value: fc.boolean() }) as fc.Arbitrary<Condition>,
    fc.record({ column: fc.constant('id'), op: fc.constantFrom('gt', 'lt', 'eq'), value: fc.integer({ min: 0, max: 12 }) }) as fc.Arbitrary<Condition>,
    fc.record({ column: fc.constant('name'), op: fc.constant('in'), value: fc.array(name, { maxLength: 3 }) }) as fc.Arbitrary<Condition>,
  );
  const condition: fc.Arbitrary<Condition> = fc.letrec<{ c: Condition }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ all: fc.array(tie('c'), { maxLength: 3 }) }),
      fc.record({ any: fc.array(tie('c'), { maxLength: 3 }) }),
      fc.record({ not: tie('c') }),
    ),
  })).c;

  it('find and count select the same rows in the same order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { minLength: 0, maxLength: 10 }),
        condition,
        fc.constantFrom('name', 'bio', 'id'),
        fc.constantFrom('asc', 'desc') as fc.Arbitrary<'asc' | 'desc'>,
        fc.integer({ min: 0, max: 4 }),
        async (rows, where, column, direction, offset) => {
          const results = [];
          for (const t of [memory, sqlite]) {
            const store = t.db.store;
            await store.transaction(async (tx) => {
              for (const r of await tx.find('writer')) await tx.delete('writer', r.id ?? null);
              for (const [i, r] of rows.entries()) await tx.insert('writer', { id: i + 1, ...r });
            });
            const found = await store.find('writer', { where, orderBy: [{ column, direction }, { column: 'id', direction: 'asc' }], offset, limit: 5 });
            results.push({ ids: found.map((r) => r.id), count: await store.count('writer', where) });
          }
          expect(results[0]).toEqual(results[1]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a failed transaction leaves every table unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 6 }), fc.nat(5), async (rows, failAt) => {
        for (const t of [memory, sqlite]) {
          const store = t.db.store;
          const before = await store.find('writer');
          await expect(
            store.transaction(async (tx) => {
              for (const [i, r] of rows.entries()) {
                if (i === failAt % rows.length) await tx.insert('writer', { name: null });
                await tx.insert('writer', r);
              }
            }),
          ).rejects.toMatchObject({ code: 'not_null_violation' });
          expect(await store.find('writer')).toEqual(before);
        }
      }),
      { numRuns: 40 },
    );
  });
});
