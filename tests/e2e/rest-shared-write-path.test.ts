import { describe, expect, it } from 'vitest';
import { auth, bearerAuthentication, c, createApp, defineModel, IsAuthenticated, rest, sessions, type PorticoApp, type Row } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { servedWithUsers } from '../support/signed-in-users.js';

/**
 * Issue 46 item 2, "one write path": single, bulk and nested REST writes go through the same
 * create, update and delete use cases, so the server-set columns (`setOnCreate`) and the model's
 * row policy hold for every row a batch or a document tree writes, at every level, a refused
 * item or node writes nothing, and signal handlers see the caller.
 */
const pgUp = await postgresAvailable();

const shelf = defineModel(
  'shelf',
  { id: c.id(), owner_id: c.fk('auth_user'), name: c.text(), stamp: c.text() },
  { ownedBy: 'owner_id', setOnCreate: { stamp: (who) => `by ${String(who.id)}` } },
);
const book = defineModel(
  'book',
  { id: c.id(), shelf_id: c.fk('shelf'), owner_id: c.fk('auth_user'), title: c.text(), added_by: c.text() },
  { ownedBy: 'owner_id', setOnCreate: { added_by: (who) => `by ${String(who.id)}` } },
);
// A scope function (only public memos are anyone's) and a unique code: a batch insert that fails is located by index.
const memo = defineModel('memo', { id: c.id(), kind: c.text(), code: c.text().unique() }, { scope: () => ({ column: 'kind', op: 'eq', value: 'public' }) });

function build(database: string): PorticoApp {
  return createApp({ database, models: [shelf, book, memo], autoMigrate: true, logRequests: false })
    .use(sessions())
    .use(auth())
    .use(
      rest()
        .authenticate(bearerAuthentication())
        .resource({ table: 'shelf', permission: IsAuthenticated, bulk: true, nested: [{ key: 'books', table: 'book' }] })
        .resource({ table: 'book', permission: IsAuthenticated, bulk: true })
        .resource({ table: 'memo', permission: IsAuthenticated, bulk: true }),
    );
}

for (const backend of ['sqlite', 'postgresql'] as const) {
  describe.skipIf(backend === 'postgresql' && !pgUp)(`bulk and nested writes through the shared write path (${backend})`, () => {
    const served = servedWithUsers(backend, build, ['ada', 'bob'] as const);

    type Answer = Row & { code?: string; errors?: { field?: string; index?: number }[]; books?: Row[] };
    const call = async (who: 'ada' | 'bob', method: string, path: string, body: unknown) => {
      const res = await fetch(served.url + path, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${served.tokens[who]}` }, body: JSON.stringify(body) });
      return { status: res.status, body: (res.status === 204 ? null : await res.json()) as Answer & Answer[] };
    };
    const stored = (table: string, name: string, value: string) => served.app.store.find(table, { where: { column: name, op: 'eq', value } });

    it('a bulk create sets the server-set columns and the owner of every item; an item naming another owner is 403 at its index, nothing written', async () => {
      const made = await call('ada', 'POST', '/api/shelf/', [{ name: 'bulk-1' }, { name: 'bulk-2', stamp: 'forged', owner_id: served.ids.ada }]);
      expect(made.status).toBe(201);
      for (const name of ['bulk-1', 'bulk-2']) expect(await stored('shelf', 'name', name)).toMatchObject([{ owner_id: served.ids.ada, stamp: `by ${served.ids.ada}` }]);
      const refused = await call('ada', 'POST', '/api/shelf/', [{ name: 'bulk-3' }, { name: 'bulk-4', owner_id: served.ids.bob }]);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'forbidden', errors: [{ index: 1 }] });
      expect(await served.app.store.count('shelf', { column: 'name', op: 'in', value: ['bulk-3', 'bulk-4'] })).toBe(0);
    });

    it('a nested create sets the server-set columns and the owner at every level; a child naming another owner is 403, nothing written', async () => {
      const made = await call('bob', 'POST', '/api/shelf/', { name: 'tree', stamp: 'forged', books: [{ title: 'one', added_by: 'forged' }, { title: 'two', owner_id: served.ids.bob }] });
      expect(made.status).toBe(201);
      expect(await stored('shelf', 'name', 'tree')).toMatchObject([{ owner_id: served.ids.bob, stamp: `by ${served.ids.bob}` }]);
      for (const title of ['one', 'two']) expect(await stored('book', 'title', title)).toMatchObject([{ owner_id: served.ids.bob, added_by: `by ${served.ids.bob}`, shelf_id: made.body.id }]);
      const before = await served.app.store.count('book');
      const refused = await call('bob', 'POST', '/api/shelf/', { name: 'tree-2', books: [{ title: 'three' }, { title: 'four', owner_id: served.ids.ada }] });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('forbidden');
      expect(String(refused.body.detail)).toMatch(/^shelf\.books\[1\]: this book would not be yours/);
      expect(await served.app.store.count('book')).toBe(before);
      expect(await stored('shelf', 'name', 'tree-2')).toEqual([]);
      // A nested update keeps every child with its owner too.
      const [one] = await stored('book', 'title', 'one');
      const handed = await call('bob', 'PATCH', `/api/shelf/${String(made.body.id)}`, { books: [{ id: one?.id, owner_id: served.ids.ada }] });
      expect(handed.status).toBe(403);
      expect((await served.app.store.getById('book', one?.id ?? 0))?.owner_id).toBe(served.ids.bob);
    });

    it('signal handlers see the caller of every row a bulk or nested write makes (the write path passes it)', async () => {
      const seen: string[] = [];
      const offs = ['shelf', 'book'].map((table) => served.app.events.on('post_save', table, (e, ctx) => void seen.push(`${table}:${String(e.row.name ?? e.row.title)}:${String(ctx?.caller?.username)}`)));
      try {
        expect((await call('ada', 'POST', '/api/shelf/', [{ name: 'seen-1' }, { name: 'seen-2' }])).status).toBe(201);
        const tree = await call('bob', 'POST', '/api/shelf/', { name: 'seen-3', books: [{ title: 'seen-4' }] });
        expect(tree.status).toBe(201);
        expect((await call('bob', 'PATCH', '/api/shelf/', [{ id: tree.body.id, name: 'seen-5' }])).status).toBe(200);
      } finally {
        for (const off of offs) off();
      }
      expect(seen).toEqual(['shelf:seen-1:ada', 'shelf:seen-2:ada', 'shelf:seen-3:bob', 'book:seen-4:bob', 'shelf:seen-5:bob']);
    });

    it('a bulk update cannot hand a row to another owner, and a bulk delete does not reach one (the index named, nothing written)', async () => {
      const [mine] = await stored('shelf', 'name', 'bulk-1');
      const handed = await call('ada', 'PATCH', '/api/shelf/', [{ id: mine?.id, name: 'renamed' }, { id: mine?.id, owner_id: served.ids.bob }]);
      expect(handed.status).toBe(403);
      expect(handed.body).toMatchObject({ code: 'forbidden', errors: [{ index: 1 }] });
      expect(await served.app.store.getById('shelf', mine?.id ?? 0)).toMatchObject({ name: 'bulk-1', owner_id: served.ids.ada });
      const [theirs] = await stored('shelf', 'name', 'tree');
      const removed = await call('ada', 'DELETE', '/api/shelf/', { ids: [mine?.id, theirs?.id] });
      expect(removed.status).toBe(404);
      expect(removed.body).toMatchObject({ code: 'not_found', errors: [{ index: 1 }] });
      expect(await served.app.store.count('shelf', { column: 'id', op: 'in', value: [mine?.id ?? 0, theirs?.id ?? 0] })).toBe(2);
    });

    it('a bulk create under a scope function: a row outside it is 403 at its index; a failing insert is located by index; nothing written', async () => {
      const outside = await call('ada', 'POST', '/api/memo/', [{ kind: 'public', code: 'a' }, { kind: 'secret', code: 'b' }]);
      expect(outside.status).toBe(403);
      expect(outside.body).toMatchObject({ code: 'forbidden', errors: [{ index: 1 }] });
      const twice = await call('ada', 'POST', '/api/memo/', [{ kind: 'public', code: 'c' }, { kind: 'public', code: 'd' }, { kind: 'public', code: 'c' }]);
      expect(twice.status).toBe(400);
      expect(twice.body).toMatchObject({ code: 'unique_violation', errors: [{ index: 2 }] });
      expect(await served.app.store.count('memo')).toBe(0);
      expect((await call('ada', 'POST', '/api/memo/', [{ kind: 'public', code: 'e' }, { kind: 'public', code: 'f' }])).status).toBe(201);
      expect(await served.app.store.count('memo')).toBe(2);
    });
  });
}
