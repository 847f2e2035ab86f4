import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import { memoryRecords } from '../../src/adapters/persistence/open-database.js';
import { cryptoRandomSource } from '../../src/adapters/system/crypto-random-source.js';
import { updateNestedTree, writeNestedTree, type NestedSpec } from '../../src/application/rest/nested-tree.js';
import { c, defineModel, ModelRegistry } from '../../src/domain/model/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { ManualClock, openTestDatabase, type Backend, type TestDatabase } from '../support/open-test-database.js';

const pg = await postgresAvailable();
const SPEC: NestedSpec = new Map([['writer', [{ key: 'articles', table: 'article' }]]]);

function programmatic(backend: Backend) {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await openTestDatabase(backend);
  });
  afterEach(async () => t.close());
  const dump = async () => Promise.all(['writer', 'article', 'label', 'article_labels'].map((x) => t.db.store.find(x, { withDeleted: true })));

  it('NT-1 writes a tree with many-to-many ids on the caller\'s transaction', async () => {
    await t.db.store.insertMany('label', [{ id: 'orm', text: 'ORM' }, { id: 'rest', text: 'REST' }]);
    const tree = await t.db.store.transaction((tx) =>
      writeNestedTree(tx, t.registry, SPEC, 'writer', { name: 'Ada', articles: [{ title: 'One', labels: ['orm', 'rest'] }, { title: 'Two' }] }),
    );
    const writerId = tree.row.id;
    expect(tree.children.articles?.rows.map((a) => [a.row.title, a.row.writer_id])).toEqual([['One', writerId], ['Two', writerId]]);
    expect((await t.db.store.find('article_labels')).map((l) => l.label_id).sort()).toEqual(['orm', 'rest']);
  });

  it('NT-2 a cross-parent child id is NotFound (404) and nothing is written', async () => {
    const a = await t.db.store.transaction((tx) => writeNestedTree(tx, t.registry, SPEC, 'writer', { name: 'A', articles: [{ title: 'a1' }] }));
    const b = await t.db.store.transaction((tx) => writeNestedTree(tx, t.registry, SPEC, 'writer', { name: 'B', articles: [] }));
    const before = await dump();
    const foreign = a.children.articles?.rows[0]?.row.id;
    await expect(
      t.db.store.transaction((tx) => updateNestedTree(tx, t.registry, SPEC, 'writer', b.row.id ?? null, { name: 'B2', articles: [{ title: 'new' }, { id: foreign, title: 'stolen' }] })),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await dump()).toEqual(before);
  });

  it('NT-4 links are answered as written and replaced (not merged) on update, in the order given', async () => {
    await t.db.store.insertMany('label', [{ id: 'orm', text: 'ORM' }, { id: 'rest', text: 'REST' }, { id: 'sql', text: 'SQL' }]);
    const tree = await t.db.store.transaction((tx) => writeNestedTree(tx, t.registry, SPEC, 'writer', { name: 'Ada', articles: [{ title: 'One', labels: ['rest', 'orm'] }] }));
    const article = tree.children.articles?.rows[0];
    expect(article?.links).toEqual({ labels: ['rest', 'orm'] });
    expect(tree.links).toEqual({});
    const updated = await t.db.store.transaction((tx) => updateNestedTree(tx, t.registry, SPEC, 'article', article?.row.id ?? null, { labels: ['sql', 'orm'] }));
    expect(updated.links).toEqual({ labels: ['sql', 'orm'] });
    const stored = await t.db.store.find('article_labels', { where: { column: 'article_id', op: 'eq', value: article?.row.id ?? null } });
    expect(stored.map((l) => l.label_id)).toEqual(['sql', 'orm']);
    const cleared = await t.db.store.transaction((tx) => updateNestedTree(tx, t.registry, SPEC, 'article', article?.row.id ?? null, { title: 'Kept', labels: [] }));
    expect(cleared.links).toEqual({ labels: [] });
    expect(await t.db.store.count('article_labels', { column: 'article_id', op: 'eq', value: article?.row.id ?? null })).toBe(0);
  });

  it('NT-5 a link value that is not an array, repeats an id or names a missing target is a 400 naming it; nothing is written', async () => {
    await t.db.store.insertMany('label', [{ id: 'orm', text: 'ORM' }]);
    const before = await dump();
    const attempt = (labels: unknown) => t.db.store.transaction((tx) => writeNestedTree(tx, t.registry, SPEC, 'writer', { name: 'W', articles: [{ title: 'a', labels }] }));
    await expect(attempt('orm')).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'writer.articles[0].labels', message: 'must be an array of label ids' }] });
    await expect(attempt(['orm', 'orm'])).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'writer.articles[0].labels[1]' }] });
    await expect(attempt(['orm', 7])).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'writer.articles[0].labels[1]' }] });
    await expect(attempt(['orm', 'nope'])).rejects.toMatchObject({ code: 'foreign_key_violation', errors: [{ field: 'writer.articles[0].labels[1]', message: 'no label nope' }] });
    expect(await dump()).toEqual(before);
  });

  it('NT-3 a failed tree leaves every table exactly as it was (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ title: fc.option(fc.string({ maxLength: 5 }), { nil: null }) }), { minLength: 1, maxLength: 6 }),
        async (articles) => {
          const before = await dump();
          const doc = { name: 'W', articles: articles.map((a) => ({ title: a.title })) };
          const shouldFail = articles.some((a) => a.title === null);
          const result = await t.db.store.transaction((tx) => writeNestedTree(tx, t.registry, SPEC, 'writer', doc)).then(
            () => 'ok',
            () => 'failed',
          );
          expect(result).toBe(shouldFail ? 'failed' : 'ok');
          if (shouldFail) expect(await dump()).toEqual(before);
        },
      ),
      { numRuns: 30 },
    );
  });
}

describe('nested tree writer: in-memory', () => programmatic('memory'));
describe('nested tree writer: SQLite', () => programmatic('sqlite'));
describe.skipIf(!pg)('nested tree writer: PostgreSQL', () => programmatic('postgresql'));

describe('nested depth', () => {
  const registry = ModelRegistry.build([defineModel('node', { id: c.id(), parent_id: c.fk('node').nullable(), name: c.text() })]);
  const spec: NestedSpec = new Map([['node', [{ key: 'children', table: 'node' }]]]);
  const store = memoryRecords({ registry, events: new MemoryEventBus(), clock: new ManualClock(), random: cryptoRandomSource });
  const chain = (depth: number): Record<string, unknown> => (depth === 1 ? { name: 'leaf' } : { name: `n${depth}`, children: [chain(depth - 1)] });

  it('accepts 16 levels and refuses 17 with 400', async () => {
    await expect(store.transaction((tx) => writeNestedTree(tx, registry, spec, 'node', chain(16)))).resolves.toBeDefined();
    const before = await store.count('node');
    await expect(store.transaction((tx) => writeNestedTree(tx, registry, spec, 'node', chain(17)))).rejects.toMatchObject({ code: 'invalid_input' });
    expect(await store.count('node')).toBe(before);
  });
});
