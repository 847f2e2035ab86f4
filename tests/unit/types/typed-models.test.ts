import { describe, expectTypeOf, it } from 'vitest';
import type { BUILTIN_MODELS, BuiltinSchema } from '../../../src/domain/model/builtin-tables.js';
import { c, createApp, defineModel, where, type Insert, type Key, type ModelDecl, type Patch, type Row, type RecordStore, type SchemaOf, type TypedStore, AllowAny, hooks, rest, writeNestedTree } from '../../../src/index.js';

// Issue 49: the types `defineModel` infers. These tests run as the type checker reads them
// (`npm run typecheck`); each `@ts-expect-error` pins an error that must happen, so a widening
// that lets it compile fails the suite.

const author = defineModel('author', { id: c.id(), name: c.text(), bio: c.text().nullable() });
const tag = defineModel('tag', { slug: c.stringId(), label: c.text() });
const post = defineModel(
  'post',
  {
    id: c.id(),
    title: c.text(),
    body: c.text().default(''),
    score: c.int().default(0),
    ratio: c.float().nullable(),
    views: c.bigint().default('0'),
    price: c.decimal().nullable(),
    published: c.bool().default(false),
    day: c.date().nullable(),
    created_at: c.timestamp().defaultNow(),
    meta: c.json<{ tags: string[] }>().nullable(),
    author_id: c.fk('author'),
    tag_slug: c.fk('tag').nullable(),
    created_by_id: c.fk('auth_user'),
    secret: c.text().nullable().hidden(),
    draft_notes: c.text().nullable().private(),
    ref: c.uuid().defaultUuid(),
  },
  { setOnCreate: { created_by_id: (who) => who.id }, ownedBy: 'created_by_id' },
);
type Schema = SchemaOf<[typeof author, typeof tag, typeof post]> & BuiltinSchema;

describe('column types', () => {
  it('each builder carries its TypeScript type, nullable adds null, a foreign key takes its target key type', () => {
    type P = Row<typeof post, Schema>;
    expectTypeOf<P['id']>().toEqualTypeOf<number>();
    expectTypeOf<P['title']>().toEqualTypeOf<string>();
    expectTypeOf<P['score']>().toEqualTypeOf<number>();
    expectTypeOf<P['ratio']>().toEqualTypeOf<number | null>();
    expectTypeOf<P['views']>().toEqualTypeOf<string>();
    expectTypeOf<P['price']>().toEqualTypeOf<string | null>();
    expectTypeOf<P['published']>().toEqualTypeOf<boolean>();
    expectTypeOf<P['day']>().toEqualTypeOf<string | null>();
    expectTypeOf<P['created_at']>().toEqualTypeOf<Date>();
    expectTypeOf<P['meta']>().toEqualTypeOf<{ tags: string[] } | null>();
    expectTypeOf<P['author_id']>().toEqualTypeOf<number>();
    expectTypeOf<P['tag_slug']>().toEqualTypeOf<string | null>();
    expectTypeOf<P['ref']>().toEqualTypeOf<string>();
    expectTypeOf<Key<typeof tag>>().toEqualTypeOf<string>();
  });

  it('a row has no hidden column, and its private columns are optional', () => {
    type P = Row<typeof post, Schema>;
    expectTypeOf<P>().not.toHaveProperty('secret');
    expectTypeOf<P['draft_notes']>().toEqualTypeOf<string | null | undefined>();
    type U = Row<(typeof BUILTIN_MODELS)[0]>;
    expectTypeOf<U>().not.toHaveProperty('password_hash');
    expectTypeOf<U['username']>().toEqualTypeOf<string>();
  });

  it('without a schema a foreign key is number | string', () => {
    expectTypeOf<Row<typeof post>['author_id']>().toEqualTypeOf<number | string>();
  });

  it('defaults are checked against the column type', () => {
    c.int().default(10);
    c.text().nullable().default(null);
    c.json<{ n: number }>().default({ n: 1 });
    // @ts-expect-error: a text default on an int column
    c.int().default('ten');
    // @ts-expect-error: null on a column that is not nullable
    c.text().default(null);
    // @ts-expect-error: defaultNow is for timestamps
    c.text().defaultNow();
    // @ts-expect-error: the json default has the declared shape
    c.json<{ n: number }>().default({ n: 'one' });
  });
});

describe('Insert and Patch', () => {
  it('required columns required, defaults, nullable and server-set columns optional, generated keys absent', () => {
    type I = Insert<typeof post, Schema>;
    expectTypeOf<{ title: string; author_id: number }>().toMatchTypeOf<I>();
    expectTypeOf<I>().not.toHaveProperty('id');
    expectTypeOf<I['created_by_id']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<I['secret']>().toEqualTypeOf<string | null | undefined>();
    // @ts-expect-error: title is required
    const missing: I = { author_id: 1 };
    void missing;
    expectTypeOf<Insert<typeof tag>>().toEqualTypeOf<{ slug: string; label: string }>();
    type U = Patch<typeof post, Schema>;
    expectTypeOf<{ title: string }>().toMatchTypeOf<U>();
    expectTypeOf<U>().not.toHaveProperty('id');
  });
});

describe('a typed app', () => {
  // Never opened: the checks below are read by the type checker, not run.
  const app = createApp({ database: 'memory:', models: [author, tag, post] });

  it('the store is typed by table name; an unknown table or column is a compile error', async () => {
    expectTypeOf<typeof app.store>().toEqualTypeOf<TypedStore<SchemaOf<[typeof author, typeof tag, typeof post]> & BuiltinSchema>>();
    const check = async () => {
      const store = app.store;
      const row = await store.insert('post', { title: 't', author_id: 1 });
      expectTypeOf(row.title).toEqualTypeOf<string>();
      expectTypeOf(await store.getById('tag', 'ts')).toEqualTypeOf<{ slug: string; label: string } | null>();
      const users = await store.find('auth_user', { where: where.eq('username', 'ada') });
      expectTypeOf(users[0]!.is_staff).toEqualTypeOf<boolean>();
      await store.find('post', { where: { all: [where.eq('published', true), { column: 'score', op: 'gte', value: 3 }] }, orderBy: [{ column: 'created_at', direction: 'desc' }] });
      await store.update('post', 1, { score: 2 });
      await store.transaction(async (tx) => tx.count('post', where.eq('author_id', 1)));
      // The typed store is still a RecordStore: use cases and helpers that take one take it.
      const untyped: RecordStore = store;
      await store.transaction(async (tx) => writeNestedTree(tx, app.registry, new Map(), 'post', { title: 't', author_id: 1 }));
      expectTypeOf(untyped).toEqualTypeOf<RecordStore>();
      // @ts-expect-error: no table `boook`
      await store.insert('boook', { titel: 42 });
      // @ts-expect-error: no column `titel`
      await store.insert('post', { titel: 't', author_id: 1 });
      // @ts-expect-error: title is text
      await store.insert('post', { title: 42, author_id: 1 });
      // @ts-expect-error: no column `titel` in a condition
      await store.find('post', { where: where.eq('titel', 'x') });
      // @ts-expect-error: score is an int
      await store.find('post', { where: { column: 'score', op: 'eq', value: 'high' } });
      // @ts-expect-error: order by an unknown column
      await store.find('post', { orderBy: [{ column: 'nope', direction: 'asc' }] });
      // @ts-expect-error: a tag's key is a string
      await store.getById('tag', 1);
    };
    expectTypeOf(check).toBeFunction();
  });

  it('writeNestedTree with a plain-object spec checks the table, the columns and each child array (without the key to the parent)', async () => {
    const shelf = defineModel('shelf', { id: c.id(), name: c.text() });
    const book = defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text(), pages: c.int().nullable() });
    const page = defineModel('page', { id: c.id(), book_id: c.fk('book'), body: c.text() });
    const library = createApp({ database: 'memory:', models: [shelf, book, page] });
    const spec = { shelf: [{ key: 'books', table: 'book' }], book: [{ key: 'pages_', table: 'page' }] } as const;
    const check = async () => {
      await library.store.transaction((tx) => writeNestedTree(tx, library.registry, spec, 'shelf', { name: 'Fiction', books: [{ title: 'Dune', pages_: [{ body: 'p1' }] }, { title: 'Emma', pages: 474 }] }));
      // @ts-expect-error: a book needs its title
      await library.store.transaction((tx) => writeNestedTree(tx, library.registry, spec, 'shelf', { name: 'Fiction', books: [{ pages: 1 }] }));
      // @ts-expect-error: the writer sets shelf_id from the parent
      await library.store.transaction((tx) => writeNestedTree(tx, library.registry, spec, 'shelf', { name: 'Fiction', books: [{ title: 'Dune', shelf_id: 2 }] }));
      // @ts-expect-error: `chapters` is no child array of the spec
      await library.store.transaction((tx) => writeNestedTree(tx, library.registry, spec, 'shelf', { name: 'Fiction', chapters: [] }));
      // @ts-expect-error: no table `shelff` in the spec's tables
      await library.store.transaction((tx) => writeNestedTree(tx, library.registry, { shelff: [{ key: 'books', table: 'book' }] }, 'shelf', { name: 'x' }));
    };
    expectTypeOf(check).toBeFunction();
  });

  it('loadRelated types each relation as its target row or null; an unknown relation is a compile error', async () => {
    const check = async () => {
      const posts = await app.loadRelated('post', await app.store.find('post'), ['author', 'created_by']);
      expectTypeOf(posts[0]!.title).toEqualTypeOf<string>();
      expectTypeOf(posts[0]!.author).toEqualTypeOf<{ id: number; name: string; bio: string | null } | null>();
      expectTypeOf(posts[0]!.created_by!.username).toEqualTypeOf<string>();
      expectTypeOf(posts[0]!.created_by!).not.toHaveProperty('password_hash');
      await app.store.transaction(async (tx) => app.loadRelated('post', await tx.find('post'), ['author'], tx));
      // @ts-expect-error: `tags` is no foreign key of post
      await app.loadRelated('post', [], ['tags']);
      // @ts-expect-error: the rows must be the table's
      await app.loadRelated('post', await app.store.find('author'), ['author']);
    };
    expectTypeOf(check).toBeFunction();
  });

  it('an app whose models are not known takes any table, with untyped rows', () => {
    const models: readonly ModelDecl[] = [];
    const loose = createApp({ database: 'memory:', models });
    const check = async () => {
      const rows = await loose.store.find('anything');
      expectTypeOf(rows[0]!).toEqualTypeOf<Row>();
    };
    expectTypeOf(check).toBeFunction();
  });

  it('model options name real columns', () => {
    // @ts-expect-error: ownedBy names no column
    defineModel('x', { id: c.id(), owner_id: c.fk('auth_user') }, { ownedBy: 'owner' });
    // @ts-expect-error: uniqueTogether names no column
    defineModel('y', { id: c.id(), a: c.text() }, { uniqueTogether: [['a', 'b']] });
  });
});

describe('typed hooks', () => {
  it('hooks(models) types the row and the transaction by the table; hooks() takes any table', () => {
    hooks([author, post] as const).afterSave('post', async (row, ctx) => {
      expectTypeOf(row.title).toEqualTypeOf<string>();
      expectTypeOf(ctx.changes?.score).toEqualTypeOf<number | undefined>();
      await ctx.tx.insert('author', { name: 'n' });
      // @ts-expect-error: no column `titel`
      await ctx.tx.insert('post', { titel: 't', author_id: 1 });
    });
    // @ts-expect-error: no table `boook`
    hooks([author, post] as const).beforeDelete('boook', () => undefined);
    hooks().afterSave('anything', (row) => {
      expectTypeOf(row).toEqualTypeOf<Row>();
    });
  });
});

describe('typed REST resources', () => {
  it('rest({ models }) checks the table, the column lists, ownedBy and the action rows', () => {
    rest({ models: [author, post] as const })
      .resource({ table: 'post', permission: AllowAny, hide: ['secret'], ownedBy: 'created_by_id' })
      .resource({
        table: 'author',
        actions: [
          {
            name: 'rename',
            method: 'POST',
            scope: 'Detail',
            handler: async ({ row }, { store }) => {
              expectTypeOf(row.name).toEqualTypeOf<string>();
              return { body: await store.update('author', row.id, { name: 'x' }) };
            },
          },
          {
            name: 'newest',
            method: 'GET',
            scope: 'List',
            handler: async ({ row }, { store }) => {
              expectTypeOf(row).toEqualTypeOf<undefined>();
              return { body: await store.find('author', { limit: 1 }) };
            },
          },
        ],
      });
    // @ts-expect-error: no table `boook`
    rest({ models: [author, post] as const }).resource({ table: 'boook' });
    // @ts-expect-error: no column `secrett`
    rest({ models: [author, post] as const }).resource({ table: 'post', hide: ['secrett'] });
    // @ts-expect-error: ownedBy names no column of author
    rest({ models: [author, post] as const }).resource({ table: 'author', ownedBy: 'owner_id' });
    rest().resource({ table: 'anything', hide: ['whatever'] });
  });
});
