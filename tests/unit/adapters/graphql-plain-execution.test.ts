import { execute, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeCompiled, executeGeneral } from '../../../src/adapters/graphql/compiled-execution.js';
import { Loaders } from '../../../src/adapters/graphql/loaders.js';
import { runPlain } from '../../../src/adapters/graphql/plain-execution.js';
import { plainPlan } from '../../../src/adapters/graphql/plain-plan.js';
import { ANONYMOUS, type Identity } from '../../../src/domain/auth/identity.js';
import { DatabaseUnavailable } from '../../../src/domain/errors/domain-error.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { contextOver, names, request as requestOver, schema, seededStore, STAFF, watched } from '../../support/graphql-plain-fixture.js';

/**
 * The plain executor (documents made only of Portico's own fields) against graphql-js's
 * reference `execute` on the same schema, data and caller: the same answer, errors included,
 * with the same reads of the store; and which documents it takes at all.
 */
let store: RecordStore;

beforeAll(async () => {
  store = await seededStore();
});

const request = (source: string, identity: Identity, variableValues?: Record<string, unknown>) => requestOver(store, source, identity, variableValues);
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
