/**
 * The host-app guide's example (docs/guide/README.md): a two-model app used from code, without
 * HTTP, on any database address. `tests/e2e/guide.test.ts` runs it on `memory:`, SQLite and
 * PostgreSQL, so the guide cannot drift from the API.
 */
import { c, createApp, defineModel, graphql, MemoryMailer, rest, writeNestedTree, AllowAny, type NestedSpec, type PorticoApp } from '../../src/index.js';

export const models = [
  defineModel('shelf', { id: c.id(), name: c.text() }),
  defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text(), pages: c.int().nullable() }),
];

export const restApi = () => rest().resource({ table: 'shelf', permission: AllowAny }).resource({ table: 'book', permission: AllowAny });
export const graphqlApi = () => graphql().expose('shelf').expose('book');

/** The app: REST for both models, GraphQL reads of both, an in-memory outbox instead of SMTP. */
export function buildLibrary(database: string): PorticoApp {
  return createApp({ database, models, autoMigrate: true, logRequests: false, mailer: new MemoryMailer() }).use(restApi()).use(graphqlApi());
}

/** Which JSON array key holds which child table, per parent table. */
export const SHELF_WITH_BOOKS: NestedSpec = new Map([['shelf', [{ key: 'books', table: 'book' }]]]);

/** Writes a shelf and its books in one transaction, from code (no HTTP, no permission checks). */
export async function stockShelf(app: PorticoApp, name: string, titles: readonly string[]): Promise<{ shelfId: number; bookIds: number[] }> {
  const tree = await app.store.transaction((tx) =>
    writeNestedTree(tx, app.registry, SHELF_WITH_BOOKS, 'shelf', { name, books: titles.map((title) => ({ title })) }),
  );
  const books = tree.children.books?.rows ?? [];
  return { shelfId: tree.row.id as number, bookIds: books.map((b) => b.row.id as number) };
}
