import { beforeAll, describe, expect, it } from 'vitest';
import { Loaders } from '../../../src/adapters/graphql/loaders.js';
import { GraphqlReads } from '../../../src/application/graphql/graphql-reads.js';
import { ANONYMOUS } from '../../../src/domain/auth/identity.js';
import type { Row } from '../../../src/domain/model/types.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { registry, seededStore, watched } from '../../support/graphql-fixture.js';

/**
 * The request's DataLoaders over the read use cases: one statement per relation per turn, a key
 * read once per request, a failed read not remembered, no read once the client has left.
 */
let store: RecordStore;

beforeAll(async () => {
  store = await seededStore();
});

const bodies = (rows: Row[] | Error | undefined) => (Array.isArray(rows) ? rows.map((r) => r.body) : rows);

describe('GraphQL loaders', () => {
  it('reads a key once per request, whether two parts of the query ask for it at the same time or one after the other', async () => {
    const { store: spy, reads } = watched(store);
    const loaders = new Loaders(new GraphqlReads(spy, registry).for(ANONYMOUS));
    const comments = loaders.byParent('comment', 'post_id', 50);
    const [first, second] = await Promise.all([comments.loadMany([1, 2]), comments.loadMany([2, 4, 1])]);
    const authors = loaders.byId('author');
    const [a, b] = await Promise.all([authors.loadMany([1, 1]), authors.loadMany([2, 1])]);
    const later = await comments.loadMany([4, 3]);
    // Asked in the same turn, the two lists are one statement (the loader batches them), each key
    // once; asked later, only the key not read yet.
    expect(reads.map((r) => [r.name, r.table, r.keys])).toEqual([
      ['find', 'comment', [1, 2, 4]],
      ['getManyByIds', 'author', [1, 2]],
      ['find', 'comment', [3]],
    ]);
    expect(later.map(bodies)).toEqual([['fourth'], []]);
    expect(bodies(first[0])).toEqual(['first', 'second', 'fifth']);
    expect(second.map(bodies)).toEqual([['third'], ['fourth'], ['first', 'second', 'fifth']]);
    expect([a[0], a[1], b[0], b[1]].map((r) => (r instanceof Error ? r : r?.name))).toEqual(['Ada', 'Ada', 'Grace', 'Ada']);
  });

  it('reads a key whose read failed again when it is asked again', async () => {
    let failing = true;
    const { store: spy, reads } = watched(store, (read) => (failing && read.table === 'author' ? new Error('read failed') : undefined));
    const authors = new Loaders(new GraphqlReads(spy, registry).for(ANONYMOUS)).byId('author');
    await expect(authors.load(1)).rejects.toThrow('read failed');
    failing = false;
    expect((await authors.load(1))?.name).toBe('Ada');
    expect(reads.map((r) => [r.name, r.table, r.keys])).toEqual([
      ['getManyByIds', 'author', [1]],
      ['getManyByIds', 'author', [1]],
    ]);
  });

  it('reads nothing once the client has left', async () => {
    const { store: spy, reads } = watched(store);
    const controller = new AbortController();
    const loaders = new Loaders(new GraphqlReads(spy, registry).for(ANONYMOUS), controller.signal);
    controller.abort(new Error('the client disconnected'));
    await expect(loaders.byId('author').load(1)).rejects.toThrow('the client disconnected');
    await expect(loaders.byParent('comment', 'post_id', 50).load(1)).rejects.toThrow('the client disconnected');
    expect(reads).toEqual([]);
  });
});
