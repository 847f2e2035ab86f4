import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { c, createApp, defineModel, type PorticoApp } from '../../src/index.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';

/** Issue 49, "relations are typed for includes": `app.loadRelated` on every backend. */
const pg = await postgresAvailable();
const author = defineModel('author', { id: c.id(), name: c.text() });
const post = defineModel('post', { id: c.id(), title: c.text(), author_id: c.fk('author'), editor_id: c.fk('author').nullable() });
const models = [author, post];
const build = (database: string) => createApp({ database, models, autoMigrate: true, logRequests: false });

describe.each(['memory', 'sqlite', ...(pg ? ['postgresql'] : [])])('loadRelated on %s', (backend) => {
  let app: ReturnType<typeof build>;
  const schema = backend === 'postgresql' ? freshPgSchema() : undefined;
  beforeAll(async () => {
    app = build(schema?.url ?? (backend === 'memory' ? 'memory:' : 'sqlite::memory:'));
    await app.start();
    await app.store.insertMany('author', [{ name: 'Ada' }, { name: 'Alan' }]);
    await app.store.insertMany('post', [
      { title: 'one', author_id: 1, editor_id: 2 },
      { title: 'two', author_id: 1, editor_id: null },
      { title: 'three', author_id: 2, editor_id: 1 },
    ]);
  });
  afterAll(async () => {
    await app?.close();
    await schema?.drop();
  });

  it('puts each target row under its relation name, null for a null key, and leaves the rows given untouched', async () => {
    const rows = await app.store.find('post', { orderBy: [{ column: 'id', direction: 'asc' }] });
    const posts = await app.loadRelated('post', rows, ['author', 'editor']);
    expect(posts.map((p) => [p.title, p.author?.name, p.editor?.name ?? null])).toEqual([
      ['one', 'Ada', 'Alan'],
      ['two', 'Ada', null],
      ['three', 'Alan', 'Ada'],
    ]);
    expect(rows[0]).not.toHaveProperty('author');
  });

  it('reads inside a transaction on its store, and sees what the transaction wrote', async () => {
    const seen = await app.store.transaction(async (tx) => {
      const ada = await tx.update('author', 1, { name: 'Ada King' });
      expect(ada?.name).toBe('Ada King');
      return app.loadRelated('post', await tx.find('post', { where: { column: 'id', op: 'eq', value: 1 } }), ['author'], tx);
    });
    expect(seen[0]?.author?.name).toBe('Ada King');
  });

  it('answers an unknown relation with invalid_query naming the relations there are', async () => {
    await expect((app as PorticoApp).loadRelated('post', [], ['tags'])).rejects.toMatchObject({ code: 'invalid_query', message: '"tags" is not a relation of post; loadRelated follows its foreign keys (author, editor)' });
  });
});
