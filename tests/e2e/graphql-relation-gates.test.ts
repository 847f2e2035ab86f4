import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { c, createApp, defineModel, graphql, type PorticoApp } from '../../src/index.js';

/**
 * A relation into a gated table (exposeIf) refuses that field, not the query: the rows the caller
 * may read still come back, the refused relation is null with a FORBIDDEN error at its path. The
 * relation resolvers return the loader's promise directly and a refused gate throws; graphql-jit
 * (queries) and graphql-js (what it declines) must both answer that as a field error.
 */
describe('GraphQL relations into a gated table', () => {
  let app: PorticoApp;
  let url: string;
  beforeAll(async () => {
    app = createApp({
      database: 'memory:',
      logRequests: false,
      models: [
        defineModel('shelf', { id: c.id(), name: c.text() }),
        defineModel('vault', { id: c.id(), label: c.text() }),
        defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), vault_id: c.fk('vault').nullable(), title: c.text() }),
        defineModel('room', { id: c.id(), name: c.text() }),
        defineModel('memo', { id: c.id(), room_id: c.fk('room'), text: c.text() }),
      ],
    }).use(graphql().expose('book').expose('room').exposeIf('shelf', () => false).exposeIf('vault', () => false).exposeIf('memo', () => false));
    ({ url } = await app.listen(0));
    const shelf = await app.store.insert('shelf', { name: 'Fiction' });
    const vault = await app.store.insert('vault', { label: 'Rare' });
    await app.store.insert('book', { shelf_id: shelf.id ?? null, vault_id: vault.id ?? null, title: 'Dune' });
    await app.store.insert('book', { shelf_id: shelf.id ?? null, vault_id: null, title: 'Emma' });
    const room = await app.store.insert('room', { name: 'Attic' });
    await app.store.insert('memo', { room_id: room.id ?? null, text: 'private' });
  });
  afterAll(async () => app.close());

  const gql = async (query: string) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await res.json()) as { data?: { books?: unknown[] } | null; errors?: { path?: unknown[]; extensions?: { code?: string } }[] };
  };

  it('the row a foreign key points at: null with FORBIDDEN at its path, the other rows intact', async () => {
    const body = await gql('{ books { title vault { label } } }');
    expect(body.data?.books).toEqual([
      { title: 'Dune', vault: null },
      { title: 'Emma', vault: null },
    ]);
    // Emma has no vault: nothing to refuse. Dune's vault is refused.
    expect(body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([[['books', 0, 'vault'], 'FORBIDDEN']]);
  });

  it('the rows pointing at a row, in a gated table: the list is refused at its path, with one error', async () => {
    const body = (await (
      await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ rooms { name memos { text } } }' }) })
    ).json()) as { data?: unknown; errors?: { path?: unknown[]; extensions?: { code?: string } }[] };
    expect(body.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([[['rooms', 0, 'memos'], 'FORBIDDEN']]);
    // The list is non-null and so is each room: the refusal nulls the whole answer (GraphQL's null propagation).
    expect(body.data).toBeNull();
  });

  it('a gated parent refuses its whole selection, its own child list included', async () => {
    const body = await gql('{ books { title shelf { name books { title } } } }');
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(body.data?.books).toEqual([
      { title: 'Dune', shelf: null },
      { title: 'Emma', shelf: null },
    ]);
  });
});
