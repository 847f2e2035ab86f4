import { describe, expect, it } from 'vitest';
import { buildLibrary, stockShelf } from '../../examples/guide/host-app.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';

const pg = await postgresAvailable();

/** docs/guide/README.md's example, run as written on every backend. */
async function guide(database: string): Promise<void> {
  const app = buildLibrary(database);
  await app.start(); // opens, migrates and installs the plugins: use cases work without listening
  try {
    const { shelfId, bookIds } = await stockShelf(app, 'Fiction', ['Dune', 'Emma']);
    expect(bookIds).toHaveLength(2);
    expect((await app.store.find('book', { where: { column: 'shelf_id', op: 'eq', value: shelfId } })).map((b) => b.title)).toEqual(['Dune', 'Emma']);
    const { url } = await app.listen(0);
    const rest = (await (await fetch(`${url}/api/book/?shelf_id=${shelfId}`)).json()) as { count: number };
    expect(rest.count).toBe(2);
    const gql = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ shelf(id: "${shelfId}") { name books { title } } }` }) });
    expect(await gql.json()).toEqual({ data: { shelf: { name: 'Fiction', books: [{ title: 'Dune' }, { title: 'Emma' }] } } });
  } finally {
    await app.close();
  }
}

describe('the host-app guide', () => {
  it('runs on the in-memory store', () => guide('memory:'));
  it('runs on SQLite', () => guide('sqlite::memory:'));
  it.skipIf(!pg)('runs on PostgreSQL', async () => {
    const schema = freshPgSchema();
    try {
      await guide(schema.url);
    } finally {
      await schema.drop();
    }
  });
});
