import { describe, expect, it } from 'vitest';
import { auth, bearerAuthentication, c, createApp, defineModel, existsOr404, IsAuthenticated, ModelDefinitionError, rest, sessions, type Identity, type PorticoApp, type Row } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { servedWithUsers } from '../support/signed-in-users.js';

/**
 * Issue 46 item 0: a row policy is the model's. Declared on the model (`ownedBy`) or as REST sugar,
 * REST reaches only the caller's rows: another owner's row is a 404 for every action, a create
 * that names another owner (one by one, in bulk, nested) is a 403 writing nothing, an omitted
 * owner is the caller, and an update cannot hand a row to someone else.
 */
const pgUp = await postgresAvailable();

const shelf = defineModel('shelf', { id: c.id(), owner_id: c.fk('auth_user'), name: c.text() }, { ownedBy: 'owner_id' });
const book = defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text() });
const loan = defineModel('loan', { id: c.id(), borrower_id: c.fk('auth_user'), title: c.text() });

function build(database: string): PorticoApp {
  return createApp({ database, models: [shelf, book, loan], autoMigrate: true, logRequests: false })
    .use(sessions())
    .use(auth())
    .use(
      rest()
        .authenticate(bearerAuthentication())
        .resource({ table: 'shelf', permission: IsAuthenticated, bulk: true, nested: [{ key: 'books', table: 'book' }] })
        .resource({ table: 'book', permission: IsAuthenticated, under: { parent: 'shelf', fk: 'shelf_id' } })
        // The bug report's sugar: a resource option that becomes the model's policy.
        .resource({ table: 'loan', permission: IsAuthenticated, ownedBy: 'borrower_id' }),
    );
}

for (const backend of ['sqlite', 'postgresql'] as const) {
  describe.skipIf(backend === 'postgresql' && !pgUp)(`REST under the model's row policy (${backend})`, () => {
    const served = servedWithUsers(backend, build, ['ada', 'bob'] as const);

    const call = async (who: 'ada' | 'bob' | null, method: string, path: string, body?: unknown) => {
      const res = await fetch(served.url + path, {
        method,
        headers: { 'content-type': 'application/json', ...(who ? { authorization: `Bearer ${served.tokens[who]}` } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (res.status === 204 ? null : await res.json()) as Row & { results?: Row[]; count?: number; code?: string; errors?: { index?: number }[] } };
    };

    it('a create without the owner column is the caller\'s; one naming another owner is 403 and writes nothing', async () => {
      const mine = await call('ada', 'POST', '/api/shelf/', { name: 'ada-1' });
      expect(mine.status).toBe(201);
      expect(mine.body.owner_id).toBe(served.ids.ada);
      const theirs = await call('ada', 'POST', '/api/shelf/', { name: 'for bob', owner_id: served.ids.bob });
      expect(theirs.status).toBe(403);
      expect(theirs.body.code).toBe('forbidden');
      expect(await served.app.store.count('shelf', { column: 'name', op: 'eq', value: 'for bob' })).toBe(0);
      const bulk = await call('bob', 'POST', '/api/shelf/', [{ name: 'bob-1' }, { name: 'bob-2', owner_id: served.ids.ada }]);
      expect(bulk.status).toBe(403);
      expect(await served.app.store.count('shelf', { column: 'name', op: 'in', value: ['bob-1', 'bob-2'] })).toBe(0);
      const nested = await call('bob', 'POST', '/api/shelf/', { name: 'bob-nested', owner_id: served.ids.ada, books: [{ title: 'x' }] });
      expect(nested.status).toBe(403);
      expect(await served.app.store.count('book')).toBe(0);
      expect((await call('bob', 'POST', '/api/shelf/', [{ name: 'bob-1' }, { name: 'bob-2' }])).status).toBe(201);
    });

    it("another owner's row is a 404 for every action, and out of every list and child route", async () => {
      const [adaShelf] = await served.app.store.find('shelf', { where: { column: 'name', op: 'eq', value: 'ada-1' } });
      const id = String(adaShelf?.id);
      await served.app.store.insert('book', { shelf_id: adaShelf?.id ?? null, title: 'ada-book' });
      const list = await call('bob', 'GET', '/api/shelf/');
      expect(list.body.results?.map((r) => r.name).sort()).toEqual(['bob-1', 'bob-2']);
      expect(list.body.count).toBe(2);
      expect((await call('bob', 'GET', `/api/shelf/${id}`)).status).toBe(404);
      expect((await call('bob', 'PATCH', `/api/shelf/${id}`, { name: 'taken' })).status).toBe(404);
      expect((await call('bob', 'PUT', `/api/shelf/${id}`, { name: 'taken' })).status).toBe(404);
      expect((await call('bob', 'DELETE', `/api/shelf/${id}`)).status).toBe(404);
      const bulkPatch = await call('bob', 'PATCH', '/api/shelf/', [{ id: adaShelf?.id, name: 'taken' }]);
      expect(bulkPatch.body).toMatchObject({ code: 'not_found' });
      expect(bulkPatch.status).toBe(404);
      // A child route under a parent the caller does not reach is a 404, never a list.
      expect((await call('bob', 'GET', `/api/shelf/${id}/book/`)).status).toBe(404);
      expect((await call('bob', 'POST', `/api/shelf/${id}/book/`, { title: 'sneaked in' })).status).toBe(404);
      expect((await call(null, 'GET', '/api/shelf/')).status).toBe(401);
      expect((await served.app.store.getById('shelf', adaShelf?.id ?? 0))?.name).toBe('ada-1');
      expect(await served.app.store.count('book')).toBe(1);
      expect((await call('ada', 'GET', `/api/shelf/${id}/book/`)).body.count).toBe(1);
    });

    it('an update cannot hand a row to another owner', async () => {
      const [adaShelf] = await served.app.store.find('shelf', { where: { column: 'name', op: 'eq', value: 'ada-1' } });
      const res = await call('ada', 'PATCH', `/api/shelf/${String(adaShelf?.id)}`, { owner_id: served.ids.bob });
      expect(res.status).toBe(403);
      expect((await served.app.store.getById('shelf', adaShelf?.id ?? 0))?.owner_id).toBe(served.ids.ada);
      expect((await call('ada', 'PATCH', `/api/shelf/${String(adaShelf?.id)}`, { owner_id: served.ids.ada, name: 'ada-one' })).status).toBe(200);
    });

    it('the REST resource option is the model policy: registry and existsOr404 see it', async () => {
      expect(served.app.registry.require('loan').rowPolicy?.ownedBy).toBe('borrower_id');
      const loanRow = await served.app.store.insert('loan', { borrower_id: served.ids.ada, title: 'dune' });
      expect((await call('bob', 'GET', `/api/loan/${String(loanRow.id)}`)).status).toBe(404);
      expect((await call('ada', 'GET', `/api/loan/${String(loanRow.id)}`)).status).toBe(200);
      const bob: Identity = { isAuthenticated: true, id: served.ids.bob, username: 'bob', isStaff: false, isSuperuser: false, via: 'bearer' };
      await expect(existsOr404(served.app.store, served.app.registry.require('loan'), String(loanRow.id), bob)).rejects.toMatchObject({ code: 'not_found' });
      expect((await existsOr404(served.app.store, served.app.registry.require('loan'), String(loanRow.id))).title).toBe('dune');
    });
  });
}

describe('a row policy that cannot hold is an error at start', () => {
  const start = async (app: PorticoApp) => {
    try {
      await app.start();
    } finally {
      await app.close();
    }
  };

  it('ownedBy naming an unknown column', async () => {
    // @ts-expect-error: the type checker refuses it too; an untyped host gets the start error
    const bad = defineModel('bad', { id: c.id(), body: c.text() }, { ownedBy: 'owner_id' });
    await expect(start(createApp({ database: 'memory:', models: [bad], logRequests: false }))).rejects.toThrow(new ModelDefinitionError('ownedBy names unknown column bad.owner_id'));
  });

  it('two declarations that disagree name both places', async () => {
    const app = createApp({ database: 'memory:', models: [shelf], logRequests: false }).use(rest().resource({ table: 'shelf', ownedBy: 'name' }));
    await expect(start(app)).rejects.toThrow("shelf: ownedBy('name') in rest().resource({ table: 'shelf' }) differs from ownedBy('owner_id') in defineModel('shelf'); declare the row policy once, on the model");
  });

  it('a policy for a table nobody registered', async () => {
    const app = createApp({ database: 'memory:', models: [book], logRequests: false }).use(rest().resource({ table: 'nope', ownedBy: 'x' }));
    await expect(start(app)).rejects.toThrow(`rest().resource({ table: 'nope' }) declares a row policy for unknown table "nope"`);
  });

  it('nested writes into a model with a scope function', async () => {
    const scoped = defineModel('shelf', { id: c.id(), owner_id: c.fk('auth_user'), name: c.text() }, { scope: () => ({ column: 'name', op: 'ne', value: 'hidden' }) });
    const app = createApp({ database: 'memory:', models: [scoped, book], logRequests: false }).use(rest().resource({ table: 'shelf', nested: [{ key: 'books', table: 'book' }] }));
    await expect(start(app)).rejects.toThrow("rest: nested('books', 'book') on shelf: nested writes cannot apply the row scope function of shelf (use ownedBy, or drop nested)");
  });
});
