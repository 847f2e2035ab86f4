import { execute, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../src/adapters/events/memory-event-bus.js';
import { buildGraphqlSchema, type GraphqlContext } from '../../../src/adapters/graphql/build-schema.js';
import { executeCompiled, executeGeneral } from '../../../src/adapters/graphql/compiled-execution.js';
import { Loaders } from '../../../src/adapters/graphql/loaders.js';
import { runPlain } from '../../../src/adapters/graphql/plain-execution.js';
import { plainPlan } from '../../../src/adapters/graphql/plain-plan.js';
import { MemoryRecordStore } from '../../../src/adapters/persistence/memory/memory-record-store.js';
import { cryptoRandomSource } from '../../../src/adapters/system/crypto-random-source.js';
import { ANONYMOUS, type Identity } from '../../../src/domain/auth/identity.js';
import { DatabaseUnavailable } from '../../../src/domain/errors/domain-error.js';
import { c, defineModel, ModelRegistry } from '../../../src/domain/model/index.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { ManualClock } from '../../support/open-test-database.js';

/**
 * The plain executor (documents made only of Portico's own fields) against graphql-js's
 * reference `execute` on the same schema, data and caller: the same answer, errors included,
 * with the same reads of the store; and which documents it takes at all.
 */
const registry = ModelRegistry.build([
  defineModel('author', { id: c.id(), name: c.text(), note: c.text().nullable().private(), joined_at: c.timestamp().nullable() }),
  defineModel('post', { id: c.id(), title: c.text(), author_id: c.fk('author').nullable(), published: c.bool().default(false), score: c.int().default(0), rating: c.float().nullable(), data: c.json().nullable() }),
  defineModel('comment', { id: c.id(), post_id: c.fk('post'), body: c.text() }),
  defineModel('ticket', { id: c.id(), author_id: c.fk('author'), subject: c.text() }),
]);
const staffOnly = (who: Identity) => who.isStaff;
const schema = buildGraphqlSchema(registry, {
  exposed: new Map([['author', undefined], ['post', undefined], ['comment', undefined], ['ticket', staffOnly]]),
  hidden: new Map(),
  unlocks: new Map([['author', new Map([['note', staffOnly]])]]),
});
const STAFF: Identity = { isAuthenticated: true, id: 1, username: 'staff', isStaff: true, isSuperuser: false, via: 'bearer' };

let store: RecordStore;

beforeAll(async () => {
  store = new MemoryRecordStore({ registry, events: new MemoryEventBus(), clock: new ManualClock(), random: cryptoRandomSource });
  await store.insertMany('author', [
    { name: 'Ada', note: 'private to staff', joined_at: new Date('2026-01-02T03:04:05.006Z') },
    { name: 'Grace', note: null, joined_at: null },
  ]);
  await store.insertMany('post', [
    { title: 'One', author_id: 1, published: true, score: 3, rating: 4.5, data: { tags: ['a', 'b'], n: 1 } },
    { title: 'Two', author_id: 2, score: -1 },
    { title: 'Orphan', author_id: null },
    { title: 'Four', author_id: 1, data: [1, 'two', null] },
  ]);
  await store.insertMany('comment', [
    { post_id: 1, body: 'first' },
    { post_id: 1, body: 'second' },
    { post_id: 2, body: 'third' },
    { post_id: 4, body: 'fourth' },
    { post_id: 1, body: 'fifth' },
  ]);
  await store.insertMany('ticket', [{ author_id: 1, subject: 'help' }]);
});

/** One read of the store: `find` (with its `where` value) or `getManyByIds` (with its keys). */
interface Read {
  readonly name: string;
  readonly table: string;
  readonly keys: unknown;
}

/** The store with its reads recorded; `fail` may answer a read with an error instead. */
function watched(inner: RecordStore, fail?: (read: Read) => unknown): { store: RecordStore; reads: Read[] } {
  const reads: Read[] = [];
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const call = (value as (...a: unknown[]) => unknown).bind(target);
      if (name !== 'find' && name !== 'getManyByIds') return call;
      return (table: string, arg: unknown, ...rest: unknown[]) => {
        const read = { name, table, keys: name === 'find' ? (arg as { where?: { value?: unknown } }).where?.value : arg };
        reads.push(read);
        const error = fail?.(read);
        return error ? Promise.reject(error) : call(table, arg, ...rest);
      };
    },
  });
  return { store, reads };
}

const names = (reads: readonly Read[]) => reads.map((r) => `${r.name} ${r.table}`).sort();

/** A request's resolver context over `s`. */
const contextOver = (s: RecordStore, identity: Identity): GraphqlContext => ({ identity, loaders: new Loaders(s, () => 'id'), store: s, events: new MemoryEventBus(), signal: new AbortController().signal });

/** What to execute (a fresh request context over the watched store), and the reads it makes. */
function request(source: string, identity: Identity, variableValues?: Record<string, unknown>): { args: ExecutionArgs; reads: Read[] } {
  const { store: s, reads } = watched(store);
  return { args: { schema, document: parse(source), contextValue: contextOver(s, identity), ...(variableValues ? { variableValues } : {}) }, reads };
}

const argsFor = (source: string, identity: Identity): ExecutionArgs => request(source, identity).args;

const json = (result: ExecutionResult) => JSON.parse(JSON.stringify(result)) as unknown;

/** Documents, with the variables sent (when any). */
const PLAIN: readonly (string | readonly [string, Record<string, unknown>])[] = [
  '{ posts(limit: 50) { id title author { name } comments { body } } }',
  '{ posts { __typename id a: title author { id name joined_at posts(limit: 1) { id title } } b: comments(limit: 2) { id body post { id } } } }',
  '{ posts(offset: 1, limit: 2) { id published score rating data } }',
  '{ post(id: "4") { id title author { name } comments { body } } }',
  '{ post(id: "99") { id } }',
  '{ authors { id name note joined_at } }',
  '{ comments { id body post { id title author { id name } } } }',
  '{ __typename tickets { id subject author { name } } }',
  '{ posts { id author { tickets { id } } } }',
  '{ posts(limit: 0) { id } comments(limit: 1) { id } }',
  'query Named { authors(limit: 1) { name } }',
  '{ comments { post { id comments(limit: 1) { body post { id title } } } } }',
  '{ post(id: "1") { id comments { post { title } } } }',
  '{ author(id: "1") { name } posts { title author { name } } }',
  ['query($n: Int, $id: ID!) { posts(limit: $n) { id comments(limit: $n) { body } } post(id: $id) { title } }', { n: 1, id: '2' }],
  ['query($n: Int = 2) { posts(limit: $n, offset: 1) { id } }', {}],
  ['query($n: Int) { posts(limit: $n) { id } }', { n: 'many' }],
  ['query($id: ID!) { post(id: $id) { id } }', {}],
  ['query($n: Int) { posts(limit: $n) { id } }', { n: -1 }],
  // Objects asked before leaves, and root fields whose reads finish in another order: keys in the order asked.
  '{ posts { author { name } id comments(limit: 1) { body post { title } id } title } }',
  '{ b: comments(limit: 2) { body } a: author(id: "2") { name } c: posts(limit: 1) { title } }',
];

describe('plain execution', () => {
  for (const entry of PLAIN) {
    const [source, variables] = typeof entry === 'string' ? [entry, undefined] : entry;
    for (const [who, identity] of [['anonymous', ANONYMOUS], ['staff', STAFF]] as const) {
      it(`answers ${source} ${variables ? JSON.stringify(variables) : ''} for ${who} as graphql-js does, with the same reads`, async () => {
        const ours = request(source, identity, variables);
        const theirs = request(source, identity, variables);
        const plan = plainPlan(ours.args);
        if (!plan) throw new Error('not planned');
        const reference = await execute(theirs.args);
        const answer = await runPlain(plan, ours.args);
        if (reference.errors) {
          // A refused gate or a bad argument: the plain executor hands the document over, and the general one answers as it did alone.
          expect(answer).toEqual({ handOver: true });
          expect(json(await executeCompiled(request(source, identity, variables).args))).toEqual(json(await executeGeneral(request(source, identity, variables).args)));
        } else {
          // Compared as text: the keys in the same order too (GraphQL "Serialized Map Ordering").
          expect('answer' in answer && JSON.stringify(answer.answer)).toBe(JSON.stringify(reference));
          // The same reads; sibling root fields may start them in another order.
          expect(names(ours.reads)).toEqual(names(theirs.reads));
        }
      });
    }
  }

  it('reads a key once per request, whether two parts of the query ask for it at the same time or one after the other', async () => {
    const { store: spy, reads } = watched(store);
    const loaders = new Loaders(spy, () => 'id');
    const list = { table: 'comment', column: 'post_id', limit: 50, projection: undefined };
    const [first, second] = await Promise.all([loaders.rowsByParents(list, [1, 2]), loaders.rowsByParents(list, [2, 4, 1])]);
    const [a, b] = await Promise.all([loaders.rowsByIds('author', [1, 1]), loaders.rowsByIds('author', [2, 1])]);
    const later = await loaders.rowsByParents(list, [4, 3]);
    // Asked in the same turn, the two lists are one statement (the loader batches them), each key
    // once; asked later, only the key not read yet.
    expect(reads.map((r) => [r.name, r.table, r.keys])).toEqual([
      ['find', 'comment', [1, 2, 4]],
      ['getManyByIds', 'author', [1, 2]],
      ['find', 'comment', [3]],
    ]);
    expect(later.get('3')).toEqual([]);
    expect(later.get('4')?.map((r) => r.body)).toEqual(['fourth']);
    expect(first.get('1')?.map((r) => r.body)).toEqual(['first', 'second', 'fifth']);
    expect(second.get('4')?.map((r) => r.body)).toEqual(['fourth']);
    expect(second.get('2')?.map((r) => r.body)).toEqual(['third']);
    expect([a.get('1')?.name, b.get('2')?.name, b.get('1')?.name]).toEqual(['Ada', 'Grace', 'Ada']);
  });

  it('runs through the plain executor behind the compiled one', async () => {
    const ours = request(PLAIN[0] as string, ANONYMOUS);
    const theirs = request(PLAIN[0] as string, ANONYMOUS);
    expect(json(await executeCompiled(ours.args))).toEqual(json(await execute(theirs.args)));
    expect(names(ours.reads)).toEqual(['find comment', 'find post', 'getManyByIds author']);
  });

  it('hands over a document whose gate refuses the caller (the general executor answers with the error)', async () => {
    const args = argsFor('{ tickets { id } }', ANONYMOUS);
    const plan = plainPlan(args);
    expect(plan).not.toBeNull();
    expect(await runPlain(plan as NonNullable<typeof plan>, args)).toEqual({ handOver: true });
    const answer = json(await executeCompiled(argsFor('{ tickets { id } }', ANONYMOUS))) as { data: unknown; errors: { message: string }[] };
    expect(answer.data).toEqual({ tickets: null });
    expect(answer.errors[0]?.message).toBe('not allowed to read ticket');
  });

  it('reports a read that failed once, in the general executor\'s shape, without reading again', async () => {
    const lost = new DatabaseUnavailable();
    const { store: failing, reads } = watched(store, (read) => (read.name === 'find' && read.table === 'comment' ? lost : undefined));
    const contextValue = contextOver(failing, ANONYMOUS);
    const answer = await executeCompiled({ schema, document: parse(PLAIN[0] as string), contextValue });
    expect(names(reads)).toEqual(['find comment', 'find post', 'getManyByIds author']);
    expect(answer.data).toBeNull();
    expect(answer.errors?.map((e) => [e.message, e.path, e.originalError])).toEqual([['the database is unavailable', ['posts'], lost]]);
  });

  for (const source of [
    '{ posts { ...F } } fragment F on Post { id }',
    '{ posts { ... on Post { id } } }',
    '{ posts { id @include(if: true) } }',
    '{ posts { id id } }',
    '{ posts { id } posts { title } }',
    '{ postsConnection(first: 2) { edges { node { id } } } }',
    'mutation { __typename }',
    '{ posts(limit: 1) { __proto__: title } }',
  ]) {
    it(`leaves ${source} to the general executor`, () => {
      expect(plainPlan(argsFor(source, ANONYMOUS))).toBeNull();
    });
  }

  it('answers a `__proto__` alias as a key, as graphql-js does', async () => {
    const source = '{ posts(limit: 1) { __proto__: title id } }';
    const answer = await executeCompiled(argsFor(source, ANONYMOUS));
    expect(JSON.stringify(answer)).toBe(JSON.stringify(await execute(argsFor(source, ANONYMOUS))));
    expect(JSON.stringify(answer)).toBe('{"data":{"posts":[{"__proto__":"One","id":"1"}]}}');
  });
});
