import { execute, parse, type ExecutionResult } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeCompiled } from '../../../src/adapters/graphql/compiled-execution.js';
import { ANONYMOUS, type Identity } from '../../../src/domain/auth/identity.js';
import { DatabaseUnavailable } from '../../../src/domain/errors/domain-error.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { contextOver, expectAnswerOfGraphqlJs, names, request as requestOver, schema, seededStore, STAFF, watched } from '../../support/graphql-fixture.js';

/**
 * The executor of `POST /graphql` (`executeCompiled`: graphql-jit, graphql-js's `execute` for
 * what graphql-jit declines) against graphql-js's reference `execute` on the same schema, data
 * and caller: without errors the same answer as text (keys in the order asked) and the same
 * reads of the store; with errors the same data, errors first, and graphql-js's messages among
 * ours (graphql-jit reports every field that failed, graphql-js drops the errors under a field
 * another error nulled).
 */
let store: RecordStore;

beforeAll(async () => {
  store = await seededStore();
});

const request = (source: string, identity: Identity, variableValues?: Record<string, unknown>) => requestOver(store, source, identity, variableValues);

/** Documents, with the variables sent (when any). */
const DOCUMENTS: readonly (string | readonly [string, Record<string, unknown>])[] = [
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
  // Fragments, directives, a field asked twice, connections, a mutation (graphql-js runs it).
  '{ posts { ...F } } fragment F on Post { id }',
  '{ posts { ... on Post { id } } }',
  '{ posts { id @include(if: true) title @skip(if: true) } }',
  '{ posts { id id } }',
  '{ posts { id } posts { title } }',
  '{ postsConnection(first: 2) { edges { node { id } } } }',
  'mutation { __typename }',
];

describe('GraphQL execution (graphql-jit) against graphql-js', () => {
  for (const entry of DOCUMENTS) {
    const [source, variables] = typeof entry === 'string' ? [entry, undefined] : entry;
    for (const [who, identity] of [['anonymous', ANONYMOUS], ['staff', STAFF]] as const) {
      it(`answers ${source} ${variables ? JSON.stringify(variables) : ''} for ${who} as graphql-js does, with the same reads`, async () => {
        const ours = request(source, identity, variables);
        const theirs = request(source, identity, variables);
        const reference = await execute(theirs.args);
        const answer = (await executeCompiled(ours.args)) as ExecutionResult;
        // The same reads; sibling root fields may start them in another order.
        expect(names(ours.reads)).toEqual(names(theirs.reads));
        expectAnswerOfGraphqlJs(answer, reference);
      });
    }
  }

  it('answers a gated model the caller does not pass with a FORBIDDEN error on that field', async () => {
    const answer = JSON.parse(JSON.stringify(await executeCompiled(request('{ tickets { id } }', ANONYMOUS).args))) as { data: unknown; errors: { message: string }[] };
    expect(answer.data).toEqual({ tickets: null });
    expect(answer.errors[0]?.message).toBe('not allowed to read ticket');
  });

  it('reports a read that failed with its error, reading nothing twice', async () => {
    const lost = new DatabaseUnavailable();
    const { store: failing, reads } = watched(store, (read) => (read.name === 'find' && read.table === 'comment' ? lost : undefined));
    const answer = (await executeCompiled({ schema, document: parse(DOCUMENTS[0] as string), contextValue: contextOver(failing, ANONYMOUS) })) as ExecutionResult;
    expect(names(reads)).toEqual(['find comment', 'find post', 'getManyByIds author']);
    expect(answer.data).toBeNull();
    expect(answer.errors?.length).toBeGreaterThan(0);
    for (const error of answer.errors ?? []) expect([error.message, error.originalError]).toEqual(['the database is unavailable', lost]);
  });

  it('reads nothing once the client has left, and answers the departure', async () => {
    const controller = new AbortController();
    const { store: departing, reads } = watched(store, () => void controller.abort(new Error('the client disconnected')));
    const answer = (await executeCompiled({ schema, document: parse(DOCUMENTS[0] as string), contextValue: contextOver(departing, STAFF, controller.signal) })) as ExecutionResult;
    expect(names(reads)).toEqual(['find post']);
    expect(answer.data).toBeNull();
    expect(answer.errors?.length).toBeGreaterThan(0);
    for (const error of answer.errors ?? []) expect(error.message).toBe('the client disconnected');
  });

  it('answers a `__proto__` alias as a key, as graphql-js does', async () => {
    const source = '{ posts(limit: 1) { __proto__: title id } }';
    const answer = await executeCompiled(request(source, ANONYMOUS).args);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(await execute(request(source, ANONYMOUS).args)));
    expect(JSON.stringify(answer)).toBe('{"data":{"posts":[{"__proto__":"One","id":"1"}]}}');
  });
});
